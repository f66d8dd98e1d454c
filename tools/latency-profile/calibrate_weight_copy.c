/*===- calibrate_weight_copy.c - what a transposed weight costs per byte --===*
 *
 * A matmul whose weight is transposed at run time (weight_transposed=1:
 * TOSA exports keep linear weights [n, k]) writes a copy of the weight on
 * every call. Through `loops` nothing absorbs the transpose, and the copy
 * lands in a buffer of its own: at LP_FRESH_MAPPING_BYTES or more, freshly
 * mapped pages, in a whole run as in a kernel child measured with fresh
 * memory (allocator.h). On the project's VM that cost ~5 ns per weight
 * byte, 10-100 times the matmul itself at a few rows (BERT-base's 768 x 768
 * layer at m = 1: 11.3 ms, of which the multiply is ~0.5 ms).
 *
 * The roofline does not see it, so a transposed matmul outside its
 * regime's measured range was predicted 5x too fast (BERT-base held out at
 * the kernel level: -81%). Here the rate is fitted from the transposed
 * shapes the profile measured: per shape, what it took beyond the plain
 * roofline (the efficiencies, slopes and column walk fitted just before,
 * from the plain shapes), per weight byte; the median per kernel type is
 * `weight_copy_ns_per_byte.<type>`, over all of them the device-wide key.
 * The cost model adds weight bytes x rate to the roofline of a query with
 * weight_transposed=1 whose weight is at least `weight_copy_min_bytes`
 * (costmodel/roofline_loop_matmul.c). Smaller weights come from the warm
 * heap and cost about nothing more, so they are not fitted.
 *
 * The rate grows with the weight: the transpose reads the weight down its
 * columns, and once the weight outgrows the last-level cache every line is
 * fetched again for each element of it the walk uses (measured here: 3.1
 * ns/B at 0.6 MB, 4.7-5.0 at 9.4 MB, 6.3-7.8 at 67-235 MB). So the rate
 * also gets a slope along ln bytes, fitted over the shapes' whole range
 * (the sweep seeds the largest weights its ranges allow first: sweep.c)
 * and never applied beyond it.
 *
 *===----------------------------------------------------------------------===*/
#include "allocator.h"
#include "profile_writer.h"

#include "latency/costmodel_util.h"
#include "latency/dtype.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double lpWeightBytes(const LpShape *s) {
  const char *dtype = lpShapeField(s, "dtype");
  double batch = lpShapeNumber(s, "batch");
  double bytes = lpShapeNumber(s, "n") * lpShapeNumber(s, "k") *
                 (isnan(batch) ? 1 : batch) *
                 (dtype ? cmDtypeGetSize(dtype) : 0);
  return bytes > 0 ? bytes : 0; /* NaN too */
}

/* `own` (the fitted `key.<type>`), else the fitted `key`, else
 * `fallback`: the order in which the cost model looks them up. */
static double ownOrDeviceWide(const LpDeviceNumbers *d, const char *key,
                              double own, double fallback) {
  double v = isnan(own) ? lpDeviceFitted(d, key, NULL) : own;
  return isnan(v) ? fallback : v;
}

/* The factor the fitted slopes give `s`'s efficiency, as
 * costmodel/efficiency_slopes.c computes it from device.csv. */
static double slopeScale(const LpDeviceNumbers *d, const LpShape *s) {
  double scale = 1;
  char key[sizeof s->type + sizeof s->names[0] + 1];
  for (int f = 0; f < s->numFields; f++) {
    snprintf(key, sizeof key, "%s.%s", s->type, s->names[f]);
    double slope = lpDeviceFitted(d, "efficiency_slope", key);
    double lo = lpDeviceFitted(d, "efficiency_lo", key);
    double hi = lpDeviceFitted(d, "efficiency_hi", key);
    scale *= cmClampedLawFactor(lpShapeNumber(s, s->names[f]), slope, lo, hi);
  }
  return fmin(fmax(scale, 1e-3), 1e3);
}

/* What the calibrated roofline predicts for `s` without the copy, us;
 * NAN when it cannot. */
static double plainRooflineUs(const LpDeviceNumbers *d, const LpShape *s) {
  double peak = lpDevicePeak(d, lpShapeField(s, "dtype"));
  double scale = slopeScale(d, s);
  double ownCompute = lpDeviceFitted(d, "compute_efficiency", s->type);
  double ownMemory = lpDeviceFitted(d, "memory_efficiency", s->type);
  double ce = ownOrDeviceWide(d, "compute_efficiency", ownCompute, 1);
  double me = ownOrDeviceWide(d, "memory_efficiency", ownMemory, 1);
  cmScaleOwnEfficiencies(!isnan(ownCompute), !isnan(ownMemory), scale, &ce,
                         &me);
  double tc = peak > 0 && s->flops > 0 ? s->flops / (peak * ce) : 0;
  tc = fmax(tc, lpConvertedChainUs(d, s) * 1e-6); /* as the roofline */
  double tm = d->memBw > 0 && s->bytes > 0 ? s->bytes / (d->memBw * me) : 0;
  tm = fmax(tm, lpColumnWalkUs(d, s) * 1e-6);
  return tc > 0 || tm > 0 ? fmax(tc, tm) * 1e6 + d->launchUs : NAN;
}

/* The copy's ns per weight byte that `s` measured; false when it says
 * nothing (not a transposed weight of at least LP_FRESH_MAPPING_BYTES, not
 * measured, or no plain roofline to subtract). */
static bool copyRateOf(const LpDeviceNumbers *d, const LpShape *s,
                       double *out) {
  double bytes = lpWeightBytes(s), us = lpWorkUs(d, s);
  if (!lpTransposesWeight(s) || bytes < LP_FRESH_MAPPING_BYTES || !(us > 0))
    return false;
  double plain = plainRooflineUs(d, s);
  if (isnan(plain))
    return false;
  *out = fmax(us - plain, 0) * 1e3 / bytes;
  return true;
}

/* The median of the rates of `set`'s shapes of `type` (NULL: every type)
 * into `key.<type>`, when there are any; `rate` NaN where a shape has none. */
static void fitMedian(const LpShapeSet *set, const double *rate,
                      const char *type, double *scratch, LpDeviceNumbers *d) {
  size_t n = 0;
  for (size_t j = 0; j < set->count; j++)
    if (!isnan(rate[j]) && (!type || !strcmp(set->items[j].type, type)))
      scratch[n++] = rate[j];
  if (n)
    lpDeviceSetFitted(d, "weight_copy_ns_per_byte", type, lpMedian(scratch, n));
}

/* The copy's rate along the weight's size: least squares of ln rate over
 * ln bytes across every transposed shape with a positive rate, kept when
 * at least four shapes span a factor of 8 in size and it rises (at most
 * 0.5; a rate falling with size is noise). Writes the slope and the
 * range it was fitted over, and brings each rate to the range's centre
 * sqrt(lo x hi) along it, so that the medians below are rates at the
 * centre: the cost model scales them by (bytes / centre) ^ slope within
 * the range, never beyond. */
static void fitSizeLaw(const LpShapeSet *set, double *rate,
                       LpDeviceNumbers *d) {
  double *bytes = malloc((set->count + 1) * sizeof *bytes);
  LpLogLaw law;
  for (size_t i = 0; bytes && i < set->count; i++)
    bytes[i] = lpWeightBytes(&set->items[i]);
  bool kept =
      bytes && lpFitLogLaw(bytes, rate, set->count, 8, &law) && law.slope > 0;
  if (kept) {
    law.slope = fmin(law.slope, 0.5);
    lpDeviceSetFitted(d, "weight_copy_slope", NULL, law.slope);
    lpDeviceSetFitted(d, "weight_copy_lo_bytes", NULL, law.lo);
    lpDeviceSetFitted(d, "weight_copy_hi_bytes", NULL, law.hi);
    for (size_t i = 0; i < set->count; i++)
      if (rate[i] > 0)
        rate[i] /= cmClampedLawFactor(bytes[i], law.slope, law.lo, law.hi);
  }
  free(bytes);
}

void lpFitWeightCopy(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *rate = malloc((set->count + 1) * sizeof *rate);
  double *scratch = malloc((set->count + 1) * sizeof *scratch);
  if (!rate || !scratch) {
    free(rate);
    free(scratch);
    return;
  }
  for (size_t i = 0; i < set->count; i++)
    if (!copyRateOf(d, &set->items[i], &rate[i]))
      rate[i] = NAN;
  fitSizeLaw(set, rate, d);
  for (size_t i = 0; i < set->count; i++)
    if (lpFirstOfType(set, i)) /* each type once */
      fitMedian(set, rate, set->items[i].type, scratch, d);
  fitMedian(set, rate, NULL, scratch, d);
  free(rate);
  free(scratch);
}
