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
 * linalg's hwcf (weight F innermost: the c loop walks it like a matmul
 * column) and the depthwise nests carry the flag too; only TOSA's convs
 * were measured here.
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "latency/costmodel_util.h"

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

void lpFitChannelsLast(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *own = malloc((set->count + 1) * sizeof *own);
  char anchor[96];
  for (size_t i = 0; own && i < set->count; i++) {
    double eff;
    if (!cmKernelAnchor(set->items[i].type, anchor, sizeof anchor) ||
        !channelsLastEfficiency(d, &set->items[i], &eff) ||
        !firstOfAnchor(d, set, i, anchor))
      continue;
    size_t n = 0;
    for (size_t j = i; j < set->count; j++)
      if (ofAnchor(d, set, j, anchor, &own[n]))
        n++;
    lpDeviceSetFitted(d, "channels_last_efficiency", anchor, lpMedian(own, n));
  }
  free(own);
}
