/*===- roofline.h - the analytic default tier (internal) ------------------===*/
#ifndef LATENCY_ROOFLINE_H
#define LATENCY_ROOFLINE_H

#include "latency/costmodel.h"
#include "work.h"

/// Where a roofline answer's efficiencies come from: device.csv's
/// compute_efficiency and memory_efficiency of `kernel` (its table's kernel,
/// or the family of a type without one: conv2d+*; NULL: device-wide), the
/// one `kernel` has of its own (both if neither) multiplied by `scale`
/// (cmEfficiencyScale; 1 for none).
typedef struct {
  const char *kernel;
  double scale;
} CmEfficiencySource;

/// Fills the roofline answer for `flops` and `bytes` (negative: unknown) of
/// a kernel whose table kernel is `kernel` (may be NULL: its launch, copy,
/// column-walk and tile keys) and element type `dtype` (may be NULL) from
/// the device of `profile`, at the efficiencies of `efficiency`; its shape
/// values (m, n, k, seq, ...) come from `value` over `context` (NULL:
/// unknown, no wave term and no GEMM tile model). Returns false with the
/// reason when neither bound can be computed.
bool cmRoofline(CmProfile profile, const char *kernel, const char *dtype,
                double flops, double bytes, CmValueFn value,
                const void *context, CmEfficiencySource efficiency,
                CmEstimate *out);

/// Returns device.csv's `key.<kernel>.<dtype>`, else `key.<kernel>`, else
/// NAN: the kernel's own value of `key`, without the device-wide fallback.
double cmRooflineKernelNumber(CmProfile profile, const char *key,
                              const char *kernel, const char *dtype);

/// Returns device.csv's `key.<kernel>.<dtype>`, else `key.<kernel>`, else
/// `key`, else `fallback` (`kernel`, `dtype` may be NULL: that level is
/// skipped); the parameters the roofline of that kernel uses.
double cmRooflineDeviceNumber(CmProfile profile, const char *key,
                              const char *kernel, const char *dtype,
                              double fallback);

/// Returns the peak FLOP/s for `dtype` (peak_flops.<dtype>, else
/// peak_flops), NaN when device.csv has neither.
double cmRooflinePeak(CmProfile profile, const char *dtype);

#endif /* LATENCY_ROOFLINE_H */
