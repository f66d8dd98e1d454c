/*===- calibrate_channels_last.c - one efficiency for channels-last convs --===*
 *
 * Through `loops` a channels-last conv (TOSA's, linalg's nhwc: loops n, oh,
 * ow, f, kh, kw, c) runs its innermost loop along contiguous channels of
 * input and weight, at nearly one rate whatever its shape: ResNet-18's
 * TOSA convs took 0.57-0.63 ns a multiply-add from 56x56x64 to 7x7x512,
 * SD's 3 x 3 convs at 320 channels 0.60. The channels-first kernels the
 * efficiency slopes are fitted on walk the input a plane apart and vary
 * with cin and cout; their law, applied to channels-last convs, missed
 * ResNet-50's by -26..+36%. So channels-last shapes are left out of every
 * other efficiency (lpEfficiencyOf), and their own is the median over
 * them per anchor (conv2d, depthwise_conv2d), pooled over the fused types:
 * `channels_last_efficiency.<anchor>`, compute side, on their work
 * (lpWorkUs: the scratch pages of the decomposed batch norm left out).
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The anchor of `type` (the part before the first '+') into `out`. */
static void anchorOf(const char *type, char *out, size_t size) {
  snprintf(out, size, "%.*s", (int)strcspn(type, "+"), type);
}

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

void lpFitChannelsLast(const LpShapeSet *set, LpDeviceNumbers *d) {
  double *own = malloc((set->count + 1) * sizeof *own);
  char anchor[96], other[96];
  for (size_t i = 0; own && i < set->count; i++) {
    double eff;
    if (!channelsLastEfficiency(d, &set->items[i], &eff))
      continue;
    anchorOf(set->items[i].type, anchor, sizeof anchor);
    bool seen = false; /* the anchor's shapes, once, at its first */
    for (size_t j = 0; !seen && j < i; j++) {
      anchorOf(set->items[j].type, other, sizeof other);
      seen = !strcmp(anchor, other) &&
             channelsLastEfficiency(d, &set->items[j], &eff);
    }
    size_t n = 0;
    for (size_t j = i; !seen && j < set->count; j++) {
      anchorOf(set->items[j].type, other, sizeof other);
      if (!strcmp(anchor, other) &&
          channelsLastEfficiency(d, &set->items[j], &eff))
        own[n++] = eff;
    }
    if (n)
      lpDeviceSetFitted(d, "channels_last_efficiency", anchor,
                        lpMedian(own, n));
  }
  free(own);
}
