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

double cmLogLinearAt(const double *x, const double *y, size_t n, double at) {
  if (n == 0 || !(at > 0))
    return NAN;
  if (at <= x[0])
    return y[0];
  for (size_t i = 1; i < n; i++)
    if (at <= x[i]) {
      double span = log(x[i] / x[i - 1]);
      if (!(span > 0)) /* x not strictly ascending: no line to be on */
        return y[i];
      return y[i - 1] + (y[i] - y[i - 1]) * log(at / x[i - 1]) / span;
    }
  return y[n - 1];
}

double cmChannelsLastEfficiency(CmChannelsLastFn at, const void *context,
                                double reduction) {
  double x[CM_CHANNELS_LAST_POINTS], y[CM_CHANNELS_LAST_POINTS];
  size_t n = 0;
  for (int i = 0; at && i < CM_CHANNELS_LAST_POINTS; i++) {
    double efficiency = at(context, i);
    if (efficiency > 0 && isfinite(efficiency)) {
      x[n] = cmChannelsLastReduction(i);
      y[n++] = efficiency;
    }
  }
  return cmLogLinearAt(x, y, n, reduction);
}
