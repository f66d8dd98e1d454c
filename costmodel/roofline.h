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

/// Returns the time, us, of a matmul's or dense conv's multiply-adds at
/// the rate device.csv has for its half-precision `dtype` and its
/// accumulator (`converted_mac_ns.<dtype>.acc<bits>`, the query's
/// acc_bits when 16 or 32, else the dtype's own width:
/// cmConvertedAccBits, latency/converted_chain.h), with
/// that rate in `*ns`; 0 (and NAN) for a reduction of at most
/// CM_CONVERTED_UNROLLED_REDUCTION, another kernel, a shape the query
/// lacks or a profile without the rate.
double cmRooflineConvertedChainUs(CmProfile profile, const char *kernel,
                                  const char *dtype, CmValueFn value,
                                  const void *context, double *ns);

/// Returns the time, us, of an integer channels-last conv2d's or depthwise
/// conv's multiply-adds at the rates device.csv has for its `dtype`
/// (`integer_mac_ns.<dtype>.*`, latency/integer_mac.h), with the rate in
/// `*ns`; 0 (and NAN) for a float, another kernel, a shape the query lacks
/// or a profile without the rates.
double cmRooflineIntegerMacUs(CmProfile profile, const char *kernel,
                              const char *dtype, CmValueFn value,
                              const void *context, double *ns);

/// Returns what the query's pads cost, us: its pad_elements at device.csv's
/// pad_copy_ns_per_element; 0 without either.
double cmRooflinePadCopyUs(CmProfile profile, CmValueFn value,
                           const void *context);

/// Returns whether device.csv has a converted chain's rate for `dtype`
/// (`converted_mac_ns.<dtype>.acc16|acc32`): a half type the host computes
/// in f32, converting.
bool cmRooflineConvertsDtype(CmProfile profile, const char *dtype);

/// Returns the peak FLOP/s for `dtype` (peak_flops.<dtype>, else
/// peak_flops; f32's for a dtype the host converts,
/// cmRooflineConvertsDtype), NaN when device.csv has neither.
double cmRooflinePeak(CmProfile profile, const char *dtype);

#endif /* LATENCY_ROOFLINE_H */
