/*===- channels_last.c - a channels-last conv's efficiency by reduction ---===*
 *
 * The curve's points are fixed powers of two so that a reader asks for
 * each by name (no scan of device.csv's keys) and a writer with a few
 * measured reductions writes only the points around them.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/channels_last.h"

#include <math.h>
#include <stdio.h>

double cmChannelsLastReduction(int index) { return ldexp(1, index); }

void cmChannelsLastKey(char *out, size_t size, const char *anchor, int index) {
  if (index < 0 || index >= CM_CHANNELS_LAST_POINTS || !anchor)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "channels_last_efficiency.%s.k%.0f", anchor,
             cmChannelsLastReduction(index));
}

double cmChannelsLastEfficiency(CmCurvePointFn at, const void *context,
                                double reduction) {
  return cmCurveAt(at, context, CM_CHANNELS_LAST_POINTS,
                   cmChannelsLastReduction, reduction);
}
