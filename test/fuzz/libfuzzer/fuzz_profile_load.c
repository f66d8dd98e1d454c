/*===- fuzz_profile_load.c - libFuzzer target: hostile profile directories -===*
 *
 * The input is up to three files separated by lines "---": device.csv,
 * policy.csv and tables/t.csv (an empty or missing part: no such file).
 * They are written into a scratch profile directory (made once per process,
 * with a fixed fusion.csv, removed at exit) and loaded twice: whole, and
 * without tables then cmProfileLoadTablesFor the queries made from its
 * points. Whatever loads answers queries at its points, between them and
 * beyond them. Checked: no crash, leak or UB; the text and prepared APIs
 * agree; a measured point answers exactly; loading by query answers as the
 * whole load does.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* mkdtemp */
#include "fuzz_common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kMaxPoints = 8, kMaxQueries = 8 * kMaxPoints };

static char scratch[4096]; /* the profile directory, made once */

static const char kFusion[] = "producer,consumer\nmatmul,add\nmatmul,gelu\n";
static const char *const kParts[3] = {"device.csv", "policy.csv",
                                      "tables/t.csv"};

static void pathOf(const char *name, char *path, size_t size) {
  snprintf(path, size, "%s/%s", scratch, name);
}

static void removeScratch(void) {
  char path[4200];
  for (int i = 0; i < 3; i++) {
    pathOf(kParts[i], path, sizeof path);
    unlink(path);
  }
  pathOf("fusion.csv", path, sizeof path);
  unlink(path);
  pathOf("tables", path, sizeof path);
  rmdir(path);
  rmdir(scratch);
}

/* Writes `size` bytes to `name` in the scratch directory; none: removes it. */
static void writePart(const char *name, const uint8_t *data, size_t size) {
  char path[4200];
  pathOf(name, path, sizeof path);
  if (size == 0) {
    unlink(path);
    return;
  }
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

static void setUp(void) {
  if (scratch[0])
    return;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/fuzz_profile_load.XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  char tables[4200];
  if (!mkdtemp(scratch)) {
    perror(scratch);
    abort();
  }
  pathOf("tables", tables, sizeof tables);
  if (mkdir(tables, 0700) != 0) {
    perror(tables);
    abort();
  }
  atexit(removeScratch);
  writePart("fusion.csv", (const uint8_t *)kFusion, sizeof kFusion - 1);
}

/* Splits `data` at lines "---" into at most three parts. */
static void splitParts(const uint8_t *data, size_t size,
                       const uint8_t *start[3], size_t length[3]) {
  int n = 0;
  size_t partStart = 0, lineStart = 0;
  while (n < 2 && lineStart < size) {
    const uint8_t *nl = memchr(data + lineStart, '\n', size - lineStart);
    size_t lineEnd = nl ? (size_t)(nl - data) : size;
    if (lineEnd - lineStart == 3 && !memcmp(data + lineStart, "---", 3)) {
      start[n] = data + partStart;
      length[n++] = lineStart - partStart;
      partStart = nl ? lineEnd + 1 : size;
    }
    lineStart = lineEnd + 1;
  }
  start[n] = data + partStart;
  length[n++] = size - partStart;
  for (; n < 3; n++) {
    start[n] = data;
    length[n] = 0;
  }
}

/*------------------------------------------------- queries from points --*/

typedef struct {
  FuzzQuery regime;             /* kernel and regime fields only      */
  int numAxes;                  /* axes of the policy                 */
  char *axisNames[CM_MAX_AXES]; /* owned                              */
  double axes[CM_MAX_AXES];     /* the point                          */
  double latencyUs;             /* measured (mean of duplicates)      */
} Point;

typedef struct {
  Point points[kMaxPoints];
  size_t count;
  bool saneTables; /* every axis and latency within 1e15 */
} Points;

static void collectPoint(void *context, const CmPoint *view) {
  Points *c = context;
  for (int a = 0; a < view->numAxes; a++)
    c->saneTables &= fabs(view->axes[a]) <= 1e15;
  c->saneTables &= view->latencyUs <= 1e15;
  if (c->count == kMaxPoints)
    return;
  Point *p = &c->points[c->count++];
  fuzzQueryClear(&p->regime);
  p->regime.kernel = strdup(view->kernel);
  for (int r = 0; r < view->numRegime; r++)
    fuzzQueryAdd(&p->regime, view->regimeNames[r], view->regimeValues[r]);
  p->numAxes = view->numAxes;
  for (int a = 0; a < view->numAxes; a++) {
    p->axisNames[a] = strdup(view->axisNames[a]);
    p->axes[a] = view->axes[a];
  }
  p->latencyUs = view->latencyUs;
}

static void clearPoints(Points *c) {
  for (size_t i = 0; i < c->count; i++) {
    fuzzQueryClear(&c->points[i].regime);
    for (int a = 0; a < c->points[i].numAxes; a++)
      free(c->points[i].axisNames[a]);
  }
  c->count = 0;
}

/* Adds to `out` the query of `p`'s regime at axis values `axes`, leaving out
 * axis `skip` (-1: none), for kernel `p`'s kernel plus `suffix`. */
static void addQuery(FuzzQuery *out, size_t *n, const Point *p,
                     const double *axes, int skip, const char *suffix) {
  if (*n == kMaxQueries || !p->regime.kernel)
    return;
  FuzzQuery *q = &out[(*n)++];
  fuzzQueryClear(q);
  size_t length = strlen(p->regime.kernel) + strlen(suffix) + 1;
  if ((q->kernel = malloc(length)))
    snprintf(q->kernel, length, "%s%s", p->regime.kernel, suffix);
  for (size_t i = 0; i < p->regime.numFields; i++)
    fuzzQueryAdd(q, p->regime.fields[i].name, p->regime.fields[i].value);
  for (int a = 0; a < p->numAxes; a++) {
    char text[32];
    snprintf(text, sizeof text, "%.17g", axes[a]);
    if (a != skip)
      fuzzQueryAdd(q, p->axisNames[a], text);
  }
}

/* Queries at each point, between it and the next point (along all axes,
 * then each of the first three), beyond it, without an axis, and as a fused
 * kernel; returns how many. Query exact[i] is at point i. */
static size_t makeQueries(const Points *c, FuzzQuery *out, size_t *exact) {
  size_t n = 0;
  for (size_t i = 0; i < c->count; i++) {
    const Point *p = &c->points[i], *next = &c->points[(i + 1) % c->count];
    double axes[CM_MAX_AXES], mid[CM_MAX_AXES];
    exact[i] = n;
    addQuery(out, &n, p, p->axes, -1, "");
    for (int a = 0; a < p->numAxes; a++) {
      axes[a] = p->axes[a] * 1.5 + 1;
      mid[a] = p->axes[a] / 2 + (a < next->numAxes ? next->axes[a] / 2 : 0);
    }
    addQuery(out, &n, p, mid, -1, "");
    addQuery(out, &n, p, axes, -1, "");
    addQuery(out, &n, p, p->axes, 0, "");
    addQuery(out, &n, p, p->axes, -1, "+add");
    for (int a = 0; a < p->numAxes && a < 3; a++) {
      memcpy(mid, p->axes, sizeof mid);
      mid[a] = p->axes[a] / 2 + (a < next->numAxes ? next->axes[a] / 2 : 0);
      addQuery(out, &n, p, mid, -1, "");
    }
  }
  return n;
}

/* Queries for a profile whose whole load failed: real H100 shapes. */
static size_t fixedQueries(FuzzQuery *out) {
  static const char *const rows[][5] = {{"matmul", "bf16", "1", "32", "32"},
                                        {"matmul", "f16", "3", "48", "64"}};
  for (size_t i = 0; i < 2; i++) {
    fuzzQueryClear(&out[i]);
    out[i].kernel = strdup(rows[i][0]);
    fuzzQueryAdd(&out[i], "dtype", rows[i][1]);
    fuzzQueryAdd(&out[i], "m", rows[i][2]);
    fuzzQueryAdd(&out[i], "n", rows[i][3]);
    fuzzQueryAdd(&out[i], "k", rows[i][4]);
  }
  return 2;
}

/*----------------------------------------------------------- the target --*/

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static FuzzQuery queries[kMaxQueries];
  static CmEstimate answers[kMaxQueries];
  static CmStatus statuses[kMaxQueries];
  setUp();
  const uint8_t *start[3];
  size_t length[3];
  splitParts(data, size, start, length);
  for (int i = 0; i < 3; i++)
    writePart(kParts[i], start[i], length[i]);

  CmProfile whole;
  CmError err;
  Points points = {.saneTables = true};
  size_t numQueries = 0;
  bool loaded = cmProfileCreateFromDir(scratch, &whole, &err) == CM_OK;
  if (loaded) {
    cmProfileGetDeviceName(whole);
    cmProfileAllowsFusion(whole, "matmul", "add");
    if (!cmProfileForEachPoint(whole, collectPoint, &points))
      abort(); /* out of memory */
    size_t exact[kMaxPoints];
    numQueries = makeQueries(&points, queries, exact);
    for (size_t i = 0; i < numQueries; i++)
      statuses[i] =
          fuzzEstimate(whole, &queries[i], points.saneTables, &answers[i]);
    for (size_t i = 0; i < points.count; i++) {
      const CmEstimate *e = &answers[exact[i]];
      if (e->source != CM_SOURCE_MEASURED ||
          e->latencyUs != points.points[i].latencyUs) {
        fprintf(stderr, "measured point %zu (%.17g us) is not hit exactly\n", i,
                points.points[i].latencyUs);
        cmEstimatePrintJson(e, stderr);
        abort();
      }
    }
  } else {
    numQueries = fixedQueries(queries);
  }

  /* Loading only the tables the queries need answers as the whole load. */
  CmProfile lazy;
  if (cmProfileCreateFromDirWithoutTables(scratch, &lazy, &err) == CM_OK) {
    CmQuery views[kMaxQueries];
    for (size_t i = 0; i < numQueries; i++)
      views[i] = fuzzQueryView(&queries[i]);
    CmStatus status = cmProfileLoadTablesFor(lazy, views, numQueries, &err);
    if (loaded && status != CM_OK) {
      fprintf(stderr, "loads whole but not by query: %s\n", err.message);
      abort();
    }
    for (size_t i = 0; status == CM_OK && i < numQueries; i++) {
      CmEstimate e;
      CmStatus answered =
          fuzzEstimate(lazy, &queries[i], points.saneTables, &e);
      if (loaded && answered != statuses[i])
        abort(); /* the query itself is the same */
      if (loaded && answered == CM_OK)
        fuzzCheckSame("loading by query changed the answer", &answers[i], &e);
    }
    cmProfileDestroy(lazy);
  } else if (loaded) {
    fprintf(stderr, "loads whole but not without tables: %s\n", err.message);
    abort();
  }
  if (loaded) /* last: the answers borrow its strings */
    cmProfileDestroy(whole);
  for (size_t i = 0; i < numQueries; i++)
    fuzzQueryClear(&queries[i]);
  clearPoints(&points);
  return 0;
}
