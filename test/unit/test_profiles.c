/*===- test_profiles.c - real profile directories for the unit tests ------===*/
#include "test_profiles.h"

#include "latency/costmodel_util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool makeDirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(buf, 0755);
      *p = '/';
    }
  return mkdir(buf, 0755) == 0 || errno == EEXIST;
}

bool testWriteFile(const char *dir, const char *name, const char *text) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  if (!makeDirs(path)) {
    perror(path);
    return false;
  }
  *slash = '/';
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return false;
  }
  fputs(text, f);
  fclose(f);
  return true;
}

bool testMakeProfile(const char *dir, const char *policy, const char *table) {
  char path[4096];
  snprintf(path, sizeof path, "%s/tables", dir);
  makeDirs(path);
  snprintf(path, sizeof path, "%s/tables/t.csv", dir);
  remove(path);
  snprintf(path, sizeof path, "%s/policy.csv", dir);
  remove(path);
  return testWriteFile(dir, "device.csv",
                       "key,value\nname,test-device\npeak_flops.bf16,1e15\n"
                       "mem_bw,1e12\nlaunch_us,2\ncompute_efficiency,0.5\n"
                       "memory_efficiency,0.5\n") &&
         testWriteFile(dir, "fusion.csv", "producer,consumer\nmatmul,add\n") &&
         (!policy || testWriteFile(dir, "policy.csv", policy)) &&
         (!table || testWriteFile(dir, "tables/t.csv", table));
}

bool testLoadProfile(const char *dir, CmProfile *out) {
  CmError err;
  if (cmProfileCreateFromDir(dir, out, &err) != CM_OK) {
    fprintf(stderr, "cannot load %s: %s\n", dir, err.message);
    return false;
  }
  return true;
}

const char *testShippedProfilesDir(void) { return LATENCY_SOURCE_PROFILES; }

/*------------------------------------------- the golden hold-out profile --*/

typedef struct {
  char (*keys)[64]; /* "m,n,k" of each golden row */
  size_t count;
  FILE *out;
  size_t kept;
} Filter;

static CmStatus collectGolden(void *ctx, char **f, size_t n, size_t line,
                              CmError *err) {
  (void)err;
  Filter *flt = ctx;
  if (line > 1 && n >= 3)
    snprintf(flt->keys[flt->count++], 64, "%s,%s,%s", f[0], f[1], f[2]);
  return CM_OK;
}

static int compareKeys(const void *a, const void *b) { return strcmp(a, b); }

static CmStatus copyUnlessGolden(void *ctx, char **f, size_t n, size_t line,
                                 CmError *err) {
  (void)err;
  Filter *flt = ctx;
  if (line == 1 || n < 6) {
    fputs("kernel,dtype,m,n,k,latency_us\n", flt->out);
    return CM_OK;
  }
  char key[64];
  snprintf(key, sizeof key, "%s,%s,%s", f[2], f[3], f[4]);
  if (bsearch(key, flt->keys, flt->count, sizeof *flt->keys, compareKeys))
    return CM_OK;
  fprintf(flt->out, "%s,%s,%s,%s,%s,%s\n", f[0], f[1], f[2], f[3], f[4], f[5]);
  flt->kept++;
  return CM_OK;
}

bool testProfileWithoutGolden(const char *buildDir, const char *goldenPath,
                              CmProfile *out) {
  char dir[4096], path[4200], shipped[4200];
  snprintf(dir, sizeof dir, "%s/test-profiles/h100-minus-golden", buildDir);
  if (!testMakeProfile(dir, NULL, NULL))
    return false;
  Filter flt = {calloc(4096, 64), 0, NULL, 0};
  CmError err;
  bool ok = flt.keys && cmCsvReadFile(goldenPath, "golden", collectGolden, &flt,
                                      &err) == CM_OK;
  qsort(flt.keys, flt.count, sizeof *flt.keys, compareKeys);
  snprintf(path, sizeof path, "%s/tables/matmul.csv", dir);
  snprintf(shipped, sizeof shipped, "%s/h100-sxm/tables/matmul_bf16.csv",
           LATENCY_SOURCE_PROFILES);
  ok = ok && (flt.out = fopen(path, "w")) &&
       cmCsvReadFile(shipped, shipped, copyUnlessGolden, &flt, &err) == CM_OK;
  if (flt.out)
    fclose(flt.out);
  free(flt.keys);
  if (!ok) {
    fprintf(stderr, "cannot build %s: %s\n", dir, err.message);
    return false;
  }
  return testLoadProfile(dir, out);
}
