/*===- roofline.c - the analytic default tier ------------------------------===*
 *
 * latency = max(flops / (peak[dtype] * compute_efficiency),
 *               bytes / (mem_bw * memory_efficiency)) + launch_us, where
 * launch_us.<kernel>, compute_efficiency.<kernel> and
 * memory_efficiency.<kernel> (the table kernel, e.g. launch_us.attention)
 * override the device-wide values when device.csv has them.
 * Bytes are those crossing the kernel boundary (the caller's job for fused
 * kernels). With only one of the two bounds known, that one answers and the
 * reason says what was missing.
 *
 *===----------------------------------------------------------------------===*/
#include "roofline.h"

#include "answer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* device.csv's `key.<kernel>` when present, else `key`, else `fallback`:
 * per-kernel values (launch_us.attention) refine device-wide ones. */
static double deviceNumberFor(CmProfile profile, const char *key,
                              const char *kernel, double fallback) {
  char specific[160];
  snprintf(specific, sizeof specific, "%s.%s", key, kernel ? kernel : "");
  double value =
      kernel ? cmProfileGetDeviceNumber(profile, specific, NAN) : NAN;
  return isnan(value) ? cmProfileGetDeviceNumber(profile, key, fallback)
                      : value;
}

bool cmRoofline(CmProfile profile, const char *kernel, const char *dtype,
                double flops, double bytes, CmEstimate *out) {
  out->flops = flops;
  out->bytes = bytes;
  char key[96];
  snprintf(key, sizeof key, "peak_flops.%s", dtype ? dtype : "");
  double peak = cmProfileGetDeviceNumber(profile, key, NAN);
  if (isnan(peak))
    peak = cmProfileGetDeviceNumber(profile, "peak_flops", NAN);
  double bandwidth = cmProfileGetDeviceNumber(profile, "mem_bw", NAN);
  double computeEff = deviceNumberFor(profile, "compute_efficiency", kernel, 1);
  double memoryEff = deviceNumberFor(profile, "memory_efficiency", kernel, 1);
  double launch = deviceNumberFor(profile, "launch_us", kernel, 0);

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
  out->computeUs = haveCompute ? flops / (peak * computeEff) * 1e6 : 0;
  out->memoryUs = haveMemory ? bytes / (bandwidth * memoryEff) * 1e6 : 0;
  out->launchUs = launch;
  out->bound = out->computeUs >= out->memoryUs && haveCompute ? CM_BOUND_COMPUTE
                                                              : CM_BOUND_MEMORY;
  out->latencyUs = fmax(out->computeUs, out->memoryUs) + launch;
  out->source = CM_SOURCE_ROOFLINE;
  out->method = CM_METHOD_ROOFLINE;
  out->confidence = 0.1; /* display only; see docs/accuracy.md */
  out->errorEstimate = -1;
  return true;
}
