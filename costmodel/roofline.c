/*===- roofline.c - the analytic default tier ------------------------------===*
 *
 * latency = max(flops / (peak[dtype] * compute_efficiency * scale),
 *               bytes / (mem_bw * memory_efficiency * scale)) + launch_us,
 * scale being the efficiency slopes' factor at the kernel's shape (1 unless
 * device.csv has them, costmodel/efficiency_slopes.c), where
 * launch_us.<kernel>, compute_efficiency.<kernel> and
 * memory_efficiency.<kernel> (the table kernel, e.g. launch_us.attention)
 * override the device-wide values when device.csv has them, and
 * `key.<kernel>.<dtype>` (launch_us.matmul.f16) overrides those: a fit of
 * one kernel's tables per dtype (latency-eval --fit-roofline) writes them.
 * With `sm_count` and `wave_us.<kernel>`, each wave of the kernel's output
 * tiles over the SMs adds wave_us (work.c counts the tiles): a small
 * kernel of many tiles pays for its prologues and epilogues. It is part of
 * the fixed cost reported as launch_us. A GEMM whose kernel has a
 * tile_bandwidth (and a device with sm_count) takes its compute side from
 * the tile model instead (gemm_tiles.c), its waves included there.
 * A matmul whose query says weight_transposed=1 writes a transposed copy
 * of its weight on every call, which a pipeline that does not absorb the
 * transpose pays per byte: with a device.csv `weight_copy_ns_per_byte`
 * (per kernel and dtype as above) it adds weight bytes x rate once the
 * weight reaches `weight_copy_min_bytes` (latency-profile fits both:
 * tools/latency-profile/calibrate_weight_copy.c), also part of launch_us.
 * On a host profile with the cache geometry, a matmul's memory side is at
 * least the time its loops take to walk the columns of its weight where
 * they do not stay in L1 (columnWalkUs, latency/column_walk.h).
 * Bytes are those crossing the kernel boundary (the caller's job for fused
 * kernels). With only one of the two bounds known, that one answers and the
 * reason says what was missing.
 *
 *===----------------------------------------------------------------------===*/
#include "roofline.h"

#include "answer.h"
#include "gemm_tiles.h"
#include "work.h"

#include "latency/column_walk.h"
#include "latency/dtype.h"

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

/* The time a matmul spends writing the transposed copy of its weight that
 * its query says it makes (weight_transposed=1), us: weight bytes (n x k x
 * batch elements) x weight_copy_ns_per_byte from weight_copy_min_bytes on;
 * 0 for every other kernel and profiles without the rate (every shipped
 * GPU profile). */
static double weightCopyUs(CmProfile profile, const char *kernel,
                           const char *dtype, CmValueFn value,
                           const void *context, CmEstimate *out) {
  if (!kernel || !value || value(context, "weight_transposed") != 1 ||
      !(cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul")))
    return 0;
  double rate = cmRooflineDeviceNumber(profile, "weight_copy_ns_per_byte",
                                       kernel, dtype, 0);
  double size = dtype ? cmDtypeGetSize(dtype) : 0;
  double batch = value(context, "batch");
  double bytes = value(context, "n") * value(context, "k") *
                 (isnan(batch) ? 1 : batch) * size;
  if (!(rate > 0) || !(bytes > 0) ||
      bytes < cmProfileGetDeviceNumber(profile, "weight_copy_min_bytes", 0))
    return 0;
  cmEstimateAddReason(out, "roofline: + %.4g us transposed weight copy",
                      bytes * rate * 1e-3);
  return bytes * rate * 1e-3;
}

/* device.csv's `key.<kernel>.<dtype>`, else `key.<dtype>`, else NAN: the
 * column walk's times are per dtype (bf16 computes through conversions on
 * a CPU), so there is no dtype-free fallback. */
static double perDtypeNumber(CmProfile profile, const char *key,
                             const char *kernel, const char *dtype) {
  char name[256];
  snprintf(name, sizeof name, "%s.%s.%s", key, kernel, dtype);
  double value = cmProfileGetDeviceNumber(profile, name, NAN);
  snprintf(name, sizeof name, "%s.%s", key, dtype);
  return isnan(value) ? cmProfileGetDeviceNumber(profile, name, NAN) : value;
}

/* The time a loop-lowered matmul spends walking columns of its weight that
 * do not stay in L1, us (latency/column_walk.h): multiply-adds x
 * `column_walk_ns_l2` or `column_walk_ns_mem` (per kernel and dtype, else
 * per dtype) at the level device.csv's cache geometry puts the column in;
 * 0 for other kernels, columns that stay in L1, and profiles without the
 * geometry or the rate (every shipped GPU profile). */
static double columnWalkUs(CmProfile profile, const char *kernel,
                           const char *dtype, CmValueFn value,
                           const void *context, CmEstimate *out) {
  if (!kernel || !dtype || !value ||
      !(cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul")))
    return 0;
  CmCacheGeometry g = {
      cmProfileGetDeviceNumber(profile, "l1d_bytes", 0),
      cmProfileGetDeviceNumber(profile, "l1d_ways", 0),
      cmProfileGetDeviceNumber(profile, "l2_bytes", 0),
      cmProfileGetDeviceNumber(profile, "l2_ways", 0),
      cmProfileGetDeviceNumber(profile, "cache_line_bytes", 0)};
  double m = value(context, "m"), n = value(context, "n");
  double k = value(context, "k"), batch = value(context, "batch");
  int level = cmColumnWalkLevel(&g, k, n * cmDtypeGetSize(dtype));
  if (level < 2 || !(m > 0))
    return 0;
  double ns = perDtypeNumber(
      profile, level == 2 ? "column_walk_ns_l2" : "column_walk_ns_mem", kernel,
      dtype);
  if (!(ns > 0))
    return 0;
  double us = m * n * k * (isnan(batch) ? 1 : batch) * ns * 1e-3;
  cmEstimateAddReason(out, "roofline: weight column in %s, %.3g ns a MAC",
                      level == 2 ? "L2" : "memory", ns);
  return us;
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

bool cmRoofline(CmProfile profile, const char *kernel, const char *dtype,
                double flops, double bytes, CmValueFn value,
                const void *context, double efficiencyScale, CmEstimate *out) {
  out->flops = flops;
  out->bytes = bytes;
  double peak = cmRooflinePeak(profile, dtype);
  double bandwidth = cmProfileGetDeviceNumber(profile, "mem_bw", NAN);
  double computeEff =
      cmRooflineDeviceNumber(profile, "compute_efficiency", kernel, dtype, 1);
  double memoryEff =
      cmRooflineDeviceNumber(profile, "memory_efficiency", kernel, dtype, 1);
  if (efficiencyScale != 1) {
    computeEff *= efficiencyScale;
    memoryEff *= efficiencyScale;
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
  out->memoryUs = fmax(
      out->memoryUs, columnWalkUs(profile, kernel, dtype, value, context, out));
  launch += weightCopyUs(profile, kernel, dtype, value, context, out);
  out->launchUs = launch;
  out->bound = out->computeUs >= out->memoryUs && haveCompute ? CM_BOUND_COMPUTE
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
