/*===- sweep.c - more points where the tables need them (nn-Meter's sampler)
 *
 * A candidate is a measured shape with one axis moved. Seeds walk each axis
 * of each generatable shape over the range its table showed (5 log-spaced
 * values), and give each matmul that transposes its weight a plain twin
 * (weight_transposed moved to 0, before any seed) and the one with the
 * largest weight of its regime its largest n and k, before any seed too;
 * refinements put points halfway (geometrically) between a badly predicted
 * point and its neighbours along each axis. Candidates are taken
 * round-robin over their base shapes and axes (the k-th seed value of every
 * axis of every shape before any (k+1)-th; a bad shape's refinements, in a
 *later round, by rank), cheapest first within a round, so a budget that ends
 *early still covers every table and every axis; a point whose call alone would
 *take more than an eighth of the time left is not measured (LLaMA's 4096 x
 * 11008 GEMMs run 7 s a call through `loops`).
 * Attention's sequence is seeded before any other seed, up to 1024 tokens
 * whatever the models showed (exports come at a few tokens).
 * Its cost is the base shape's time scaled by the moved axis: kernel time
 * grows about linearly along one axis (attention's as the square of its
 * sequence).
 *
 *===----------------------------------------------------------------------===*/
#include "sweep.h"

#include "commands.h"
#include "generate.h"
#include "measure_shapes.h"
#include "profile_writer.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kSeedValues = 5, kMaxTables = 128, kTextSize = 16384 };
enum { kAttentionSeqHi = 1024 }; /* the longest sequence the sweep seeds */

typedef struct {
  int base;      /* shape the candidate moves one axis of */
  int order;     /* round: seed value index, refinement rank */
  char axis[24]; /* the axis moved                        */
  double value;  /* its new value                         */
  double costUs; /* estimated time of one call            */
} Candidate;

typedef struct {
  Candidate *items;
  size_t count, capacity;
} Candidates;

/* True for attention's sequence length: its work grows with its square. */
static bool isAttentionSeq(const LpShape *s, const char *axis) {
  return !strcmp(s->type, "attention") && !strcmp(axis, "seq");
}

/* How a kernel's time grows along `axis`: linearly, but for attention's
 * sequence (two matmuls of seq x seq). */
static double costExponent(const LpShape *s, const char *axis) {
  return isAttentionSeq(s, axis) ? 2 : 1;
}

static double axisValue(const LpShape *s, const char *axis) {
  const char *v = lpShapeField(s, axis);
  return v ? strtod(v, NULL) : NAN;
}

static void push(Candidates *c, const LpShapeSet *set, int base, int order,
                 const char *axis, double value) {
  if (c->count == c->capacity) {
    size_t capacity = c->capacity ? 2 * c->capacity : 64;
    Candidate *items = realloc(c->items, capacity * sizeof *items);
    if (!items)
      return;
    c->items = items;
    c->capacity = capacity;
  }
  Candidate *x = &c->items[c->count++];
  x->base = base;
  x->order = order;
  snprintf(x->axis, sizeof x->axis, "%s", axis);
  x->value = value;
  const LpShape *s = &set->items[base];
  double from = axisValue(s, axis); /* NaN when absent */
  x->costUs = from > 0 && value > 0
                  ? s->result.us * pow(value / from, costExponent(s, axis))
                  : s->result.us;
}

/* A value an axis can take: hw a perfect square, anything else >= 1. */
static double snap(const char *axis, double v) {
  if (!strcmp(axis, "hw")) {
    double r = round(sqrt(v));
    return r < 1 ? 1 : r * r;
  }
  return v < 1 ? 1 : round(v);
}

/* The range of `axis` over the measured shapes of `s`'s table and regime,
 * widened to a quarter of the smallest and twice the largest value (at
 * least 1; spatial sizes down to 1 x 1): models not yet seen have shapes
 * beyond the bundled ones, and the cost model never extrapolates. Returns
 * true when the models showed a single value. */
static bool axisRange(const LpShapeSet *set, const LpShape *s, const char *axis,
                      double *lo, double *hi) {
  *lo = INFINITY;
  *hi = -INFINITY;
  for (size_t i = 0; i < set->count; i++)
    if (set->items[i].result.ok && lpSameRegime(&set->items[i], s)) {
      double v = axisValue(&set->items[i], axis);
      *lo = v < *lo ? v : *lo;
      *hi = v > *hi ? v : *hi;
    }
  bool single = *lo == *hi;
  *lo = !strcmp(axis, "hw") || *lo < 4 ? 1 : *lo / 4;
  *hi *= 2;
  /* exported transformers come at a few tokens (the bundled BERTs: 5 and
     12), the ones users bring at hundreds, where a multiply-add costs
     several times more (generate_attention.c) */
  if (isAttentionSeq(s, axis) && *hi < kAttentionSeqHi)
    *hi = kAttentionSeqHi;
  return single;
}

/* True when shape `i` transposes the largest weight of its regime (the
 * fewest rows among equals, then the first). */
static bool largestTransposed(const LpShapeSet *set, size_t i) {
  const LpShape *s = &set->items[i];
  if (!lpTransposesWeight(s))
    return false;
  double w = lpWeightBytes(s), m = axisValue(s, "m");
  for (size_t j = 0; j < set->count; j++) {
    const LpShape *t = &set->items[j];
    if (j == i || !t->result.ok || !lpSameRegime(t, s))
      continue;
    double v = lpWeightBytes(t), tm = axisValue(t, "m");
    if (v > w || (v == w && (tm < m || (tm == m && j < i))))
      return false;
  }
  return true;
}

static void seed(const LpShapeSet *set, Candidates *c) {
  for (size_t i = 0; i < set->count; i++) {
    const LpShape *s = &set->items[i];
    if (!s->result.ok || !lpCanGenerate(s))
      continue;
    for (int f = 0; f < s->numFields; f++) {
      if (lpIsRegimeField(s->names[f], s->values[f]))
        continue;
      double lo, hi, own = axisValue(s, s->names[f]);
      if (axisRange(set, s, s->names[f], &lo, &hi) &&
          !strcmp(s->names[f], "batch"))
        continue; /* the models ran one batch size: keep it */
      /* the largest transposed weight grown first along n and k: the
         copy's rate grows with the weight (calibrate_weight_copy.c) */
      bool grow = (!strcmp(s->names[f], "n") || !strcmp(s->names[f], "k")) &&
                  largestTransposed(set, i);
      /* attention's sequence before any seed too: the models showed only
         a few tokens, and nothing else tells longer ones */
      bool first = isAttentionSeq(s, s->names[f]);
      for (int j = 0; j < kSeedValues; j++) {
        double v =
            snap(s->names[f], lo * pow(hi / lo, (double)j / (kSeedValues - 1)));
        if (v != own)
          push(c, set, (int)i, first || (grow && j == kSeedValues - 1) ? -1 : j,
               s->names[f], v);
      }
    }
    /* Its plain twin, before any seed: the same matmul on a weight
       already [k, n]. Exports transpose the weights of their largest
       layers, so without twins the plain regime would never see those
       sizes, where through `loops` a column of the weight no longer stays
       in the caches (docs/profiling.md, "The column walk"). */
    if (lpTransposesWeight(s))
      push(c, set, (int)i, -1, "weight_transposed", 0);
  }
}

/* True when `a` and `b` agree on every axis but `axis`. */
static bool sameLine(const LpShape *a, const LpShape *b, const char *axis) {
  for (int f = 0; f < a->numFields; f++)
    if (strcmp(a->names[f], axis) && strcmp(a->values[f], b->values[f]))
      return false;
  return true;
}

/* Halfway points (in log) between bad shape `i` and its neighbours along
 * each axis. */
static void refine(const LpShapeSet *set, size_t i, Candidates *c) {
  const LpShape *s = &set->items[i];
  int order = 0;
  for (int f = 0; f < s->numFields; f++) {
    const char *axis = s->names[f];
    if (lpIsRegimeField(axis, s->values[f]))
      continue;
    double v = axisValue(s, axis), below = -1, above = INFINITY;
    for (size_t j = 0; j < set->count; j++) {
      const LpShape *t = &set->items[j];
      if (j == i || !t->result.ok || !lpSameRegime(t, s) ||
          !sameLine(s, t, axis))
        continue;
      double w = axisValue(t, axis);
      below = w < v && w > below ? w : below;
      above = w > v && w < above ? w : above;
    }
    double mids[2] = {below > 0 ? snap(axis, sqrt(below * v)) : -1,
                      isfinite(above) ? snap(axis, sqrt(above * v)) : -1};
    for (int m = 0; m < 2; m++)
      if (mids[m] > 0 && mids[m] != v && mids[m] != below && mids[m] != above)
        push(c, set, (int)i, order++, axis, mids[m]);
  }
}

static int byOrder(const void *a, const void *b) {
  const Candidate *x = a, *y = b;
  if (x->order != y->order)
    return x->order - y->order;
  if (x->costUs != y->costUs)
    return x->costUs < y->costUs ? -1 : 1;
  return x->base - y->base;
}

/* The kernel of the generated module that has the base's type, or -1. */
static int generatedKernel(const LatGraph *g, const char *type) {
  for (size_t k = 0; k < g->numKernels; k++)
    if (!strcmp(g->kernels[k].type, type))
      return (int)k;
  return -1;
}

/* Generates, cuts out and measures candidate `c`; true when a new shape
 * was measured. */
static bool measureCandidate(LpShapeSet *set, const LpSweep *sw, LpHost *host,
                             const Candidate *c, char *text) {
  char err[600];
  if (!lpGenerateKernel(&set->items[c->base], c->axis, c->value, text,
                        kTextSize))
    return false;
  MlirModule module = lpHostParseText(host, text, err, sizeof err);
  if (mlirModuleIsNull(module)) {
    if (getenv("LATENCY_PROFILE_DEBUG"))
      fprintf(stderr, "generated (%s):\n%s\n", err, text);
    return false;
  }
  LatGraph g;
  size_t before = set->count;
  char type[192];
  snprintf(type, sizeof type, "%s", set->items[c->base].type);
  MlirOperation func = lpFindFunction(module, "forward");
  if (!mlirOperationIsNull(func) &&
      lpDetectKernels(func, sw->rules, sw->info->passes, &g)) {
    int k = generatedKernel(&g, type);
    if (k >= 0)
      lpShapeSetAdd(set, host, &g, k, "sweep", sw->kernelDir);
    latGraphFree(&g);
  }
  mlirModuleDestroy(module);
  if (set->count == before && getenv("LATENCY_PROFILE_DEBUG"))
    fprintf(stderr, "generated (%s):\n%s\n", err, text);
  if (set->count == before)
    return false;
  lpMeasureShapes(set, before, sw->config, sw->logDir);
  return set->items[before].result.ok;
}

static void printLoo(const char *when, const LpLooTable *t, size_t n) {
  printf("leave-one-out %s:\n  %-40s %7s %13s %11s %8s\n", when, "table",
         "points", "interpolated", "within 10%", "MAPE");
  for (size_t i = 0; i < n; i++)
    printf("  %-40.40s %7d %13d %10.1f%% %7.1f%%\n", t[i].type, t[i].points,
           t[i].answered,
           t[i].answered ? 100.0 * t[i].within10 / t[i].answered : 0,
           t[i].answered ? t[i].sumAbsPct / t[i].answered : 0);
  fflush(stdout);
}

/* Rewrites the profile and prints its leave-one-out accuracy; fills
 * `next` with refinements around the badly predicted points. */
static void evaluate(LpShapeSet *set, const LpSweep *sw, const char *when,
                     Candidates *next) {
  size_t rows;
  char err[600];
  bool *bad = calloc(set->count + 1, sizeof *bad);
  LpLooTable *tables = calloc(kMaxTables, sizeof *tables);
  if (bad && tables &&
      lpWriteProfile(sw->outDir, set, sw->info, sw->device, sw->rulesPath,
                     &rows, err, sizeof err)) {
    size_t n = lpLeaveOneOut(sw->outDir, set, tables, kMaxTables, bad);
    printLoo(when, tables, n);
    for (size_t i = 0; next && i < set->count; i++)
      if (bad[i] && lpCanGenerate(&set->items[i]))
        refine(set, i, next);
  }
  free(bad);
  free(tables);
}

void lpSweepRun(LpShapeSet *set, const LpSweep *sw) {
  LpHost host;
  lpHostCreate(&host);
  char *text = malloc(kTextSize);
  Candidates c = {0};
  seed(set, &c);
  evaluate(set, sw, "of the models' kernels", NULL);
  for (int round = 1; text && c.count && lpNow() < sw->deadline; round++) {
    qsort(c.items, c.count, sizeof *c.items, byOrder);
    printf("sweep round %d: %zu candidate points\n", round, c.count);
    size_t measured = 0;
    for (size_t i = 0; i < c.count && lpNow() < sw->deadline; i++)
      if (c.items[i].costUs * 1e-6 < (sw->deadline - lpNow()) / 8)
        measured += measureCandidate(set, sw, &host, &c.items[i], text);
    char when[64];
    snprintf(when, sizeof when, "after sweep round %d (%zu new points)", round,
             measured);
    c.count = 0;
    evaluate(set, sw, when, &c);
    if (!measured)
      break;
  }
  free(c.items);
  free(text);
  lpHostDestroy(&host);
}
