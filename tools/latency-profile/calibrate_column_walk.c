/*===- calibrate_column_walk.c - a matmul's time when its weight column spills
 *
 * Through `loops` a matmul walks a column of its weight for every output
 * element (latency/column_walk.h). While the column stays in L1 its time is
 * the compute the roofline's efficiencies describe, 0.45-0.6 ns per
 * multiply-add (f32) on the project's VM; once it spills, the time per
 * multiply-add is set by where the column lives, whatever the shape: 0.5-1.5
 * ns in L2, 2-8 ns beyond (the bundled BERT-base's layers, n = 768 or 3072),
 * against 25% median error for a power law over m, n, k fitted to the same
 * shapes (docs/profiling.md, "The column walk"). So a shape whose column
 * spills says nothing about the efficiency (lpEfficiencyOf leaves it out),
 * and its time per multiply-add is a sample of the walk at its level: the
 * median per kernel type and dtype is `column_walk_ns_l2|mem.<type>.<dtype>`,
 * per dtype over every type `column_walk_ns_l2|mem.<dtype>`. The roofline
 * takes the larger of that and its memory side
 * (costmodel/roofline_loop_matmul.c). Matmuls that transpose their weight
 * are left out: their copy is most of their time
 * (calibrate_weight_copy.c).
 *
 * In L2 the rate also depends on how many of L1's sets the column crowds:
 * 1.4 ns per multiply-add over 2 sets (n = 512 f32), 1.1-1.3 over 4, 0.55-
 * 1.0 over 8, 0.55-0.68 over all 64 (session 9's profile); a column in
 * few sets misses L1 on every element. So the L2 samples also give a slope
 * of ln ns over ln sets per dtype (fitL2Sets), and the medians are taken
 * at the centre of the sets' range.
 *
 * Since session 13 a profile through `loops` also has the walk measured on
 * a grid (column_walk_probe.c), which the cost model and lpColumnWalkUs
 * use first for f32; these fitted rates remain for the other dtypes and
 * for points the grid lacks.
 *
 * Which shapes are no samples of an efficiency for the same reasons is
 * decided here too, as the cost model prices them: a reduction short
 * enough to be unrolled whole (lpUnrolledReduction) and a depthwise conv
 * whose output plane aliases its accumulator walk (lpAliasesAccumulator).
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "latency/costmodel_util.h"
#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `type` is `name` or `name` with fused ops (`name+...`), as the cost
 * model's cmKernelIs reads kernel names. */
static bool typeIs(const char *type, const char *name) {
  size_t n = strlen(name);
  return !strncmp(type, name, n) && (type[n] == '\0' || type[n] == '+');
}

static bool isMatmul(const char *type) {
  return typeIs(type, "matmul") || typeIs(type, "batch_matmul");
}

/* The multiply-adds of matmul shape `s`, or NAN. */
static double macsOf(const LpShape *s) {
  double batch = lpShapeNumber(s, "batch");
  return lpShapeNumber(s, "m") * lpShapeNumber(s, "n") * lpShapeNumber(s, "k") *
         (isnan(batch) ? 1 : batch);
}

int lpColumnWalkLevel(const LpDeviceNumbers *d, const LpShape *s) {
  const char *dtype = lpShapeField(s, "dtype");
  double n = lpShapeNumber(s, "n"), k = lpShapeNumber(s, "k");
  if (!isMatmul(s->type) || !dtype || isnan(macsOf(s)))
    return 0;
  return cmColumnWalkLevel(&d->caches, k, n * cmDtypeGetSize(dtype));
}

/* True when `s` is of the probes' dtype (the only one the cost model has
 * the grid and the accumulator walk for). */
static bool ofProbedDtype(const LpShape *s) {
  const char *dtype = lpShapeField(s, "dtype");
  return dtype && !strcmp(dtype, LP_WALK_GRID_DTYPE);
}

static double gridPoint(const void *context, int setsIndex, int kIndex) {
  const LpDeviceNumbers *d = context;
  return d->walkGridNs[setsIndex][kIndex];
}

static double accumulatorPoint(const void *context, int index) {
  const LpDeviceNumbers *d = context;
  return d->accumulatorWalkNs[index];
}

bool lpUnrolledReduction(const LpDeviceNumbers *d, const LpShape *s) {
  /* the grid's whole shortest column, as the cost model asks */
  bool grid = cmWalkGridShortestMeasured(gridPoint, d);
  double reduction = NAN;
  if (isMatmul(s->type))
    reduction = lpShapeNumber(s, "k");
  else if (typeIs(s->type, "conv2d") &&
           lpShapeNumber(s, "channels_last") == 0 &&
           lpShapeNumber(s, "stride") >= 1 && lpShapeNumber(s, "window") >= 1)
    reduction = lpShapeNumber(s, "cin") * lpShapeNumber(s, "window");
  /* whatever its row: the cost model prices an unrolled reduction along a
     row shorter than a vector register by the efficiency
     (cmUnrolledReductionVectorizes), but such shapes run scalar at a rate
     of their own (1 x 1 convs over 16 channels at 8 x 8: 0.40 ns a
     multiply-add) and, fitted in, pulled the conv family's efficiency down
     for every long reduction (a VGG block's 3 x 3 convs +17%, session 17) */
  return grid && ofProbedDtype(s) && reduction >= 1 &&
         reduction <= CM_UNROLLED_REDUCTION;
}

/* The write grid's point, as gridPoint the read one's. */
static double writeGridPoint(const void *context, int setsIndex, int kIndex) {
  const LpDeviceNumbers *d = context;
  return d->writeWalkGridNs[setsIndex][kIndex];
}

bool lpTransposeWalkSpills(const LpDeviceNumbers *d, const LpShape *s) {
  double k = lpShapeNumber(s, "walk_k");
  double bytes =
      lpShapeNumber(s, "walk_stride") * cmDtypeGetSize(LP_WALK_GRID_DTYPE);
  if (!typeIs(s->type, "transpose") || !ofProbedDtype(s) || !(k > 1) ||
      !(bytes > cmDtypeGetSize(LP_WALK_GRID_DTYPE)) ||
      cmColumnWalkLevel(&d->caches, k, bytes) < 2)
    return false;
  /* priced as the cost model prices it (costmodel/roofline_loop_matmul.c):
     at its side's grid, a written column without that grid at the read
     one's, and not at all without either */
  CmWalkSide side =
      lpShapeNumber(s, "walk_writes") == 1 ? CM_WALK_WRITES : CM_WALK_READS;
  return cmWalkSideNs(gridPoint, d, writeGridPoint, d, side,
                      cmColumnWalkL1Sets(&d->caches, k, bytes), k) > 0;
}

bool lpAliasesAccumulator(const LpDeviceNumbers *d, const LpShape *s) {
  return cmAccumulatorWalkMeasured(accumulatorPoint, d) && ofProbedDtype(s) &&
         typeIs(s->type, "depthwise_conv2d") &&
         lpShapeNumber(s, "channels_last") == 0 &&
         cmAccumulatorWalkAliases(&d->caches,
                                  lpShapeNumber(s, "hw") *
                                      cmDtypeGetSize(LP_WALK_GRID_DTYPE));
}

/* The time per multiply-add shape `s` took, ns, and the level of its
 * column; false when it is no sample (not a measured plain matmul, or its
 * column stays in L1). */
static bool walkSample(const LpDeviceNumbers *d, const LpShape *s, int *level,
                       double *ns) {
  *level = lpColumnWalkLevel(d, s);
  double macs = macsOf(s);
  double us = lpWorkUs(d, s);
  /* a half matmul on the converted chain walks at the chain's rate, which
     the roofline floors it at anyway */
  if (*level < 2 || lpTransposesWeight(s) || lpUnrolledReduction(d, s) ||
      lpConvertedChainUs(d, s) > 0 || !(us > 0) || !(macs > 0))
    return false;
  *ns = us * 1e3 / macs;
  return true;
}

/* Fits `column_walk_ns_<level>.<type>.<dtype>` (`perType`) or
 * `column_walk_ns_<level>.<dtype>` at shape `i`'s level as the median over
 * the samples of that scope. */
static void fitScope(const LpShapeSet *set, LpDeviceNumbers *d,
                     const int *level, const double *ns, size_t i, bool perType,
                     double *scratch) {
  const LpShape *of = &set->items[i];
  const char *dtype = lpShapeField(of, "dtype");
  size_t n = 0;
  for (size_t j = 0; j < set->count; j++)
    if (level[j] == level[i] &&
        !strcmp(lpShapeField(&set->items[j], "dtype"), dtype) &&
        (!perType || !strcmp(set->items[j].type, of->type)))
      scratch[n++] = ns[j];
  char scope[sizeof of->type + 32];
  snprintf(scope, sizeof scope, "%s%s%s", perType ? of->type : "",
           perType ? "." : "", dtype);
  lpDeviceSetFitted(d,
                    level[i] == 2 ? "column_walk_ns_l2" : "column_walk_ns_mem",
                    scope, lpMedian(scratch, n));
}

/* The L1 sets matmul shape `s`'s column falls in, or 0. */
static double l1SetsOf(const LpDeviceNumbers *d, const LpShape *s) {
  const char *dtype = lpShapeField(s, "dtype");
  return dtype
             ? cmColumnWalkL1Sets(&d->caches, lpShapeNumber(s, "k"),
                                  lpShapeNumber(s, "n") * cmDtypeGetSize(dtype))
             : 0;
}

/* The L2 walk's rate along the L1 sets its column crowds, for the L2
 * samples of shape `first`'s dtype: least squares of ln ns over ln sets,
 * kept when at least four samples span 4x in sets and the rate falls as
 * they spread (a slope in [-1, 0)). Writes the slope and the sets' range,
 * and brings those samples to the range's centre along it, so that the
 * medians are rates there (the cost model scales them back, within the
 * range only). */
static void fitL2Sets(const LpShapeSet *set, LpDeviceNumbers *d,
                      const int *level, double *ns, size_t first) {
  const char *dtype = lpShapeField(&set->items[first], "dtype");
  double *sets = malloc((set->count + 1) * sizeof *sets);
  for (size_t j = 0; sets && j < set->count; j++)
    sets[j] =
        level[j] == 2 && !strcmp(lpShapeField(&set->items[j], "dtype"), dtype)
            ? l1SetsOf(d, &set->items[j])
            : 0;
  LpLogLaw law;
  if (sets && lpFitLogLaw(sets, ns, set->count, 4, &law) && law.slope < 0) {
    law.slope = fmax(law.slope, -1);
    lpDeviceSetFitted(d, "column_walk_l2_sets_slope", dtype, law.slope);
    lpDeviceSetFitted(d, "column_walk_l2_sets_lo", dtype, law.lo);
    lpDeviceSetFitted(d, "column_walk_l2_sets_hi", dtype, law.hi);
    for (size_t j = 0; j < set->count; j++)
      if (sets[j] >= 1)
        ns[j] /= cmClampedLawFactor(sets[j], law.slope, law.lo, law.hi);
  }
  free(sets);
}

void lpFitColumnWalk(const LpShapeSet *set, LpDeviceNumbers *d) {
  int *level = malloc((set->count + 1) * sizeof *level);
  double *ns = malloc((set->count + 1) * sizeof *ns);
  double *scratch = malloc((set->count + 1) * sizeof *scratch);
  for (size_t i = 0; level && ns && scratch && i < set->count; i++)
    if (!walkSample(d, &set->items[i], &level[i], &ns[i]))
      level[i] = 0; /* no sample */
  for (size_t i = 0; level && ns && scratch && i < set->count; i++) {
    bool firstOfDtype = level[i] == 2;
    for (size_t j = 0; j < i && firstOfDtype; j++)
      firstOfDtype =
          level[j] != 2 || strcmp(lpShapeField(&set->items[j], "dtype"),
                                  lpShapeField(&set->items[i], "dtype"));
    if (firstOfDtype)
      fitL2Sets(set, d, level, ns, i);
  }
  for (size_t i = 0; level && ns && scratch && i < set->count; i++) {
    if (level[i] < 2)
      continue;
    /* each scope once, at its first sample */
    const char *dtype = lpShapeField(&set->items[i], "dtype");
    bool firstOfType = true, firstOfDtype = true;
    for (size_t j = 0; j < i; j++)
      if (level[j] == level[i] &&
          !strcmp(lpShapeField(&set->items[j], "dtype"), dtype)) {
        firstOfDtype = false;
        firstOfType =
            firstOfType && strcmp(set->items[j].type, set->items[i].type);
      }
    if (firstOfType)
      fitScope(set, d, level, ns, i, true, scratch);
    if (firstOfDtype)
      fitScope(set, d, level, ns, i, false, scratch);
  }
  free(level);
  free(ns);
  free(scratch);
}

double lpColumnWalkUs(const LpDeviceNumbers *d, const LpShape *s) {
  int level = lpColumnWalkLevel(d, s);
  if (level < 2 || lpUnrolledReduction(d, s)) /* walks no column */
    return 0;
  /* the measured grid first, as costmodel/roofline_loop_matmul.c */
  double ns =
      !strcmp(lpShapeField(s, "dtype"), LP_WALK_GRID_DTYPE)
          ? cmWalkGridNs(gridPoint, d, l1SetsOf(d, s), lpShapeNumber(s, "k"))
          : NAN;
  double us = macsOf(s) * ns * 1e-3;
  if (ns > 0) /* as the cost model: an overflowing walk is none */
    return us > 0 && isfinite(us) ? us : 0;
  const char *key = level == 2 ? "column_walk_ns_l2" : "column_walk_ns_mem";
  const char *dtype = lpShapeField(s, "dtype");
  char scope[sizeof s->type + sizeof s->values[0] + 1];
  snprintf(scope, sizeof scope, "%s.%s", s->type, dtype);
  ns = lpDeviceFitted(d, key, scope);
  ns = isnan(ns) ? lpDeviceFitted(d, key, dtype) : ns;
  double slope = lpDeviceFitted(d, "column_walk_l2_sets_slope", dtype);
  double lo = lpDeviceFitted(d, "column_walk_l2_sets_lo", dtype);
  double hi = lpDeviceFitted(d, "column_walk_l2_sets_hi", dtype);
  double sets = l1SetsOf(d, s);
  if (level == 2 && lo >= 1 && sets >= 1)
    ns *= cmClampedLawFactor(sets, slope, lo, hi);
  us = macsOf(s) * ns * 1e-3;
  return us > 0 && isfinite(us) ? us : 0;
}
