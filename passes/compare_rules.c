/*===- compare_rules.c - two fusion rule sets side by side ----------------===*
 *
 * detect-fusion-kernels compare=<rules.csv>: a rule change judged before it
 * ships. Each function is partitioned twice, by the profile's rules and by
 * the other set, both priced by the same cost model, and the difference is
 * printed: kernel counts, predicted totals and the kernel types only one
 * partition has. The graphs built here are second looks at the bodies and
 * stay silent; the pass's own graphs carry its diagnostics.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/passes.h"

#include "describe.h"
#include "detect.h"
#include "estimate.h"
#include "graph.h"
#include "report.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  CmProfile profile; /* whose rules, and whose tables answer */
} Rules;

static bool allows(void *context, const char *producer, const char *consumer) {
  return cmProfileAllowsFusion(((const Rules *)context)->profile, producer,
                               consumer);
}

/* `body` partitioned by `rules` and priced by `tables`: its kernels' types
 * (a sorted copy the caller frees) and its total over one call. */
typedef struct {
  char **types;
  size_t count;
  double totalUs;
} Partition;

static int compareText(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool partition(MlirRegion body, CmProfile rules, CmProfile tables,
                      Partition *out) {
  LatGraph g;
  if (!latGraphBuild(body, NULL, true, &g))
    return false;
  Rules context = {rules};
  latGraphMatchPatterns(&g, true);
  latGraphDetect(&g, true, allows, &context);
  CmOptions options = cmOptionsDefault();
  out->types = calloc(g.numKernels + 1, sizeof *out->types);
  out->count = 0;
  out->totalUs = 0;
  for (size_t k = 0; out->types && k < g.numKernels; k++) {
    latKernelDescribe(&g, (int)k, false);
    latKernelEstimate(tables, &options, &g.kernels[k]);
    out->types[out->count] = malloc(strlen(g.kernels[k].type) + 1);
    if (out->types[out->count])
      strcpy(out->types[out->count++], g.kernels[k].type);
  }
  latGraphResolveCounts(&g);
  for (size_t k = 0; k < g.numKernels; k++)
    out->totalUs += g.kernels[k].us * g.kernels[k].count;
  bool ok = out->types && out->count == g.numKernels;
  latGraphFree(&g);
  if (ok)
    qsort(out->types, out->count, sizeof *out->types, compareText);
  return ok;
}

static void freePartition(Partition *p) {
  for (size_t i = 0; p->types && i < p->count; i++)
    free(p->types[i]);
  free(p->types);
}

/* Prints the kernel types `a` has more of than `b`, with the surplus. */
static void printSurplus(FILE *out, const char *label, const Partition *a,
                         const Partition *b) {
  fprintf(out, "  only %s:", label);
  bool any = false;
  for (size_t i = 0, j = 0; i < a->count;) {
    size_t n = 1;
    while (i + n < a->count && !strcmp(a->types[i + n], a->types[i]))
      n++;
    while (j < b->count && strcmp(b->types[j], a->types[i]) < 0)
      j++;
    size_t m = 0;
    while (j + m < b->count && !strcmp(b->types[j + m], a->types[i]))
      m++;
    if (n > m) {
      fprintf(out, " %s x%zu", a->types[i], n - m);
      any = true;
    }
    i += n;
  }
  fputs(any ? "\n" : " none\n", out);
}

bool latCompareRules(MlirOperation module, CmProfile profile, CmProfile compare,
                     const char *compareName) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(top);
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    MlirRegion body = mlirOperationGetRegion(op, 0);
    if (name.length != 9 || memcmp(name.data, "func.func", 9) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(body)))
      continue;
    Partition a = {0}, b = {0};
    ok = partition(body, profile, profile, &a) &&
         partition(body, compare, profile, &b);
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    MlirStringRef fn = mlirAttributeIsAString(sym)
                           ? mlirStringAttrGetValue(sym)
                           : mlirStringRefCreateFromCString("?");
    if (ok) {
      printf("@%.*s: profile rules %zu kernels, %.3f us; %s %zu kernels, "
             "%.3f us (%+.1f%%)\n",
             (int)fn.length, fn.data, a.count, a.totalUs, compareName, b.count,
             b.totalUs,
             a.totalUs > 0 ? 100 * (b.totalUs - a.totalUs) / a.totalUs : 0);
      printSurplus(stdout, "under the profile's rules", &a, &b);
      printSurplus(stdout, "under the compared rules", &b, &a);
    }
    freePartition(&a);
    freePartition(&b);
  }
  fflush(stdout);
  return ok;
}
