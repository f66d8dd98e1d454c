/*===- calibrate.c - the roofline fitted to what the pipeline reaches -----===*
 *
 * The probes measure the best the pipeline does on this host (a large
 * matmul, a stream); kernels reach other fractions of it (through `loops`
 * a 3x3 conv runs about four times faster than the cache-bound 512^3
 * matmul). For the kernels the tables cannot answer (outside every
 * measured range, or of a type never measured), the roofline should say
 * what this pipeline reaches on their kind. For each kernel type, the
 * median over its measured shapes of (time at peak) / (measured time) is
 * its efficiency: compute_efficiency.<type> when its shapes are
 * compute-bound at peak, else memory_efficiency.<type>. The device-wide
 * values are the medians over every compute-bound and every memory-bound
 * shape, for types without a table of their own. Between the two, each
 * family (an anchor with a fused type measured: conv2d+* over conv2d+
 * batchnorm+relu, conv2d+batchnorm, ...) gets the median over all of its
 * types' shapes, for a type of that anchor no model here had (a VGG's
 * conv2d+relu, a plain conv2d): the epilogue is a few passes over the
 * output next to the anchor's multiply-adds, and the device-wide median,
 * which the matmuls and elementwise ops dominate, missed seven convs of
 * shapes no bundled model has by 35% on average (docs/accuracy.md).
 *
 * A kernel's time is taken less what its scratch buffers cost (lpWorkUs):
 * the roofline adds them back at the probed rate, by the bytes the kernel
 * allocates. A channels-last conv's is taken less its epilogue passes too,
 * which the roofline adds back to such a conv alone (latency/epilogue.h).
 *
 * A matmul whose weight column spills L1 through `loops` is left out too:
 * its time is the column walk's (calibrate_column_walk.c); so is a
 * channels-last conv, which runs at a rate of its own
 * (calibrate_channels_last.c); so is a depthwise conv whose output plane
 * aliases its accumulator walk (latency/column_walk.h), timed by its own
 * probe (accumulator_walk_probe.c); and so is a matmul or conv whose
 * reduction `-O3` unrolls and vectorizes (CM_UNROLLED_REDUCTION), priced at
 * the grid's shortest column.
 *
 * A matmul that transposes its weight on every call (weight_transposed=1)
 * is left out: through `loops` it pays for writing a copy of its weight to
 * fresh pages, which no efficiency describes, and would pull the
 * efficiency of its type's plain kernels down with it (MobileNet-V2's
 * classifier held out at the kernel level: +449% with them, +50%
 * without). Its own regime's table answers it near the shapes measured;
 * elsewhere the roofline adds the copy at the rate fitted from those
 * shapes once the efficiencies are known (calibrate_weight_copy.c).
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "latency/converted_chain.h"
#include "latency/costmodel_util.h"
#include "latency/integer_mac.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double lpMedian(double *values, size_t n) {
  qsort(values, n, sizeof *values, compareDoubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double lpMedianOfPositive(const double *values, size_t n, size_t *numPositive) {
  double *positive = n ? malloc(n * sizeof *positive) : NULL;
  size_t count = 0;
  for (size_t i = 0; positive && i < n; i++)
    if (values[i] > 0)
      positive[count++] = values[i];
  double median = count ? lpMedian(positive, count) : 0;
  free(positive);
  if (numPositive)
    *numPositive = count;
  return median;
}

static int byX(const void *a, const void *b) {
  const LpPoint *p = a, *q = b;
  int byXOnly = (p->x > q->x) - (p->x < q->x);
  return byXOnly ? byXOnly : (p->y > q->y) - (p->y < q->y);
}

size_t lpMedianPerX(LpPoint *points, size_t n, size_t *kept) {
  size_t count = 0, groups = 0;
  for (size_t i = 0; i < n; i++)
    if (points[i].x > 0 && points[i].y > 0 && isfinite(points[i].x) &&
        isfinite(points[i].y))
      points[count++] = points[i];
  qsort(points, count, sizeof *points, byX);
  /* the medians overwrite the front of `points` in x order */
  for (size_t i = 0, j; i < count; i = j) {
    for (j = i; j < count && points[j].x == points[i].x; j++)
      ;
    size_t mid = i + (j - i) / 2; /* sorted by y within an x */
    double median =
        (j - i) % 2 ? points[mid].y : 0.5 * (points[mid - 1].y + points[mid].y);
    points[groups++] = (LpPoint){points[i].x, median};
  }
  if (kept)
    *kept = count;
  return groups;
}

/* The Theil-Sen slope of ln y over ln x across the median y of each
 * distinct x: the median of the slopes between every two of them. One bad
 * sample (a 1 us kernel timed at a tenth of its speed) moves its x's
 * median, not the law; an x measured many times weighs no more than one
 * measured once; and one x whose median is off, at the edge of the range
 * where least squares gives it the most leverage, moves the slope little
 * (docs/profiling.md, "The column walk"). */
bool lpFitLogLaw(const double *x, const double *y, size_t n, double minSpan,
                 LpLogLaw *law) {
  LpPoint *pairs = malloc((n + 1) * sizeof *pairs);
  size_t count = 0, groups = 0;
  for (size_t i = 0; pairs && i < n; i++)
    pairs[i] = (LpPoint){x[i], y[i]};
  if (pairs)
    groups = lpMedianPerX(pairs, n, &count);
  double lo = groups ? pairs[0].x : 0, hi = groups ? pairs[groups - 1].x : 0;
  for (size_t i = 0; i < groups; i++) /* the law is fitted in logs */
    pairs[i] = (LpPoint){log(pairs[i].x), log(pairs[i].y)};
  bool ok = pairs && count >= 4 && groups >= 3 && hi >= minSpan * lo;
  double *slopes =
      ok ? malloc(groups * (groups - 1) / 2 * sizeof *slopes) : NULL;
  size_t numSlopes = 0;
  for (size_t i = 0; slopes && i < groups; i++)
    for (size_t j = i + 1; j < groups; j++)
      if (pairs[j].x > pairs[i].x) /* distinct x can meet in a log */
        slopes[numSlopes++] =
            (pairs[j].y - pairs[i].y) / (pairs[j].x - pairs[i].x);
  ok = slopes && numSlopes > 0;
  if (ok) {
    *law = (LpLogLaw){lpMedian(slopes, numSlopes), lo, hi};
    ok = isfinite(law->slope);
  }
  free(slopes);
  free(pairs);
  return ok;
}

/* The index of `dtype` among the device's probed dtypes, -1 if none. */
static int dtypeIndex(const LpDeviceNumbers *d, const char *dtype) {
  for (int i = 0; dtype && i < d->numDtypes; i++)
    if (!strcmp(d->dtypes[i], dtype))
      return i;
  return -1;
}

/* True when the host converts the dtype at index `i` (its chain was probed
 * well slower than f32's: converted_chain_probe.c). */
static bool convertsDtype(const LpDeviceNumbers *d, int i) {
  return i >= 0 && (d->convertedMacNs[i][LP_ACC_OWN] > 0 ||
                    d->convertedMacNs[i][LP_ACC_F32] > 0);
}

double lpDevicePeak(const LpDeviceNumbers *d, const char *dtype) {
  int i = dtypeIndex(d, dtype);
  /* a half type the host converts computes at f32's rate, as the roofline
     prices it (latency/converted_chain.h) */
  if (convertsDtype(d, i))
    i = dtypeIndex(d, "f32");
  if (i >= 0)
    return d->peakFlops[i];
  return d->numDtypes ? d->peakFlops[0] : 0;
}

double lpConvertedChainUs(const LpDeviceNumbers *d, const LpShape *s) {
  const char *dtype = lpShapeField(s, "dtype");
  int i = dtypeIndex(d, dtype);
  if (!convertsDtype(d, i))
    return 0;
  int bits = cmConvertedAccBits(s->accBits > 0 ? s->accBits : NAN, dtype);
  double ns = d->convertedMacNs[i][bits == 32 ? LP_ACC_F32 : LP_ACC_OWN];
  return cmConvertedChainUs(s->type, lpShapeValue, s, ns);
}

/* Point (`windowIndex`, `channelIndex`) of the integer grid of the
 * LpDeviceNumbers `context` (CmIntegerMacPointFn). */
static double integerGridPoint(const void *context, int windowIndex,
                               int channelIndex) {
  const LpDeviceNumbers *d = context;
  return d->integerMacNs[windowIndex][channelIndex];
}

double lpIntegerMacUs(const LpDeviceNumbers *d, const LpShape *s) {
  double ns;
  /* the rates are probed in one type alone (integer_mac_probe.c) */
  const char *dtype = lpShapeField(s, "dtype");
  if (!dtype || strcmp(dtype, LP_INTEGER_PROBE_DTYPE) != 0)
    return 0;
  return cmIntegerMacUs(s->type, lpShapeValue, s, integerGridPoint, d,
                        d->integerDepthwiseNs, &ns);
}

/* Point `index` of the epilogue curve of the LpDeviceNumbers `context`
 * (CmCurvePointFn). */
static double epiloguePoint(const void *context, int index) {
  const LpDeviceNumbers *d = context;
  return index >= 0 && index < CM_EPILOGUE_POINTS ? d->epilogueNs[index] : NAN;
}

double lpEpilogueUs(const LpDeviceNumbers *d, const LpShape *s) {
  return cmEpilogueUs(epiloguePoint, d, s->epilogueElements, s->epiloguePasses,
                      lpShapeField(s, "dtype"));
}

double lpWorkUs(const LpDeviceNumbers *d, const LpShape *s) {
  if (!s->result.ok || !(s->result.us > 0))
    return 0;
  double scratch = d->scratchNsPerByte > 0 && s->scratchBytes > 0
                       ? s->scratchBytes * d->scratchNsPerByte * 1e-3
                       : 0;
  /* the roofline adds the epilogue to a channels-last conv only: every
     other efficiency is fitted on kernels whose epilogues are the ones
     the models measured have */
  double epilogue = lpChannelsLast(s) ? lpEpilogueUs(d, s) : 0;
  /* a rate probed too high must not leave a kernel no time at all */
  return fmax(s->result.us - scratch - epilogue, 0.1 * s->result.us);
}

bool lpEfficiencyOf(const LpDeviceNumbers *d, const LpShape *s, double *out,
                    bool *compute) {
  double peak = lpDevicePeak(d, lpShapeField(s, "dtype"));
  double tc = peak > 0 && s->flops > 0 ? s->flops / peak : 0;
  double tm = d->memBw > 0 && s->bytes > 0 ? s->bytes / d->memBw : 0;
  double us = lpWorkUs(d, s);
  if (!(us > 0) || (tc <= 0 && tm <= 0) || lpTransposesWeight(s) ||
      lpChannelsLast(s) || lpColumnWalkLevel(d, s) >= 2 ||
      lpTransposeWalkSpills(d, s) || lpAliasesAccumulator(d, s) ||
      lpUnrolledReduction(d, s) || lpConvertedChainUs(d, s) > 0)
    return false;
  *compute = tc >= tm;
  *out = (*compute ? tc : tm) / (us * 1e-6);
  return true;
}

bool lpDeviceSetFitted(LpDeviceNumbers *d, const char *key, const char *type,
                       double value) {
  char name[sizeof d->fittedKeys[0]];
  snprintf(name, sizeof name, "%s%s%s", key, type ? "." : "", type ? type : "");
  int i = 0;
  while (i < d->numFitted && strcmp(d->fittedKeys[i], name))
    i++;
  if (i == LP_MAX_FITTED || !isfinite(value))
    return false;
  if (i == d->numFitted)
    snprintf(d->fittedKeys[d->numFitted++], sizeof d->fittedKeys[0], "%s",
             name);
  d->fittedValues[i] = value;
  return true;
}

double lpDeviceFitted(const LpDeviceNumbers *d, const char *key,
                      const char *scope) {
  size_t n = strlen(key);
  for (int i = 0; i < d->numFitted; i++) {
    const char *name = d->fittedKeys[i];
    if (!strncmp(name, key, n) &&
        (scope ? name[n] == '.' && !strcmp(name + n + 1, scope) : !name[n]))
      return d->fittedValues[i];
  }
  return NAN;
}

static void add(LpDeviceNumbers *d, const char *key, const char *type,
                double value) {
  if (value > 0)
    lpDeviceSetFitted(d, key, type, value);
}

/* The median efficiency of the measured shapes in `scope` (a type or a
 * family, lpInScope) on the side of the first of them, as
 * compute_efficiency.<scope> or memory_efficiency.<scope>; `own` holds
 * set->count values. */
static void fitScopeMedian(const LpShapeSet *set, LpDeviceNumbers *d,
                           const char *scope, double *own) {
  size_t n = 0;
  bool scopeCompute = false, compute;
  double f;
  for (size_t j = 0; j < set->count; j++)
    if (lpInScope(scope, set->items[j].type) &&
        lpEfficiencyOf(d, &set->items[j], &f, &compute)) {
      scopeCompute = n == 0 ? compute : scopeCompute;
      if (compute == scopeCompute)
        own[n++] = f;
    }
  if (n)
    add(d, scopeCompute ? "compute_efficiency" : "memory_efficiency", scope,
        lpMedian(own, n));
}

/* compute_efficiency.<anchor>+* = `efficiency`, unless the models
 * measured the anchor: a fused type of it fitted the family (on either
 * side), or the plain type its own efficiency, which the family then
 * takes on the same side (a fused type no model has reads the family, not
 * the plain type's key). Returns the family's compute efficiency, NAN
 * when it has none. */
static double addUnlessFitted(LpDeviceNumbers *d, const char *anchor,
                              double efficiency) {
  char family[CM_KERNEL_FAMILY_SIZE];
  snprintf(family, sizeof family, "%s+*", anchor);
  if (!isnan(lpDeviceFitted(d, "memory_efficiency", family)) ||
      !isnan(lpDeviceFitted(d, "compute_efficiency", family)))
    return lpDeviceFitted(d, "compute_efficiency", family);
  double ownMemory = lpDeviceFitted(d, "memory_efficiency", anchor);
  if (!isnan(ownMemory)) { /* measured memory-bound: the family too */
    add(d, "memory_efficiency", family, ownMemory);
    return NAN;
  }
  double own = lpDeviceFitted(d, "compute_efficiency", anchor);
  add(d, "compute_efficiency", family, isnan(own) ? efficiency : own);
  return lpDeviceFitted(d, "compute_efficiency", family);
}

/* The families whose time is exp's, from the sigmoid probe (1 / (1 +
 * exp(-x)): the pass's four flops an element), unless the models measured
 * them. No bundled model has one, and the device-wide efficiency, which
 * cheap arithmetic dominates, made them two to three times too fast
 * (docs/profiling.md, "What `--out` does", the probes): exp+* (a sigmoid or
 * a SiLU written as one generic is an `exp` kernel: EfficientNet's),
 * sigmoid+* (`tosa.sigmoid`), and silu+* (the pattern-matched x *
 * sigmoid(x): five flops an element), whose time is the sigmoid's plus a
 * multiply's at the models' `mul` efficiency, else `deviceCompute`, the
 * device-wide one, else 1 (what device.csv then says). */
static void addTranscendentalFamilies(LpDeviceNumbers *d,
                                      double deviceCompute) {
  double probe = d->sigmoidEfficiency;
  if (!(isfinite(probe) && probe > 0))
    return;
  addUnlessFitted(d, "exp", probe);
  double sigmoid = addUnlessFitted(d, "sigmoid", probe);
  if (!(sigmoid > 0))
    sigmoid = probe;
  double mul = lpDeviceFitted(d, "compute_efficiency", "mul");
  if (!(mul > 0))
    mul = deviceCompute > 0 ? deviceCompute : 1;
  /* flops over time: 4 + 1 flops in 4 / sigmoid + 1 / mul time units */
  addUnlessFitted(d, "silu", 5 / (4 / sigmoid + 1 / mul));
}

void lpFitEfficiencies(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *all[2], *own = malloc((set->count + 1) * sizeof *own);
  all[0] = malloc((set->count + 1) * sizeof *all[0]);
  all[1] = malloc((set->count + 1) * sizeof *all[1]);
  size_t numAll[2] = {0, 0};
  d->numFitted = 0;
  char family[CM_KERNEL_FAMILY_SIZE];
  for (size_t i = 0; own && all[0] && all[1] && i < set->count; i++) {
    bool compute;
    double f;
    if (lpEfficiencyOf(d, &set->items[i], &f, &compute))
      all[compute][numAll[compute]++] = f;
    if (lpFirstOfType(set, i))
      fitScopeMedian(set, d, set->items[i].type, own);
  }
  /* the families after every type: a type's keys come first in device.csv */
  for (size_t i = 0; own && i < set->count; i++)
    if (lpFirstOfFamily(set, i, family, sizeof family))
      fitScopeMedian(set, d, family, own);
  double deviceWide[2] = {NAN, NAN};
  for (int c = 0; c < 2; c++)
    if (numAll[c])
      deviceWide[c] = lpMedian(all[c], numAll[c]);
  addTranscendentalFamilies(d, deviceWide[1]);
  for (int c = 0; c < 2; c++)
    add(d, c ? "compute_efficiency" : "memory_efficiency", NULL, deviceWide[c]);
  free(own);
  free(all[0]);
  free(all[1]);
  lpFitEfficiencySlopes(set, d);
  lpFitColumnWalk(set, d);
  lpFitWeightCopy(set, d);
  lpFitChannelsLast(set, d);
}
