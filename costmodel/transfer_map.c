/*===- transfer_map.c - how one shape scales from reference to target -----===*
 *
 * A reference time t is a launch floor plus a rest; the rest scales with
 * the ratio of the two devices' roofline times for the shape:
 *
 *   t' = floor' + max(0, t - floor) * (C' + M') / (C + M)
 *
 * C and M are the compute and memory times of each device's roofline
 * (peak_flops.<dtype> x compute_efficiency, mem_bw x memory_efficiency,
 * per-kernel overrides included; the target takes the reference's
 * per-kernel efficiencies when it has none of its own) for the work of
 * costmodel/work.c. The sum
 * rather than the larger of the two: it moves smoothly across the ridge
 * and measured best on the development pair (docs/accuracy.md). A bound
 * one device cannot compute (no peak for the dtype) is left out on both
 * sides; with no work formula at all the rest scales by memory bandwidth.
 * The target's floor is its launch_us.<kernel>, else the reference's
 * kernel floor times the ratio of the devices' launch_us.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include "roofline.h"
#include "work.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Numbers of one shape, for the work formulas: axes, then numeric regime
 * values (attention's heads and head_dim are regime keys). */
typedef struct {
  const CmPolicy *policy;
  const double *axes;
  const double *regimeNumbers;
} ShapeValues;

static double shapeValue(const void *context, const char *name) {
  const ShapeValues *v = context;
  int a = cmPolicyFindAxis(v->policy, name);
  if (a >= 0)
    return v->axes[a];
  int r = cmPolicyFindRegime(v->policy, name);
  return r >= 0 ? v->regimeNumbers[r] : NAN;
}

/* The roofline parts of `profile` for this work; zeros when unknown. */
static void rooflineOf(CmProfile profile, const CmTransferGroup *g,
                       double flops, double bytes, CmEstimate *out) {
  memset(out, 0, sizeof *out);
  const char *dtype = g->prep.dtype[0] ? g->prep.dtype : NULL;
  CmEfficiencySource own = {g->policy->kernel, 1};
  if (!cmRoofline(profile, g->policy->kernel, dtype, flops, bytes, NULL, NULL,
                  own, out))
    out->computeUs = out->memoryUs = out->launchUs = 0;
}

/* The target's roofline parts for this work. An efficiency the target
 * does not give for the kernel but the reference does (fitted to its
 * tables, latency-eval --fit-roofline) is the reference's: the same kernel
 * class reaches the same share of each device's peaks, so the two rooflines
 * differ by their peaks alone, as they did before any fit. */
static void targetRooflineOf(const struct CmTransferImpl *t,
                             const CmTransferGroup *g, double flops,
                             double bytes, CmEstimate *out) {
  rooflineOf(t->target, g, flops, bytes, out);
  const char *kernel = g->policy->kernel;
  const char *dtype = g->prep.dtype[0] ? g->prep.dtype : NULL;
  static const char *const keys[] = {"compute_efficiency", "memory_efficiency"};
  double *parts[] = {&out->computeUs, &out->memoryUs};
  for (int i = 0; i < 2; i++) {
    double own = cmRooflineKernelNumber(t->target, keys[i], kernel, dtype);
    double ref = cmRooflineKernelNumber(t->reference, keys[i], kernel, dtype);
    double used = cmRooflineDeviceNumber(t->target, keys[i], kernel, dtype, 1);
    if (isnan(own) && ref > 0 && used > 0)
      *parts[i] *= used / ref;
  }
}

/* The target's floor for the kernel: its own launch_us.<kernel>, else the
 * reference's kernel floor scaled by the devices' launch_us ratio. */
static double targetFloor(const struct CmTransferImpl *t, const char *kernel,
                          double refFloor, double targetLaunch) {
  char key[160];
  snprintf(key, sizeof key, "launch_us.%s", kernel);
  double own = cmProfileGetDeviceNumber(t->target, key, NAN);
  if (!isnan(own))
    return own;
  double refKernel = cmProfileGetDeviceNumber(t->reference, key, NAN);
  double refLaunch = cmProfileGetDeviceNumber(t->reference, "launch_us", 0);
  if (isnan(refKernel) || !(refLaunch > 0))
    return targetLaunch;
  return refFloor * targetLaunch / refLaunch;
}

void cmTransferRowScale(const struct CmTransferImpl *t,
                        const CmTransferGroup *g, const double *axes,
                        CmRowScale *out) {
  ShapeValues values = {g->policy, axes, g->regimeNumbers};
  double flops = -1, bytes = -1;
  cmBuiltinWork(g->policy->kernel, shapeValue, &values, g->prep.dtype,
                g->prep.kvDtype, &flops, &bytes);
  bool known = flops >= 0 || bytes >= 0;
  if (!known)
    bytes = 1e9; /* no formula: scale by memory bandwidth alone */
  CmEstimate ref, tgt;
  rooflineOf(t->reference, g, flops, bytes, &ref);
  targetRooflineOf(t, g, flops, bytes, &tgt);
  bool compute = ref.computeUs > 0 && tgt.computeUs > 0;
  bool memory = ref.memoryUs > 0 && tgt.memoryUs > 0;
  double num = (compute ? tgt.computeUs : 0) + (memory ? tgt.memoryUs : 0);
  double den = (compute ? ref.computeUs : 0) + (memory ? ref.memoryUs : 0);
  out->ratio = den > 0 ? num / den : 1;
  out->refRoofUs = known ? den : 0;
  out->refFloor = ref.launchUs;
  out->targetFloor =
      targetFloor(t, g->policy->kernel, ref.launchUs, tgt.launchUs);
  out->bound = known ? ref.bound : CM_BOUND_NONE;
}

double cmTransferApplyScale(const CmRowScale *s, double referenceUs) {
  return s->targetFloor + fmax(0, referenceUs - s->refFloor) * s->ratio;
}
