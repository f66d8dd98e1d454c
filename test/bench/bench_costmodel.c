/*===- bench_costmodel.c - queries per second of the cost model ------------===*
 *
 * Loads a profile (default: the shipped h100-sxm) and measures, on one core:
 * load time; exact hits; 1D, 2D and 3D interpolated queries (after a warm-up
 * pass that builds the indexes and triangulations they need). Writes the
 * query sets as CSV files (for latency-query --batch and the SciPy
 * comparison in bench_scipy.py) when given an output folder.
 *
 * usage: bench_costmodel [PROFILE_DIR] [OUT_DIR]
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kQueries = 200000 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The measured table's rows and its distinct m, n, k values (the grid). */
static double (*rows)[3];
static size_t numRows;
static double grid[3][256];
static size_t gridSize[3];

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Reads m, n, k of every row of the profile's matmul table (columns 3-5, as
 * written by scripts/make-h100-profile.py). */
static bool readGrid(const char *dir) {
  char path[4200], line[512];
  snprintf(path, sizeof path, "%s/tables/matmul_bf16.csv", dir);
  FILE *f = fopen(path, "r");
  if (!f)
    return false;
  rows = malloc(sizeof *rows * 100000);
  while (fgets(line, sizeof line, f) && numRows < 100000) {
    double v[3];
    if (sscanf(line, "matmul,bf16,%lf,%lf,%lf", &v[0], &v[1], &v[2]) != 3)
      continue;
    for (int a = 0; a < 3; a++) {
      rows[numRows][a] = v[a];
      bool seen = false;
      for (size_t i = 0; i < gridSize[a] && !seen; i++)
        seen = grid[a][i] == v[a];
      if (!seen && gridSize[a] < 256)
        grid[a][gridSize[a]++] = v[a];
    }
    numRows++;
  }
  fclose(f);
  for (int a = 0; a < 3; a++)
    qsort(grid[a], gridSize[a], sizeof grid[a][0], compareDoubles);
  return numRows > 0;
}

/* A whole number strictly between two neighbouring grid values of axis a
 * (off-grid), or the grid value itself when neighbours are adjacent. */
static double offGrid(int a) {
  size_t i;
  do
    i = (size_t)rand() % (gridSize[a] - 1);
  while (grid[a][i + 1] - grid[a][i] < 2);
  double lo = grid[a][i], hi = grid[a][i + 1];
  return lo + 1 + (double)(rand() % (long)(hi - lo - 1));
}

typedef struct {
  const char *name;
  int offGrid; /* axes moved off the grid: 0 exact, 1 m, 2 m+n, 3 m+n+k */
  double (*q)[3];
} QuerySet;

static void makeQueries(QuerySet *set) {
  set->q = malloc(sizeof *set->q * kQueries);
  for (int i = 0; i < kQueries; i++) {
    const double *row = rows[(size_t)rand() % numRows];
    for (int a = 0; a < 3; a++)
      set->q[i][a] = a < set->offGrid ? offGrid(a) : row[a];
  }
}

/* Runs every query through the prepared (numeric) API; returns queries per
 * second and counts sources. */
static double runPrepared(const CmPrepared *prep, const QuerySet *set,
                          size_t *bySource) {
  CmEstimate e;
  double start = now();
  for (int i = 0; i < kQueries; i++) {
    cmPreparedEstimate(prep, set->q[i], -1, -1, NULL, &e, NULL);
    if (bySource)
      bySource[e.source]++;
  }
  return kQueries / (now() - start);
}

/* Runs every query through the text API (fields as strings, the numbers
 * formatted beforehand); returns queries per second. */
static double runText(CmProfile p, const QuerySet *set) {
  CmField fields[] = {{"dtype", "bf16"}, {"m", ""}, {"n", ""}, {"k", ""}};
  CmQuery query = {"matmul", fields, 4, -1, -1};
  CmEstimate e;
  char(*texts)[3][32] = malloc(sizeof *texts * kQueries);
  for (int i = 0; i < kQueries; i++)
    for (int a = 0; a < 3; a++)
      snprintf(texts[i][a], 32, "%.17g", set->q[i][a]);
  double start = now();
  for (int i = 0; i < kQueries; i++) {
    for (int a = 0; a < 3; a++)
      fields[a + 1].value = texts[i][a];
    cmProfileEstimate(p, &query, NULL, &e, NULL);
  }
  double qps = kQueries / (now() - start);
  free(texts);
  return qps;
}

static void writeCsv(const char *dir, const QuerySet *set) {
  char path[4200];
  snprintf(path, sizeof path, "%s/queries_%s.csv", dir, set->name);
  FILE *f = fopen(path, "w");
  if (!f)
    return;
  fputs("kernel,dtype,m,n,k\n", f);
  for (int i = 0; i < kQueries; i++)
    fprintf(f, "matmul,bf16,%.17g,%.17g,%.17g\n", set->q[i][0], set->q[i][1],
            set->q[i][2]);
  fclose(f);
}

int main(int argc, char **argv) {
  char dir[4096];
  CmError err;
  if (!cmProfileFindDir(argc > 1 ? argv[1] : NULL, dir, sizeof dir, &err)) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  double t0 = now();
  CmProfile p;
  if (cmProfileCreateFromDir(dir, &p, &err) != CM_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  printf("profile %s: %zu rows loaded in %.1f ms (one core)\n", dir,
         cmProfileGetNumRows(p), (now() - t0) * 1e3);
  if (!readGrid(dir)) {
    fprintf(stderr, "cannot read the matmul table of %s\n", dir);
    return 1;
  }
  CmField regime[] = {{"dtype", "bf16"}};
  CmQuery query = {"matmul", regime, 1, -1, -1};
  CmPrepared prep;
  cmProfilePrepare(p, &query, &prep, NULL);
  srand(1);
  QuerySet sets[] = {
      {"exact", 0, NULL}, {"1d", 1, NULL}, {"2d", 2, NULL}, {"3d", 3, NULL}};
  printf("%-6s %11s %15s %15s  %s\n", "set", "warm-up ms", "prepared q/s",
         "text q/s", "answers (prepared run)");
  for (size_t s = 0; s < 4; s++) {
    makeQueries(&sets[s]);
    size_t bySource[4] = {0}, methods[8] = {0};
    double w0 = now();
    runPrepared(&prep, &sets[s], NULL); /* builds indexes, triangulations */
    double warm = (now() - w0) * 1e3;
    double qps = runPrepared(&prep, &sets[s], bySource);
    double textQps = runText(p, &sets[s]);
    for (int i = 0; i < 1000; i++) {
      CmEstimate e;
      cmPreparedEstimate(&prep, sets[s].q[i], -1, -1, NULL, &e, NULL);
      methods[e.method]++;
    }
    printf("%-6s %11.1f %15.0f %15.0f  measured %zu, interpolated %zu, "
           "roofline %zu; of 1000: exact %zu, 1d %zu, 2d %zu, 3d %zu\n",
           sets[s].name, warm, qps, textQps, bySource[0], bySource[1],
           bySource[2], methods[CM_METHOD_EXACT],
           methods[CM_METHOD_LINEAR_1D] + methods[CM_METHOD_WEIGHTED_1D],
           methods[CM_METHOD_DELAUNAY_2D], methods[CM_METHOD_DELAUNAY_3D]);
    fflush(stdout);
    if (argc > 2)
      writeCsv(argv[2], &sets[s]);
    free(sets[s].q);
  }
  free(rows);
  cmProfileDestroy(p);
  return 0;
}
