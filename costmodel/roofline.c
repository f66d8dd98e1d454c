/*===- roofline.c - the analytic default tier ------------------------------===*
 *
 * latency = max(flops / (peak[dtype] * compute_efficiency * scale),
 *               bytes / (mem_bw * memory_efficiency * scale)) + launch_us,
 * scale being the efficiency slopes' factor at the kernel's shape (1 unless
 * device.csv has them, costmodel/efficiency_slopes.c) on the side where
 * the kernel has an efficiency of its own (both when it has neither; 1 on
 * the other side, which is the device's), where
 * launch_us.<kernel>, compute_efficiency.<kernel> and
 * memory_efficiency.<kernel> (the table kernel, e.g. launch_us.attention)
 * override the device-wide values when device.csv has them, and
 * `key.<kernel>.<dtype>` (launch_us.matmul.f16) overrides those: a fit of
 * one kernel's tables per dtype (latency-eval --fit-roofline) writes them.
 * A kernel type without an efficiency of its own on a host profile (a
 * plain conv2d where the bundled models measured conv2d+batchnorm+relu)
 * takes its family's efficiencies and slopes (CmEfficiencySource: conv2d+*,
 * fitted by latency-profile over every measured type of the anchor;
 * estimate.c efficiencySource); its other keys stay its table kernel's.
 * With `sm_count` and `wave_us.<kernel>`, each wave of the kernel's output
 * tiles over the SMs adds wave_us (work.c counts the tiles): a small
 * kernel of many tiles pays for its prologues and epilogues. It is part of
 * the fixed cost reported as launch_us. A GEMM whose kernel has a
 * tile_bandwidth (and a device with sm_count) takes its compute side from
 * the tile model instead (gemm_tiles.c), its waves included there.
 * On a host profile, a matmul lowered to loops also pays for a weight
 * transposed on every call (part of launch_us) and for walking weight
 * columns that do not stay in L1 (a floor under its memory side; a
 * channels-first conv for its input's column across the channels):
 * roofline_loop_matmul.c. A kernel's scratch buffers (the query's
 * scratch_bytes: buffers it allocates inside, each large enough to be
 * mapped fresh per call, passes/describe.c) cost scratch_ns_per_byte each
 * byte, part of launch_us: page faults, which no bandwidth describes.
 * A channels-last conv (the query's channels_last=1: TOSA's, linalg's
 * nhwc) on a profile with channels_last_efficiency.<anchor> takes that
 * compute efficiency and no slopes (its memory side keeps the type's
 * efficiency, unscaled): through `loops` a TOSA conv (fhwc weight) runs
 * its innermost loop along contiguous channels of input and weight, at a
 * rate set by its reduction per output (cin x window) alone, where the
 * channels-first kernels the slopes were fitted on walk the input a plane
 * apart. Where the profile has the anchor's curve over that reduction
 * (`channels_last_efficiency.<anchor>.k<2^i>`, latency/channels_last.h)
 * the efficiency is read there, else the anchor's median. linalg's hwcf
 * and depthwise nests share the flag without having been measured
 * (docs/profiling.md, "Channels last"). Such a conv also pays for its
 * epilogue, each op after the conv a loop nest of its own (the query's
 * epilogue_elements over epilogue_passes, latency/epilogue.h), part of
 * launch_us: the efficiency was fitted with it taken out.
 * An integer channels-last conv2d or depthwise conv takes its compute side
 * from latency-profile's probes of such convs instead of an efficiency, and
 * pays for copying its pads (latency/integer_mac.h).
 * A half-precision (f16, bf16) matmul or dense conv whose reduction LLVM
 * does not unroll converts its elements one by one along it: its compute
 * side is no less than its multiply-adds at the rate latency-profile
 * probed for its element and accumulator types (converted_mac_ns,
 * latency/converted_chain.h).
 * Bytes are those crossing the kernel boundary (the caller's job for fused
 * kernels). With only one of the two bounds known, that one answers and the
 * reason says what was missing.
 *
 *===----------------------------------------------------------------------===*/
#include "roofline.h"

#include "answer.h"
#include "gemm_tiles.h"
#include "roofline_loop_matmul.h"

#include "latency/channels_last.h"
#include "latency/costmodel_util.h"
#include "latency/epilogue.h"
#include "latency/integer_mac.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double cmRooflineKernelNumber(CmProfile profile, const char *key,
                              const char *kernel, const char *dtype) {
  char specific[200];
  double value = NAN;
  if (kernel && dtype) {
    snprintf(specific, sizeof specific, "%s.%s.%s", key, kernel, dtype);
    value = cmProfileGetDeviceNumber(profile, specific, NAN);
  }
  if (kernel && isnan(value)) {
    snprintf(specific, sizeof specific, "%s.%s", key, kernel);
    value = cmProfileGetDeviceNumber(profile, specific, NAN);
  }
  return value;
}

double cmRooflineDeviceNumber(CmProfile profile, const char *key,
                              const char *kernel, const char *dtype,
                              double fallback) {
  double value = cmRooflineKernelNumber(profile, key, kernel, dtype);
  return isnan(value) ? cmProfileGetDeviceNumber(profile, key, fallback)
                      : value;
}

double cmRooflinePeak(CmProfile profile, const char *dtype) {
  if (cmRooflineConvertsDtype(profile, dtype))
    dtype = "f32"; /* latency/converted_chain.h */
  char key[96];
  snprintf(key, sizeof key, "peak_flops.%s", dtype ? dtype : "");
  double peak = cmProfileGetDeviceNumber(profile, key, NAN);
  return isnan(peak) ? cmProfileGetDeviceNumber(profile, "peak_flops", NAN)
                     : peak;
}

/* The per-wave cost: wave_us.<kernel> for each round of the kernel's
 * output tiles over the device's sm_count; 0 when any is unknown. */
static double waveCost(CmProfile profile, const char *kernel, const char *dtype,
                       CmValueFn value, const void *context) {
  double sms = cmProfileGetDeviceNumber(profile, "sm_count", NAN);
  double wave = cmRooflineDeviceNumber(profile, "wave_us", kernel, dtype, 0);
  double tiles = kernel && value ? cmBuiltinTiles(kernel, value, context) : NAN;
  return sms >= 1 && tiles > 0 && wave > 0 ? wave * ceil(tiles / sms) : 0;
}

/* What the kernel's scratch buffers cost, us: their page faults at the
 * profile's scratch_ns_per_byte; 0 when the query has none or the profile
 * no rate (a GPU's tables). */
static double scratchUs(CmProfile profile, const char *kernel,
                        const char *dtype, CmValueFn value,
                        const void *context) {
  double bytes = value ? value(context, "scratch_bytes") : NAN;
  if (!(bytes > 0))
    return 0;
  double rate =
      cmRooflineDeviceNumber(profile, "scratch_ns_per_byte", kernel, dtype, 0);
  double us = bytes * rate * 1e-3;
  return rate > 0 && isfinite(us) ? us : 0;
}

/* The GEMM tile model's compute time under the efficiencies the caller
 * looked up, or NAN when it does not apply. The kind of kernel is checked
 * (cmGemmTilesShape) before the tile keys are looked up: most roofline
 * answers are no GEMM. */
static double tileCompute(CmProfile profile, const char *kernel,
                          const char *dtype, double computeEff,
                          double memoryEff, CmValueFn value,
                          const void *context) {
  CmRooflineGemm gemm;
  if (!kernel || !(computeEff > 0) || !(memoryEff > 0) ||
      !cmGemmTilesShape(profile, kernel, dtype, value, context, &gemm))
    return NAN;
  CmRooflineParams p = {
      computeEff,
      memoryEff,
      0,
      cmRooflineDeviceNumber(profile, "wave_us", kernel, dtype, 0),
      cmRooflineDeviceNumber(profile, "tile_bandwidth", kernel, dtype, 0),
      cmRooflineDeviceNumber(profile, "split_k_us", kernel, dtype, 0)};
  return p.tileBandwidth > 0 ? cmGemmTilesUs(&gemm, &p) : NAN;
}

/* Point `index` of the epilogue curve of the CmProfile `context`
 * (CmCurvePointFn). */
static double epiloguePoint(const void *context, int index) {
  char key[64];
  cmEpilogueKey(key, sizeof key, index);
  return cmProfileGetDeviceNumber(*(const CmProfile *)context, key, NAN);
}

/* What the query's epilogue costs, us (latency/epilogue.h): its
 * epilogue_elements over epilogue_passes of `dtype` at the profile's
 * curve; 0 when the query or the profile has none. */
static double epilogueUs(CmProfile profile, const char *dtype, CmValueFn value,
                         const void *context) {
  return cmEpilogueUs(epiloguePoint, &profile,
                      value(context, "epilogue_elements"),
                      value(context, "epilogue_passes"), dtype);
}

/* Where a curve's points are read: `anchor`'s keys in `profile`. */
typedef struct {
  CmProfile profile;
  const char *anchor;
} CurveContext;

/* Point `index` of the curve of CurveContext `context` (CmCurvePointFn). */
static double curvePoint(const void *context, int index) {
  const CurveContext *c = context;
  char key[160];
  cmChannelsLastKey(key, sizeof key, c->anchor, index);
  return cmProfileGetDeviceNumber(c->profile, key, NAN);
}

/* A channels-last conv's compute efficiency, else NAN: a value set for its
 * anchor and dtype (channels_last_efficiency.<anchor>.<dtype>, by hand:
 * latency-profile pools dtypes) where device.csv has one, else the
 * anchor's curve at the query's reduction (latency/channels_last.h), else
 * channels_last_efficiency.<anchor>, the median over every reduction. Per
 * anchor (conv2d, depthwise_conv2d), not per fused type: the epilogue is a
 * few passes over the output next to the conv's multiply-adds. The anchor
 * comes from the query's kernel, which a fused type without a table (SD's
 * conv2d+add) has where the roofline's `kernel` (its table's) is NULL.
 * `*reduction` is the one the curve was read at, NAN when it was not;
 * `*source` names what answered, for the reason. */
static double channelsLastEfficiency(CmProfile profile, const char *kernel,
                                     const char *dtype, CmValueFn value,
                                     const void *context, double *reduction,
                                     const char **source) {
  *reduction = NAN;
  *source = "device.csv channels_last_efficiency.<anchor>";
  if (!kernel || !kernel[0] || !value || value(context, "channels_last") != 1)
    return NAN;
  char anchor[96];
  if (!cmKernelAnchor(kernel, anchor, sizeof anchor))
    return NAN;
  if (dtype) {
    char key[160];
    snprintf(key, sizeof key, "channels_last_efficiency.%s.%s", anchor, dtype);
    double own = cmProfileGetDeviceNumber(profile, key, NAN);
    if (own > 0) {
      *source = "device.csv channels_last_efficiency.<anchor>.<dtype>";
      return own;
    }
  }
  double k = cmReductionPerOutput(kernel, value, context);
  CurveContext curve = {profile, anchor};
  double efficiency =
      k > 0 ? cmChannelsLastEfficiency(curvePoint, &curve, k) : NAN;
  if (efficiency > 0) {
    *reduction = k;
    *source = "device.csv channels_last_efficiency.<anchor>.k<2^i>";
    return efficiency;
  }
  return cmRooflineKernelNumber(profile, "channels_last_efficiency", anchor,
                                NULL);
}

bool cmRoofline(CmProfile profile, const char *kernel, const char *dtype,
                double flops, double bytes, CmValueFn value,
                const void *context, CmEfficiencySource efficiency,
                CmEstimate *out) {
  out->flops = flops;
  out->bytes = bytes;
  /* asked once: cmRooflinePeak would ask again for a half dtype */
  bool converted = cmRooflineConvertsDtype(profile, dtype);
  double peak = cmRooflinePeak(profile, converted ? "f32" : dtype);
  if (converted)
    cmEstimateAddReason(out,
                        "roofline: %s computed at f32's peak, converting "
                        "(device.csv converted_mac_ns)",
                        dtype);
  double bandwidth = cmProfileGetDeviceNumber(profile, "mem_bw", NAN);
  /* the kernel's own efficiencies, else the device's (cmRooflineDeviceNumber,
     kept apart: the slopes below ask which side is its own) */
  double ownCompute = cmRooflineKernelNumber(profile, "compute_efficiency",
                                             efficiency.kernel, dtype);
  double ownMemory = cmRooflineKernelNumber(profile, "memory_efficiency",
                                            efficiency.kernel, dtype);
  double computeEff =
      isnan(ownCompute)
          ? cmProfileGetDeviceNumber(profile, "compute_efficiency", 1)
          : ownCompute;
  double memoryEff =
      isnan(ownMemory)
          ? cmProfileGetDeviceNumber(profile, "memory_efficiency", 1)
          : ownMemory;
  double efficiencyScale = efficiency.scale;
  double reduction;
  const char *source;
  double channelsLast = channelsLastEfficiency(
      profile, out->kernel, dtype, value, context, &reduction, &source);
  bool ownChannelsLast = isfinite(channelsLast) && channelsLast > 0;
  if (ownChannelsLast) {
    computeEff = channelsLast;
    efficiencyScale = 1; /* memory keeps the type's efficiency, unscaled */
    if (isnan(reduction))
      cmEstimateAddReason(
          out, "roofline: channels-last conv at efficiency %.3g (%s)",
          channelsLast, source);
    else
      cmEstimateAddReason(out,
                          "roofline: channels-last conv at efficiency %.3g "
                          "at reduction %g (%s)",
                          channelsLast, reduction, source);
  }
  if (efficiencyScale != 1) {
    /* only on the side the slope was fitted on (a relu's compute slope,
       fitted on small channels-first planes, made a wide one's memory side
       seven times too slow) */
    cmScaleOwnEfficiencies(!isnan(ownCompute), !isnan(ownMemory),
                           efficiencyScale, &computeEff, &memoryEff);
    cmEstimateAddReason(out, "roofline: efficiency x%.3g at this shape (%s)",
                        efficiencyScale, "device.csv efficiency_slope");
  }
  double tiled = tileCompute(profile, kernel, dtype, computeEff, memoryEff,
                             value, context);
  double launch =
      cmRooflineDeviceNumber(profile, "launch_us", kernel, dtype, 0) +
      (isnan(tiled) ? waveCost(profile, kernel, dtype, value, context) : 0);

  bool haveCompute = flops >= 0 && peak > 0 && computeEff > 0;
  bool haveMemory = bytes >= 0 && bandwidth > 0 && memoryEff > 0;
  if (!haveCompute && !haveMemory) {
    cmEstimateAddReason(out, "roofline: %s",
                        flops < 0 && bytes < 0
                            ? "no flops or bytes for this kernel"
                            : "device.csv lacks peak_flops and mem_bw");
    return false;
  }
  if (!haveCompute)
    cmEstimateAddReason(out, "roofline: no compute bound (%s)",
                        flops < 0 ? "flops unknown" : "no peak for dtype");
  if (!haveMemory)
    cmEstimateAddReason(out, "roofline: no memory bound (%s)",
                        bytes < 0 ? "bytes unknown" : "no mem_bw");
  out->computeUs = !haveCompute   ? 0
                   : isnan(tiled) ? flops / (peak * computeEff) * 1e6
                                  : tiled;
  out->memoryUs = haveMemory ? bytes / (bandwidth * memoryEff) * 1e6 : 0;
  /* a conv type without a table (a plain conv2d, read through its
     family's fields) walks as its kind does; so does a transpose, whose
     walk is in its query whatever the profile's tables */
  const char *walker = kernel;
  if (!walker && out->kernel &&
      (cmKernelIs(out->kernel, "conv2d") ||
       cmKernelIs(out->kernel, "depthwise_conv2d") ||
       cmKernelIs(out->kernel, "transpose")))
    walker = out->kernel;
  cmRooflineAddLoopMatmul(profile, walker, dtype, value, context, out, &launch);
  /* the product's own kernel, also for a fused type without a table */
  const char *product = out->kernel ? out->kernel : kernel;
  /* a half-precision product converts its elements one by one along its
     reduction: no faster than latency-profile's probe of that chain, which
     f32's efficiencies at the half type's matmul peak overshot 4-7x */
  double chainNs;
  double chain = cmRooflineConvertedChainUs(profile, product, dtype, value,
                                            context, &chainNs);
  if (chain > out->computeUs) {
    out->computeUs = chain;
    cmEstimateAddReason(out,
                        "roofline: half-precision multiply-adds converted one "
                        "by one, %.3g ns each (device.csv converted_mac_ns)",
                        chainNs);
  }
  /* an integer channels-last conv's channel loop is vectorized: the
     probe's grid, not f32's efficiencies (9x slow on an int8 MobileNet) */
  double integerNs;
  double integer = cmRooflineIntegerMacUs(profile, product, dtype, value,
                                          context, &integerNs);
  if (integer > 0) {
    out->computeUs = integer;
    cmEstimateAddReason(out,
                        "roofline: integer multiply-adds at %.3g ns each, in "
                        "place of the efficiency (device.csv integer_mac_ns)",
                        integerNs);
    double pad = cmRooflinePadCopyUs(profile, value, context);
    if (pad > 0) {
      launch += pad;
      cmEstimateAddReason(out, "roofline: + %.4g us copying its pads (%s)", pad,
                          "device.csv " CM_PAD_COPY_KEY);
    }
  }
  double scratch = scratchUs(profile, kernel, dtype, value, context);
  if (scratch > 0) {
    launch += scratch;
    cmEstimateAddReason(out, "roofline: + %.4g us fresh scratch pages",
                        scratch);
  }
  /* latency-profile fitted the channels-last efficiency with the epilogue
     taken out (lpWorkUs, tools/latency-profile/calibrate.c): it comes back
     here, the kernel's own (a hand-set per-dtype value gets it too) */
  double epilogue = ownChannelsLast || integer > 0
                        ? epilogueUs(profile, dtype, value, context)
                        : 0;
  if (epilogue > 0) {
    launch += epilogue;
    cmEstimateAddReason(out, "roofline: + %.4g us epilogue passes (%s)",
                        epilogue,
                        "device.csv epilogue_ns_per_element.b<bytes>");
  }
  out->launchUs = launch;
  out->bound = out->computeUs >= out->memoryUs && (haveCompute || integer > 0)
                   ? CM_BOUND_COMPUTE
                   : CM_BOUND_MEMORY;
  out->latencyUs =
      (isnan(tiled) ? fmax(out->computeUs, out->memoryUs)
                    : cmGemmTilesOverlap(out->computeUs, out->memoryUs)) +
      launch;
  out->source = CM_SOURCE_ROOFLINE;
  out->method = CM_METHOD_ROOFLINE;
  out->confidence = 0.1; /* display only; see docs/accuracy.md */
  out->errorEstimate = -1;
  return true;
}
