/*===- transfer_write.c - the transferred profile as a directory ----------===*
 *
 * The output is an ordinary profile: every tool that loads profiles loads
 * it. device.csv keeps the target's entries as written and adds
 *
 *   transferred_from,<reference device name>
 *   transfer_points,<target points used>
 *   transfer_confidence,<calibrated chance within 10%>
 *   transfer_points.<kernel>, transfer_confidence.<kernel>  (per kernel)
 *
 * which make the cost model answer from these tables with source
 * "transferred". Tables: tables/transferred_<kernel>.csv, one row per
 * reference point (mapped, 7 significant digits) and per target point (as
 * measured, round-trip digits). Only files named transferred_*.csv are
 * ever replaced; another table under tables/ is an error.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include "cm_error.h"
#include "profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

CmStatus cmCopyFile(const char *from, const char *to, CmError *err) {
  struct stat a, b;
  if (stat(from, &a) == 0 && stat(to, &b) == 0 && a.st_dev == b.st_dev &&
      a.st_ino == b.st_ino)
    return CM_OK;
  FILE *in = fopen(from, "rb");
  if (!in)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot open: %s", from,
                      strerror(errno));
  char *text = NULL;
  size_t size = 0, capacity = 0, got;
  do {
    if (size == capacity) {
      capacity = capacity ? 2 * capacity : 65536;
      char *grown = realloc(text, capacity);
      if (!grown) {
        free(text);
        fclose(in);
        return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
      }
      text = grown;
    }
    got = fread(text + size, 1, capacity - size, in);
    size += got;
  } while (got > 0);
  fclose(in);
  FILE *out = fopen(to, "wb");
  bool ok = out && fwrite(text, 1, size, out) == size;
  ok = (out && fclose(out) == 0) && ok;
  free(text);
  return ok ? CM_OK : cmErrorSet(err, CM_ERR_IO, "%s: cannot write", to);
}

/* mkdir -p `path`: true when it exists afterwards. */
static bool makeDirs(char *path) {
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(path, 0755);
      *p = '/';
    }
  return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* Makes `dir`/tables; removes old transferred_*.csv there and refuses any
 * other table. */
static CmStatus prepareDir(const char *dir, CmError *err) {
  char path[4200];
  CmStatus joined = cmPathJoin(path, sizeof path, dir, "tables", err);
  if (joined != CM_OK)
    return joined;
  if (!makeDirs(path))
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot create: %s", path,
                      strerror(errno));
  DIR *d = opendir(path);
  if (!d)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot open", path);
  CmStatus status = CM_OK;
  for (struct dirent *e; status == CM_OK && (e = readdir(d));) {
    size_t n = strlen(e->d_name);
    if (n < 4 || strcmp(e->d_name + n - 4, ".csv"))
      continue;
    char file[4500]; /* path (< 4200) + a file name (<= 255) */
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    if (strncmp(e->d_name, "transferred_", 12))
      status = cmErrorSet(err, CM_ERR_IO,
                          "%s: a table that is not transferred; --out must "
                          "be a new directory or a transferred profile",
                          file);
    else
      remove(file);
  }
  closedir(d);
  return status;
}

static bool isTransferKey(const char *key) {
  return !strcmp(key, "transferred_from") ||
         !strncmp(key, "transfer_points", 15) ||
         !strncmp(key, "transfer_confidence", 19);
}

static void writePair(FILE *out, const char *key, const char *value) {
  cmCsvWriteField(out, key);
  fputc(',', out);
  cmCsvWriteField(out, value);
  fputc('\n', out);
}

/* Per-kernel counts and pooled confidence of `policy`'s groups. */
static void kernelSummary(const struct CmTransferImpl *t,
                          const CmPolicy *policy, size_t *points,
                          double *confidence) {
  double weighted = 0;
  size_t fitted = 0;
  *points = 0;
  for (size_t i = 0; i < t->numGroups; i++) {
    const CmTransferGroup *g = &t->groups[i];
    if (g->policy != policy)
      continue;
    *points += g->numPoints;
    if (g->numPoints && !isnan(g->correction.looWithin10)) {
      weighted += g->correction.looWithin10 * g->numPoints;
      fitted += g->numPoints;
    }
  }
  *confidence = fitted ? weighted / fitted : CM_TRANSFER_PRIOR_CONFIDENCE;
}

static CmStatus writeDevice(const struct CmTransferImpl *t, const char *dir,
                            CmError *err) {
  char path[4200], text[64];
  CmStatus joined = cmPathJoin(path, sizeof path, dir, "device.csv", err);
  if (joined != CM_OK)
    return joined;
  FILE *out = fopen(path, "w");
  if (!out)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot write", path);
  const struct CmProfileImpl *target = t->target.ptr;
  fputs("key,value\n", out);
  for (size_t i = 0; i < target->numDevice; i++)
    if (!isTransferKey(target->device[i].key))
      writePair(out, target->device[i].key, target->device[i].text);
  writePair(out, "transferred_from", cmProfileGetDeviceName(t->reference));
  snprintf(text, sizeof text, "%zu", t->points.count);
  writePair(out, "transfer_points", text);
  snprintf(text, sizeof text, "%.3f", CM_TRANSFER_PRIOR_CONFIDENCE);
  writePair(out, "transfer_confidence", text);
  for (size_t i = 0; i < t->numGroups; i++) {
    const CmPolicy *policy = t->groups[i].policy;
    size_t points, j = 0;
    while (t->groups[j].policy != policy)
      j++;
    if (j != i) /* once per kernel, at its first group */
      continue;
    double confidence;
    kernelSummary(t, policy, &points, &confidence);
    if (!points)
      continue;
    char key[160];
    snprintf(key, sizeof key, "transfer_points.%s", policy->kernel);
    snprintf(text, sizeof text, "%zu", points);
    writePair(out, key, text);
    snprintf(key, sizeof key, "transfer_confidence.%s", policy->kernel);
    snprintf(text, sizeof text, "%.3f", confidence);
    writePair(out, key, text);
  }
  return fclose(out) == 0
             ? CM_OK
             : cmErrorSet(err, CM_ERR_IO, "%s: cannot write", path);
}

static void writeRow(FILE *out, const CmTransferGroup *g, const double *axes,
                     double latencyUs, bool measured) {
  cmCsvWriteField(out, g->policy->kernel);
  for (int r = 0; r < g->policy->numRegime; r++) {
    fputc(',', out);
    cmCsvWriteField(out, g->regime[r]);
  }
  for (int a = 0; a < g->policy->numAxes; a++)
    fprintf(out, ",%.17g", axes[a]);
  fprintf(out, measured ? ",%.17g\n" : ",%.7g\n", latencyUs);
}

/* Writes the rows of group `gi`: reference points, then the target points
 * that are not at one. Rows whose value cannot be formed are left out. */
static void writeGroup(FILE *out, struct CmTransferImpl *t, size_t gi) {
  CmTransferGroup *g = &t->groups[gi];
  const CmGroup *ref = g->ref;
  for (size_t i = 0; ref && i < ref->numPoints; i++) {
    const double *x = ref->x + i * ref->dim;
    double v = cmTransferValueAt(t, (int)gi, x, ref->y[i]);
    if (v > 0 && isfinite(v))
      writeRow(out, g, x, v, cmTransferFindPoint(t, (int)gi, x) >= 0);
  }
  for (size_t i = 0; i < t->points.count; i++) {
    const CmShape *p = &t->points.items[i];
    if (p->group == (int)gi && !(ref && cmGroupFindExact(ref, p->axes) >= 0))
      writeRow(out, g, p->axes, p->latencyUs, true);
  }
}

/* Writes tables/transferred_<kernel>.csv for `policy`'s groups. */
static CmStatus writeTable(struct CmTransferImpl *t, const char *dir,
                           const CmPolicy *policy, CmError *err) {
  char name[160], path[4400];
  snprintf(name, sizeof name, "tables/transferred_%.120s.csv", policy->kernel);
  for (char *c = name + 19; *c && strcmp(c, ".csv"); c++)
    if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
      *c = '_';
  CmStatus joined = cmPathJoin(path, sizeof path, dir, name, err);
  if (joined != CM_OK)
    return joined;
  FILE *out = fopen(path, "w");
  if (!out)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot write", path);
  fputs("kernel", out);
  for (int r = 0; r < policy->numRegime; r++)
    fprintf(out, ",%s", policy->regime[r]);
  for (int a = 0; a < policy->numAxes; a++)
    fprintf(out, ",%s", policy->axes[a]);
  fputs(",latency_us\n", out);
  for (size_t i = 0; i < t->numGroups; i++)
    if (t->groups[i].policy == policy)
      writeGroup(out, t, i);
  return fclose(out) == 0
             ? CM_OK
             : cmErrorSet(err, CM_ERR_IO, "%s: cannot write", path);
}

CmStatus cmTransferWriteProfile(CmTransfer transfer, const char *outDir,
                                const char *fusionCsv, CmError *err) {
  struct CmTransferImpl *t = transfer.ptr;
  char from[4200], to[4200];
  CmStatus status = cmTransferFit(transfer, err);
  if (status == CM_OK)
    status = prepareDir(outDir, err);
  const char *refDir = cmProfileGetDir(t->reference);
  if (status == CM_OK)
    status = cmPathJoin(from, sizeof from, refDir, "fusion.csv", err);
  if (status == CM_OK)
    status = cmPathJoin(to, sizeof to, outDir, "fusion.csv", err);
  if (status == CM_OK)
    status = cmCopyFile(fusionCsv ? fusionCsv : from, to, err);
  if (status == CM_OK)
    status = cmPathJoin(from, sizeof from, refDir, "policy.csv", err);
  if (status == CM_OK)
    status = cmPathJoin(to, sizeof to, outDir, "policy.csv", err);
  struct stat st;
  if (status == CM_OK && stat(from, &st) == 0)
    status = cmCopyFile(from, to, err);
  for (size_t i = 0; i < t->numGroups && status == CM_OK; i++) {
    size_t j = 0;
    while (t->groups[j].policy != t->groups[i].policy)
      j++;
    if (j == i) /* once per kernel */
      status = writeTable(t, outDir, t->groups[i].policy, err);
  }
  if (status == CM_OK)
    status = writeDevice(t, outDir, err);
  return status;
}
