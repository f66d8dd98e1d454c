/*===- curve.c - curves device.csv holds at fixed points ------------------===*
 *
 * latency-profile writes a few rates as curves over a quantity that spans
 * orders of magnitude (a channels-last conv's efficiency over its
 * reduction, an epilogue's time per element over the bytes of a pass):
 * values at fixed points, powers of two or four, only where measurements
 * back them. They are read linearly in the logarithm of the quantity
 * between the points written and at the edge value beyond them.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>

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

double cmCurveAt(CmCurvePointFn point, const void *context, int points,
                 double (*xOf)(int index), double at) {
  enum { kMaxPoints = 64 }; /* the curves have 6 and 17 points */
  double x[kMaxPoints], y[kMaxPoints];
  size_t n = 0;
  for (int i = 0; point && xOf && i < points && i < kMaxPoints; i++) {
    double value = point(context, i);
    if (value > 0 && isfinite(value)) {
      x[n] = xOf(i);
      y[n++] = value;
    }
  }
  return cmLogLinearAt(x, y, n, at);
}
