/*===- test_golden_rule.c - the 1D rule against its conformance vectors ----===*
 *
 * Profile = the shipped H100 bf16 GEMM table minus exactly the 2000 golden
 * (m, n, k) rows; every golden query must return expected_us to 1e-9
 * relative, with the same tier, and each line's p and e where it exists.
 *
 *===----------------------------------------------------------------------===*/
#include "harness.h"
#include "test_profiles.h"

#include "latency/costmodel_util.h"
#include <stdlib.h>
#include <string.h>

enum { kMaxGolden = 4096 };

typedef struct {
  double m, n, k, expected, p[3], e[3];
  char tier[8];
} Golden;

static Golden golden[kMaxGolden];
static size_t numGolden;

static CmStatus readGolden(void *ctx, char **f, size_t n, size_t line,
                           CmError *err) {
  (void)ctx, (void)err;
  if (line == 1 || n < 12 || numGolden == kMaxGolden)
    return CM_OK;
  Golden *g = &golden[numGolden++];
  g->m = atof(f[0]), g->n = atof(f[1]), g->k = atof(f[2]);
  g->expected = atof(f[4]);
  snprintf(g->tier, sizeof g->tier, "%s", f[5]);
  for (int i = 0; i < 3; i++) {
    g->p[i] = strtod(f[6 + i], NULL);
    g->e[i] = strtod(f[9 + i], NULL);
  }
  return CM_OK;
}

static CmProfile profile;

TEST(golden_queries_reproduce_expected_us) {
  CHECK(numGolden == 2000);
  size_t mismatches = 0;
  for (size_t i = 0; i < numGolden; i++) {
    const Golden *g = &golden[i];
    char m[32], n[32], k[32];
    snprintf(m, sizeof m, "%.17g", g->m);
    snprintf(n, sizeof n, "%.17g", g->n);
    snprintf(k, sizeof k, "%.17g", g->k);
    CmField fields[] = {{"dtype", "bf16"}, {"m", m}, {"n", n}, {"k", k}};
    CmQuery q = {"matmul", fields, 4, -1, -1};
    CmEstimate e;
    CHECK(cmProfileEstimate(profile, &q, NULL, &e, NULL) == CM_OK);
    bool ok = fabs(e.latencyUs - g->expected) <= 1e-9 * fabs(g->expected);
    if (!strcmp(g->tier, "1D")) {
      ok = ok && e.source == CM_SOURCE_INTERPOLATED && e.dim == 1;
      for (int l = 0; l < e.numLines; l++) {
        int a = e.lines[l].axis;
        ok = ok && fabs(e.lines[l].value - g->p[a]) <= 1e-9 * g->p[a];
        if (e.numLines > 1 && !isnan(g->e[a]))
          ok = ok &&
               fabs(e.lines[l].checkErr - g->e[a]) <= 1e-9 * g->e[a] + 1e-15;
      }
    }
    if (!ok && mismatches++ < 5)
      fprintf(
          stderr,
          "golden %zu (m=%s n=%s k=%s tier %s): got %.17g via %s, want %.17g\n",
          i, m, n, k, g->tier, e.latencyUs, cmMethodGetName(e.method),
          g->expected);
  }
  CHECK(mismatches == 0);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  char path[4096];
  snprintf(path, sizeof path, "%s/golden_h100_holdout.csv", argv[1]);
  CmError err;
  if (cmCsvReadFile(path, "golden", readGolden, NULL, &err) != CM_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  if (!testProfileWithoutGolden(argv[2], path, &profile))
    return 1;
  int rc = RUN_TESTS(T(golden_queries_reproduce_expected_us));
  cmProfileDestroy(profile);
  return rc;
}
