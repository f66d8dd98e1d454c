/*===- fusion_rules.c - fusion rules learned from measurements ------------===*
 *
 * Edges are found between the single-op kernels of every function (the
 * pass's detection with fusion off: patterns such as GELU stay one unit,
 * views join nothing and are looked through), where the producer's value
 * feeds the consumer only (the only case a rule ever applies to). Classes
 * are the ones a rule is checked with (the producer's fuse class, the
 * consumer's class), so a learned row says exactly what detection asks.
 * Instances that print the same cut-outs are one instance, counted; each
 * pair keeps its most frequent ones. Invariant: a pair is a rule only with
 * every measured instance's three units timed and the summed gain above
 * the summed noise. The gain is paired: the three are timed interleaved
 * in one child, and each repetition's apart - fused is one sample.
 *
 *===----------------------------------------------------------------------===*/
#include "fusion_rules.h"

#include "describe.h"
#include "detect.h"
#include "edge_cutout.h"
#include "files.h"
#include "mlir_host.h"
#include "timing.h"
#include "unit_set.h"

#include "cutout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kInstancesPerPair = 3, kMaxViews = 16 };

typedef struct {
  char producer[48], consumer[48]; /* classes                  */
  LpEdgeUnits units;               /* cut-outs                 */
  int count;                       /* edges with these cut-outs */
  LpEdgeTiming timing;             /* when measured            */
  bool tried;                      /* measurement attempted    */
} Instance;

typedef struct {
  LpUnitSet units;
  Instance *items;
  size_t count, capacity;
  LpHost host;
  int *kernelUnit; /* per kernel of the current graph: its unit, or -1 */
  size_t uncut;    /* edges that could not be cut out                   */
} Learner;

static bool noRules(void *ctx, const char *producer, const char *consumer) {
  (void)ctx, (void)producer, (void)consumer;
  return false;
}

/* Convs, matmuls, attention, pools: no rule set fuses two of those. */
static bool isAnchorClass(const char *cls) {
  return strstr(cls, "conv") || strstr(cls, "matmul") ||
         strstr(cls, "attention") || !strcmp(cls, "pool") ||
         !strcmp(cls, "matvec");
}

typedef struct {
  int kernel, depth;
} Feeds;

/* True when `user` is in kernel f->kernel, or a view in no kernel whose
 * users all are. */
static bool feedsKernel(const LatGraph *g, int user, void *context) {
  const Feeds *f = context;
  if (user < 0)
    return false;
  if (g->nodes[user].kernel == f->kernel)
    return true;
  if (g->nodes[user].kernel >= 0 || g->nodes[user].cls.role != LAT_ROLE_VIEW ||
      f->depth >= kMaxViews)
    return false;
  Feeds inner = {f->kernel, f->depth + 1};
  return latGraphAllUsers(g, user, feedsKernel, &inner);
}

/* The node producing operand `o` of node `n`, through views in no kernel. */
static int producerNode(const LatGraph *g, int n, intptr_t o) {
  int p = latGraphProducerOf(g, n, o);
  for (int steps = 0;
       p >= 0 && g->nodes[p].kernel < 0 &&
       g->nodes[p].cls.role == LAT_ROLE_VIEW && steps < kMaxViews;
       steps++)
    p = latGraphProducerOf(g, p, 0);
  return p;
}

/* The unit of kernel `k` alone (written once per graph); -1 on failure. */
static int kernelUnit(Learner *l, const LatGraph *g, int k) {
  if (l->kernelUnit[k] != -2)
    return l->kernelUnit[k];
  char path[1200], err[700];
  lpUnitSetNextPath(&l->units, path, sizeof path);
  l->kernelUnit[k] = lpCutoutWrite(&l->host, g, k, path, err, sizeof err)
                         ? lpUnitSetAdd(&l->units, path, g->kernels[k].type)
                         : -1;
  return l->kernelUnit[k];
}

static bool sameUnits(const LpEdgeUnits *a, const LpEdgeUnits *b) {
  return a->producer == b->producer && a->consumer == b->consumer &&
         a->fused == b->fused;
}

/* Counts the edge p -> k with its cut-outs; false when out of memory. */
static bool addInstance(Learner *l, LatGraph *g, int p, int k,
                        const char *producer, const char *consumer) {
  LpEdgeUnits units = {kernelUnit(l, g, p), kernelUnit(l, g, k), -1};
  char path[1200], err[700], type[400];
  lpUnitSetNextPath(&l->units, path, sizeof path);
  snprintf(type, sizeof type, "%s+%s", g->kernels[p].type, g->kernels[k].type);
  if (units.producer < 0 || units.consumer < 0 ||
      !lpCutoutMerged(&l->host, g, p, k, path, err, sizeof err))
    return ++l->uncut, true; /* a side that cannot be cut out */
  units.fused = lpUnitSetAdd(&l->units, path, type);
  for (size_t i = 0; units.fused >= 0 && i < l->count; i++)
    if (sameUnits(&l->items[i].units, &units)) {
      l->items[i].count++;
      return true;
    }
  if (l->count == l->capacity) {
    size_t capacity = l->capacity ? 2 * l->capacity : 64;
    Instance *items = realloc(l->items, capacity * sizeof *items);
    if (!items)
      return false;
    l->items = items;
    l->capacity = capacity;
  }
  Instance *in = &l->items[l->count++];
  memset(in, 0, sizeof *in);
  snprintf(in->producer, sizeof in->producer, "%s", producer);
  snprintf(in->consumer, sizeof in->consumer, "%s", consumer);
  in->units = units;
  in->count = 1;
  return units.fused >= 0;
}

/* The edges into kernel `k` from single-use producers of other kernels. */
static bool edgesInto(Learner *l, LatGraph *g, int k) {
  int seen[64], numSeen = 0;
  for (int n = g->kernels[k].root; n >= 0; n = g->nodes[n].nextInKernel)
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(g->nodes[n].op); o++) {
      int p = producerNode(g, n, o);
      int pk = p >= 0 ? g->nodes[p].kernel : -1;
      bool skip =
          pk < 0 || pk == k || g->kernels[pk].isCall || g->kernels[k].isCall;
      for (int s = 0; s < numSeen && !skip; s++)
        skip = seen[s] == pk;
      const char *consumer = latGraphConsumerClass(g, n);
      Feeds feeds = {k, 0};
      if (skip ||
          (isAnchorClass(g->nodes[p].fuseClass) && isAnchorClass(consumer)) ||
          !latGraphAllUsers(g, p, feedsKernel, &feeds))
        continue;
      if (numSeen < 64)
        seen[numSeen++] = pk;
      if (!addInstance(l, g, pk, k, g->nodes[p].fuseClass, consumer))
        return false;
    }
  return true;
}

/* Collects the edges of function `func`; false when out of memory. */
static bool collectFunction(Learner *l, MlirOperation func) {
  LatGraph g;
  memset(&g, 0, sizeof g);
  LatInputs inputs = {NULL, 0, false, false, NULL};
  if (!latGraphBuild(mlirOperationGetRegion(func, 0), &inputs, true, &g))
    return false;
  latGraphMatchPatterns(&g, false);
  latGraphDetect(&g, false, noRules, NULL);
  latGraphDescribe(&g);
  bool ok = (l->kernelUnit = malloc((g.numKernels + 1) * sizeof(int))) != 0;
  for (size_t k = 0; ok && k < g.numKernels; k++)
    l->kernelUnit[k] = -2; /* not written yet */
  for (size_t k = 0; ok && k < g.numKernels; k++)
    ok = edgesInto(l, &g, (int)k);
  free(l->kernelUnit);
  l->kernelUnit = NULL;
  latGraphFree(&g);
  return ok;
}

static bool collectModel(Learner *l, const char *path) {
  char err[1200];
  MlirModule module = lpHostParseFile(&l->host, path, err, sizeof err);
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "latency-profile: %s: %s\n", path, err);
    return true; /* the other models go on */
  }
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (lpIsFunctionWithBody(op))
      ok = collectFunction(l, op);
  mlirModuleDestroy(module);
  return ok;
}

/* A (producer, consumer) class pair: its instances, most frequent first. */
typedef struct {
  size_t first, numInstances; /* in the sorted instances */
  int occurrences;            /* edges in the models      */
} Pair;

static int byPairThenCount(const void *a, const void *b) {
  const Instance *x = a, *y = b;
  int c = strcmp(x->producer, y->producer);
  c = c ? c : strcmp(x->consumer, y->consumer);
  return c ? c : y->count - x->count;
}

/* Most frequent first; ties by class names (the instances' order). */
static int byOccurrences(const void *a, const void *b) {
  const Pair *x = a, *y = b;
  if (x->occurrences != y->occurrences)
    return y->occurrences - x->occurrences;
  return (x->first > y->first) - (x->first < y->first);
}

/* Groups the instances (sorted here) into pairs, most frequent first;
 * NULL when out of memory. */
static Pair *groupPairs(Learner *l, size_t *numPairs) {
  qsort(l->items, l->count, sizeof *l->items, byPairThenCount);
  Pair *pairs = calloc(l->count + 1, sizeof *pairs);
  size_t n = 0;
  for (size_t i = 0; pairs && i < l->count; i++) {
    const Instance *in = &l->items[i];
    if (i == 0 || strcmp(in->producer, in[-1].producer) ||
        strcmp(in->consumer, in[-1].consumer))
      pairs[n++] = (Pair){i, 0, 0};
    pairs[n - 1].numInstances++;
    pairs[n - 1].occurrences += in->count;
  }
  if (pairs)
    qsort(pairs, n, sizeof *pairs, byOccurrences);
  *numPairs = n;
  return pairs;
}

/* Measures the instances round-robin over the pairs, up to
 * kInstancesPerPair each: every pair's most frequent instance whatever
 * the budget (a pair without one could not be decided), the others until
 * `deadline`. */
static void measurePairs(Learner *l, const Pair *pairs, size_t numPairs,
                         const LpMeasureConfig *config, double deadline) {
  for (size_t rank = 0; rank < kInstancesPerPair; rank++)
    for (size_t p = 0; p < numPairs; p++) {
      if (rank >= pairs[p].numInstances ||
          (rank > 0 && deadline > 0 && lpNow() > deadline))
        continue;
      Instance *in = &l->items[pairs[p].first + rank];
      in->tried = true;
      lpMeasureEdge(&l->host, &l->units, &in->units, config, &in->timing);
      printf("  %s -> %s #%zu (x%d): ", in->producer, in->consumer, rank + 1,
             in->count);
      if (in->timing.ok)
        printf("%.3f + %.3f us apart, %.3f us fused, gain %.3f +- %.3f us\n",
               in->timing.producerUs, in->timing.consumerUs, in->timing.fusedUs,
               in->timing.gainUs, in->timing.noiseUs);
      else
        printf("FAILED: %s\n", in->timing.error);
      fflush(stdout);
    }
}

/* Writes one pair's row: the means over its measured instances. */
static void writePair(FILE *out, const Learner *l, const Pair *pair) {
  double op1 = 0, op2 = 0, fused = 0, gain = 0, noise = 0;
  int measured = 0;
  const char *error = "budget spent before it was measured";
  for (size_t i = 0; i < pair->numInstances; i++) {
    const Instance *in = &l->items[pair->first + i];
    if (in->tried && !in->timing.ok)
      error = in->timing.error;
    if (!in->timing.ok)
      continue;
    op1 += in->timing.producerUs;
    op2 += in->timing.consumerUs;
    fused += in->timing.fusedUs;
    gain += in->timing.gainUs;
    noise += in->timing.noiseUs; /* a margin per instance: they add */
    measured++;
  }
  const Instance *first = &l->items[pair->first];
  lpCsvCell(out, first->producer);
  fputc(',', out);
  lpCsvCell(out, first->consumer);
  if (measured == 0) {
    fputs(",unmeasured,,,,,,0,", out);
    fprintf(out, "%d,", pair->occurrences);
    lpCsvCell(out, error);
    fputc('\n', out);
    return;
  }
  double apart = op1 + op2;
  fprintf(out, ",%s,%.6g,%.6g,%.6g,%.4g,%.4g,%d,%d,\n",
          gain > noise ? "yes" : "no", op1 / measured, op2 / measured,
          fused / measured, 100 * gain / apart, 100 * noise / apart, measured,
          pair->occurrences);
}

static bool writeRules(const char *path, const Learner *l, const Pair *pairs,
                       size_t numPairs) {
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  fputs("producer,consumer,decision,op1_us,op2_us,fused_us,gain_pct,"
        "noise_pct,instances,occurrences,note\n",
        out);
  for (size_t p = 0; p < numPairs; p++)
    writePair(out, l, &pairs[p]);
  return fclose(out) == 0;
}

bool lpLearnFusionRules(const LpOptions *o, const char *workDir,
                        const char *csvPath, double deadline) {
  Learner l;
  memset(&l, 0, sizeof l);
  snprintf(l.units.dir, sizeof l.units.dir, "%s", workDir);
  lpHostCreate(&l.host);
  bool ok = true;
  for (int i = 0; ok && i < o->numModels; i++)
    ok = collectModel(&l, o->models[i]);
  size_t numPairs = 0;
  Pair *pairs = ok ? groupPairs(&l, &numPairs) : NULL;
  if (pairs) {
    size_t toMeasure = 0;
    for (size_t p = 0; p < numPairs; p++)
      toMeasure += pairs[p].numInstances < kInstancesPerPair
                       ? pairs[p].numInstances
                       : kInstancesPerPair;
    printf("fusion rules: %zu class pairs, %zu instances to measure (%zu "
           "distinct cut-outs)",
           numPairs, toMeasure, l.units.count);
    printf(l.uncut ? "; %zu edges could not be cut out\n" : "\n", l.uncut);
    fflush(stdout);
    LpMeasureConfig config;
    lpKernelConfig(&config, o, 3 * toMeasure);
    measurePairs(&l, pairs, numPairs, &config, deadline);
    ok = writeRules(csvPath, &l, pairs, numPairs);
    if (!ok)
      fprintf(stderr, "latency-profile: cannot write %s\n", csvPath);
  } else
    fprintf(stderr, "latency-profile: fusion rules: out of memory\n");
  ok = ok && pairs;
  free(pairs);
  free(l.items);
  lpUnitSetFree(&l.units);
  lpHostDestroy(&l.host);
  return ok;
}
