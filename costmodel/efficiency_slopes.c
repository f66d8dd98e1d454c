/*===- efficiency_slopes.c - the roofline's efficiency along a kernel's axes
 *
 * Through a CPU pipeline such as `loops`, one efficiency per kernel type
 * misses by a factor of several: a matmul runs 0.5 ns a multiply-add at
 * n = 128 and 4.7 ns at n = 4096 (the inner loop walks a column of the
 * weight; where the host's cache geometry is known, roofline_loop_matmul.c
 * prices that walk by cache level and the law sees only the shapes whose
 * column stays in L1), a 1 x 1 conv with 16 input channels pays its loop
 * overhead on few multiply-adds. latency-profile fits the efficiency as a
 * power law of the kernel's axes where that predicts its measured shapes
 * better, left out one at a time, than the median does (tools/latency-profile/
 * calibrate_slopes.c), and writes the slopes with the range they were
 * fitted over. Outside that range the efficiency stays at its edge: the
 * law is not extrapolated. The product is held within [1e-3, 1e3]. A
 * matmul's or conv's law may also carry the reduction term, the
 * efficiency's rise along its multiply-adds per output
 * (cmReductionLawFactor, latency/costmodel_util.h).
 *
 *===----------------------------------------------------------------------===*/
#include "efficiency_slopes.h"
#include "roofline.h"

#include <math.h>
#include <stdio.h>

double cmClampedLawFactor(double x, double slope, double lo, double hi) {
  if (isnan(slope) || !(x > 0) || !(lo > 0) || !(hi >= lo))
    return 1;
  double clamped = x < lo ? lo : x > hi ? hi : x;
  return pow(clamped / sqrt(lo * hi), slope);
}

double cmReductionPerOutput(const char *kernel, CmValueFn value,
                            const void *context) {
  if (!kernel || !value)
    return NAN;
  if (cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul"))
    return value(context, "k");
  if (cmKernelIs(kernel, "depthwise_conv2d"))
    return value(context, "window");
  if (!cmKernelIs(kernel, "conv2d") && !cmKernelIs(kernel, "conv1d") &&
      !cmKernelIs(kernel, "conv3d"))
    return NAN;
  /* a grouped conv's window is already kh x kw over the groups
     (passes/describe.c: weight elements over cout x cin) */
  return value(context, "cin") * value(context, "window");
}

double cmMultiplyAdds(const char *kernel, CmValueFn value,
                      const void *context) {
  if (!kernel || !value)
    return NAN;
  double batch = value(context, "batch");
  batch = isnan(batch) ? 1 : batch;
  double outputs = NAN;
  if (cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul"))
    outputs = batch * value(context, "m") * value(context, "n");
  else if (cmKernelIs(kernel, "conv2d") ||
           cmKernelIs(kernel, "depthwise_conv2d"))
    outputs = batch * value(context, "hw") * value(context, "cout");
  return outputs * cmReductionPerOutput(kernel, value, context);
}

double cmReductionLawFactor(double k, double k0, double lo, double hi) {
  if (!(k0 > 0) || !isfinite(k0) || !(k > 0) || !(lo > 0) || !(hi >= lo) ||
      isinf(hi))
    return 1;
  double clamped = k < lo ? lo : k > hi ? hi : k;
  return (1 + k0 / clamped) / (1 + k0 / sqrt(lo * hi));
}

/* The reduction law of `kernel` (efficiency_reduction_k0|lo|hi.<kernel>)
 * at the query's reduction; 1 without one. */
static double reductionFactor(CmProfile profile, const char *kernel,
                              CmValueFn value, const void *context) {
  double k0 =
      cmRooflineKernelNumber(profile, "efficiency_reduction_k0", kernel, NULL);
  if (!(k0 > 0))
    return 1;
  return cmReductionLawFactor(
      cmReductionPerOutput(kernel, value, context), k0,
      cmRooflineKernelNumber(profile, "efficiency_reduction_lo", kernel, NULL),
      cmRooflineKernelNumber(profile, "efficiency_reduction_hi", kernel, NULL));
}

void cmScaleOwnEfficiencies(bool ownCompute, bool ownMemory, double scale,
                            double *compute, double *memory) {
  if (ownCompute || !ownMemory)
    *compute *= scale;
  if (ownMemory || !ownCompute)
    *memory *= scale;
}

static double factorFor(CmProfile profile, const char *kernel, const char *name,
                        double x) {
  char key[256]; /* latency-profile writes keys of up to 223 characters */
  snprintf(key, sizeof key, "efficiency_slope.%s.%s", kernel, name);
  double slope = cmProfileGetDeviceNumber(profile, key, NAN);
  if (isnan(slope) || !(x > 0))
    return 1;
  snprintf(key, sizeof key, "efficiency_lo.%s.%s", kernel, name);
  double lo = cmProfileGetDeviceNumber(profile, key, NAN);
  snprintf(key, sizeof key, "efficiency_hi.%s.%s", kernel, name);
  double hi = cmProfileGetDeviceNumber(profile, key, NAN);
  return cmClampedLawFactor(x, slope, lo, hi);
}

double cmEfficiencyScale(CmProfile profile, const char *kernel,
                         const CmPolicy *policy, CmValueFn value,
                         const void *context) {
  if (!kernel || !policy || !value)
    return 1;
  double scale = 1;
  for (int a = 0; a < policy->numAxes; a++)
    scale *= factorFor(profile, kernel, policy->axes[a],
                       value(context, policy->axes[a]));
  for (int r = 0; r < policy->numRegime; r++)
    scale *= factorFor(profile, kernel, policy->regime[r],
                       value(context, policy->regime[r]));
  scale *= reductionFactor(profile, kernel, value, context);
  /* a fitted law moves the efficiency by a few times at most; a hand-made
   * device.csv with a slope of 50 must not make a latency infinite */
  const double kMaxScale = 1e3;
  if (!(scale > 0)) /* NaN too */
    return 1;
  return scale > kMaxScale       ? kMaxScale
         : scale < 1 / kMaxScale ? 1 / kMaxScale
                                 : scale;
}
