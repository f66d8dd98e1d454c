/*===- calibrate_channels_last.c - one efficiency for channels-last convs --===*
 *
 * Through `loops` a channels-last conv as TOSA lowers it (linalg's
 * conv_2d_nhwc_fhwc: loops n, oh, ow, f, kh, kw, c) runs its innermost loop
 * along contiguous channels of input and weight, at nearly one rate
 * whatever its shape: ResNet-18's TOSA convs took 0.57-0.63 ns a
 * multiply-add from 56x56x64 to 7x7x512, SD's 3 x 3 convs at 320 channels
 * 0.60. The channels-first kernels the efficiency slopes are fitted on
 * walk the input a plane apart and vary with cin and cout; their law,
 * applied to channels-last convs, missed ResNet-50's by -26..+36%. So
 * channels-last shapes are left out of every other efficiency
 * (lpEfficiencyOf), and their own is the median over them per anchor
 * (conv2d, depthwise_conv2d), pooled over the fused types:
 * `channels_last_efficiency.<anchor>`, compute side, on their work
 * (lpWorkUs: the scratch pages of the decomposed batch norm left out).
 * That one rate is the long chains': a 1 x 1 conv over 16 to 64 channels
 * runs 0.36-0.50 ns a multiply-add where ResNet's 3 x 3 convs take 0.8, and
 * MobileNet-V2's pointwise convs, priced at the median, came out 1.7x
 * slow. So the efficiency is also written as a curve over the reduction
 * per output (cin x window; a depthwise conv's window), the median at each
 * measured reduction interpolated to powers of two
 * (`channels_last_efficiency.<anchor>.k<2^i>`, latency/channels_last.h),
 * from the power at or below the shortest measured to the one at or above
 * the longest: the reader keeps the edge value beyond them.
 * linalg's hwcf (weight F innermost: the c loop walks it like a matmul
 * column) and the depthwise nests carry the flag too; only TOSA's convs
 * were measured here.
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "latency/channels_last.h"
#include "latency/costmodel_util.h"

#include <math.h>

#include <stdlib.h>
#include <string.h>

/* True when shape `s` is a measured channels-last conv with work, its
 * compute efficiency in `*eff`. */
static bool channelsLastEfficiency(const LpDeviceNumbers *d, const LpShape *s,
                                   double *eff) {
  double peak = lpDevicePeak(d, lpShapeField(s, "dtype"));
  double us = lpWorkUs(d, s);
  if (!lpChannelsLast(s) || !(peak > 0) || !(s->flops > 0) || !(us > 0))
    return false;
  *eff = s->flops / peak / (us * 1e-6);
  return true;
}

/* True when shape `j` of `set` has anchor `anchor` and a channels-last
 * efficiency, in `*eff`. */
static bool ofAnchor(const LpDeviceNumbers *d, const LpShapeSet *set, size_t j,
                     const char *anchor, double *eff) {
  return cmKernelSameAnchor(anchor, set->items[j].type) &&
         channelsLastEfficiency(d, &set->items[j], eff);
}

/* True when no shape before `i` has `anchor` and an efficiency: each
 * anchor is fitted once, at its first shape. */
static bool firstOfAnchor(const LpDeviceNumbers *d, const LpShapeSet *set,
                          size_t i, const char *anchor) {
  double unused;
  for (size_t j = 0; j < i; j++)
    if (ofAnchor(d, set, j, anchor, &unused))
      return false;
  return true;
}

static double shapeValue(const void *context, const char *name) {
  return lpShapeNumber(context, name);
}

typedef struct {
  double reduction, efficiency;
} Sample;

static int byReduction(const void *a, const void *b) {
  double x = ((const Sample *)a)->reduction, y = ((const Sample *)b)->reduction;
  return (x > y) - (x < y);
}

/* Writes `anchor`'s curve from its `n` samples (sorted in place): the
 * median efficiency at each distinct reduction, read at the powers of two
 * from the one at or below the shortest to the one at or above the
 * longest; nothing with fewer than two distinct reductions. */
static void fitCurve(LpDeviceNumbers *d, const char *anchor, Sample *samples,
                     size_t n) {
  qsort(samples, n, sizeof *samples, byReduction);
  double *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
  double *same = malloc((n + 1) * sizeof *same);
  size_t distinct = 0;
  for (size_t i = 0; x && y && same && i < n;) {
    size_t count = 0;
    double reduction = samples[i].reduction;
    for (; i < n && samples[i].reduction == reduction; i++)
      same[count++] = samples[i].efficiency;
    x[distinct] = reduction;
    y[distinct++] = lpMedian(same, count);
  }
  for (int p = 0; distinct >= 2 && p < CM_CHANNELS_LAST_POINTS; p++) {
    double k = cmChannelsLastReduction(p);
    if (k * 2 <= x[0] || k >= x[distinct - 1] * 2)
      continue; /* beyond the powers around the measured range */
    char key[160];
    cmChannelsLastKey(key, sizeof key, anchor, p);
    lpDeviceSetFitted(d, key, NULL, cmLogLinearAt(x, y, distinct, k));
  }
  free(x);
  free(y);
  free(same);
}

void lpFitChannelsLast(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *own = malloc((set->count + 1) * sizeof *own);
  Sample *samples = malloc((set->count + 1) * sizeof *samples);
  char anchor[96];
  for (size_t i = 0; own && samples && i < set->count; i++) {
    double eff;
    if (!cmKernelAnchor(set->items[i].type, anchor, sizeof anchor) ||
        !channelsLastEfficiency(d, &set->items[i], &eff) ||
        !firstOfAnchor(d, set, i, anchor))
      continue;
    size_t n = 0, m = 0;
    for (size_t j = i; samples && j < set->count; j++)
      if (ofAnchor(d, set, j, anchor, &own[n])) {
        double k = cmReductionPerOutput(set->items[j].type, shapeValue,
                                        &set->items[j]);
        if (k > 0 && isfinite(k))
          samples[m++] = (Sample){k, own[n]};
        n++;
      }
    lpDeviceSetFitted(d, "channels_last_efficiency", anchor, lpMedian(own, n));
    fitCurve(d, anchor, samples, m);
  }
  free(own);
  free(samples);
}
