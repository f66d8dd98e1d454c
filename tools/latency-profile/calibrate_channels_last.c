/*===- calibrate_channels_last.c - channels-last convs' own efficiency ---===*
 *
 * Through `loops` a channels-last conv as TOSA lowers it (linalg's
 * conv_2d_nhwc_fhwc: loops n, oh, ow, f, kh, kw, c) runs its innermost loop
 * along contiguous channels of input and weight. The channels-first
 * kernels the efficiency slopes are fitted on walk the input a plane apart
 * and vary with cin and cout; their law, applied to channels-last convs,
 * missed ResNet-50's by -26..+36%. So channels-last shapes are left out of
 * every other efficiency (lpEfficiencyOf), and their own is the median
 * over them per anchor (conv2d, depthwise_conv2d), pooled over the fused
 * types: `channels_last_efficiency.<anchor>`, compute side, on their work
 * (lpWorkUs: the scratch pages of the decomposed batch norm and the
 * epilogue's passes left out, latency/epilogue.h).
 * Their rate is set by the chain each output accumulates, cin x window
 * multiply-adds, and by little else: 0.36 ns a multiply-add at 16 to 38,
 * 0.50 at 64, 0.65 at 128, 0.8 from 576 on (p37), so a TOSA MobileNet-V2's
 * pointwise convs, priced at the median, came out 1.7x slow. So the
 * efficiency is also written as a curve over that reduction (a depthwise
 * conv's: its window), the median at each measured reduction interpolated
 * to powers of two (`channels_last_efficiency.<anchor>.k<2^i>`,
 * latency/channels_last.h), from the power at or below the shortest
 * measured to the one at or above the longest: the reader keeps the edge
 * value beyond them. linalg's hwcf (weight F innermost: the c loop walks
 * it like a matmul column) and the depthwise nests carry the flag too;
 * only TOSA's convs were measured here.
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
  /* a half conv on the converted chain runs at the chain's rate, its own,
     and an int8 one on the integer grid at the grid's */
  if (!lpChannelsLast(s) || !(peak > 0) || !(s->flops > 0) || !(us > 0) ||
      lpConvertedChainUs(d, s) > 0 || lpIntegerMacUs(d, s) > 0)
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

/* Writes `anchor`'s curve from its `n` samples of (reduction, efficiency),
 * reordered: the median efficiency at each distinct reduction, read at the
 * powers of two from the one at or below the shortest to the one at or
 * above the longest. Nothing with fewer than two distinct reductions, and
 * nothing when device.csv has no room for every point: a curve cut short
 * would carry its last point's value to every longer reduction. */
static void fitCurve(LpDeviceNumbers *d, const char *anchor, LpPoint *samples,
                     size_t n) {
  size_t distinct = lpMedianPerX(samples, n, NULL);
  if (distinct < 2)
    return;
  double lo = samples[0].x, hi = samples[distinct - 1].x;
  int written[CM_CHANNELS_LAST_POINTS], points = 0;
  for (int p = 0; p < CM_CHANNELS_LAST_POINTS; p++) {
    double k = cmChannelsLastReduction(p);
    if (k * 2 > lo && k < hi * 2) /* the powers around the measured range */
      written[points++] = p;
  }
  if (d->numFitted + points > LP_MAX_FITTED)
    return;
  double *rx = malloc(distinct * sizeof *rx);
  double *ry = malloc(distinct * sizeof *ry);
  for (size_t i = 0; rx && ry && i < distinct; i++)
    rx[i] = samples[i].x, ry[i] = samples[i].y;
  for (int i = 0; rx && ry && i < points; i++) {
    char key[160];
    cmChannelsLastKey(key, sizeof key, anchor, written[i]);
    lpDeviceSetFitted(
        d, key, NULL,
        cmLogLinearAt(rx, ry, distinct, cmChannelsLastReduction(written[i])));
  }
  free(rx);
  free(ry);
}

void lpFitChannelsLast(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *own = malloc((set->count + 1) * sizeof *own);
  LpPoint *samples = malloc((set->count + 1) * sizeof *samples);
  char anchor[96];
  for (size_t i = 0; own && i < set->count; i++) {
    double eff;
    if (!cmKernelAnchor(set->items[i].type, anchor, sizeof anchor) ||
        !channelsLastEfficiency(d, &set->items[i], &eff) ||
        !firstOfAnchor(d, set, i, anchor))
      continue;
    size_t n = 0;
    for (size_t j = i; j < set->count; j++)
      if (ofAnchor(d, set, j, anchor, &own[n])) {
        if (samples) /* at reduction cin x window (a depthwise conv: window) */
          samples[n] =
              (LpPoint){cmReductionPerOutput(set->items[j].type, lpShapeValue,
                                             &set->items[j]),
                        own[n]};
        n++;
      }
    lpDeviceSetFitted(d, "channels_last_efficiency", anchor, lpMedian(own, n));
    if (samples)
      fitCurve(d, anchor, samples, n);
  }
  free(own);
  free(samples);
}
