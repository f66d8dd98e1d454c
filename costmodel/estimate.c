/*===- estimate.c - the estimate facade: exact, 1D, 2D, 3D, roofline ----===*
 *
 * Resolves a query against the profile's policies (which fields are axes,
 * which are regime keys, which table answers a fused kernel), then asks the
 * tiers in their fixed order. Confidence is computed for display and never
 * consulted here.
 *
 *===----------------------------------------------------------------------===*/
#include "answer.h"
#include "efficiency_slopes.h"
#include "interpolate.h"
#include "profile.h"
#include "query.h"
#include "roofline.h"
#include "transfer_impl.h"
#include "work.h"

#include "cm_error.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Numbers of a prepared query: its axes, then its numeric regime values. */
typedef struct {
  const CmPrepared *prep;
  const double *axes;
} PreparedValues;

/* Query fields the roofline reads whatever the policy: a matmul or conv
 * type without a table of its own is answered through a policy (its
 * anchor's, or the built-in one) that need not key on weight_transposed or
 * channels_last, no table keys on scratch_bytes, the epilogue's elements
 * and passes, the accumulator's width (latency/converted_chain.h) or the
 * elements a pad copies (latency/integer_mac.h), and a
 * transpose's walk needs its walk and elements where a profile made before
 * transposes had walks (session 18) does not key on the walk, or has no
 * transpose table (roofline_loop_matmul.c, roofline.c). */
static const char *const kRooflineFields[CM_ROOFLINE_FIELDS] = {
    "weight_transposed", "scratch_bytes", "channels_last", "walk_k",
    "walk_stride",       "walk_writes",   "elements",      "epilogue_elements",
    "epilogue_passes",   "acc_bits",      "pad_elements"};

static double preparedValue(const void *context, const char *name) {
  const PreparedValues *pv = context;
  const CmPolicy *policy = pv->prep->shapePolicy;
  for (int a = 0; policy && pv->axes && a < policy->numAxes; a++)
    if (!strcmp(policy->axes[a], name)) /* a family's may be inf */
      return isfinite(pv->axes[a]) ? pv->axes[a] : NAN;
  for (int r = 0; policy && r < policy->numRegime; r++)
    if (!strcmp(policy->regime[r], name))
      return pv->prep->regimeNumbers[r];
  for (int f = 0; f < CM_ROOFLINE_FIELDS; f++)
    if (!strcmp(name, kRooflineFields[f]))
      return pv->prep->rooflineFields[f];
  return NAN;
}

/* Exact, then interpolation tiers on `g`; true when one answered. */
static bool estimateFromGroup(CmProfile profile, CmGroup *g, const double *q,
                              const double *tq, bool complete,
                              const CmOptions *options, CmEstimate *out) {
  out->counts.raw = g->numRows + g->numDropped;
  out->counts.dropped = g->numDropped;
  out->counts.aggregated = g->numAggregated;
  out->counts.points = g->numPoints;
  if (!complete)
    return false;
  long p = cmGroupFindExact(g, q);
  if (p >= 0) {
    out->latencyUs = g->y[p];
    out->source = CM_SOURCE_MEASURED;
    out->method = CM_METHOD_EXACT;
    out->confidence = 1.0;
    out->errorEstimate = 0;
    out->counts.filtered = 1;
    return true;
  }
  cmEstimateAddReasonText(out, "exact: not measured", "");
  if (!options->interpolation) {
    cmEstimateAddReasonText(out, "interpolation off", "");
    return false;
  }
  for (int a = 0; a < g->dim; a++)
    if (isnan(tq[a])) {
      cmEstimateAddReason(out, "axis '%s' outside its transform's domain",
                          g->policy->axes[a]);
      return false;
    }
  if (cmInterpolate1D(g, q, tq, out))
    return true;
  cmEstimateAddReasonText(out, "1D: no line brackets the query", "");
  double maxSpan =
      cmProfileGetDeviceNumber(profile, "max_simplex_span", INFINITY);
  return cmInterpolateND(g, 2, q, tq, maxSpan, out) ||
         cmInterpolateND(g, 3, q, tq, maxSpan, out);
}

/* Transferred tables (device.csv `transferred_from`, written by
 * latency-transfer): their reference device, the target points behind
 * `kernel`'s table and its calibrated confidence. */
static void transferOf(CmProfile profile, const char *kernel, CmPrepared *out) {
  out->transferredFrom = cmProfileDeviceText(profile.ptr, "transferred_from");
  if (!out->transferredFrom)
    return;
  char key[160];
  snprintf(key, sizeof key, "transfer_confidence.%s", kernel);
  out->transferConfidence = cmProfileGetDeviceNumber(
      profile, key,
      cmProfileGetDeviceNumber(profile, "transfer_confidence",
                               CM_TRANSFER_PRIOR_CONFIDENCE));
  snprintf(key, sizeof key, "transfer_points.%s", kernel);
  out->transferPoints = (int)cmProfileGetDeviceNumber(profile, key, 0);
}

/* A table answer of a transferred profile says so; its confidence includes
 * the transfer's. */
static void markTransferred(const CmPrepared *prep, CmEstimate *out) {
  out->source = CM_SOURCE_TRANSFERRED;
  out->confidence *= prep->transferConfidence;
  out->transferredFrom = prep->transferredFrom;
  out->transferPoints = prep->transferPoints;
}

CmStatus cmProfilePrepare(CmProfile profile, const CmQuery *query,
                          CmPrepared *out, CmError *err) {
  struct CmProfileImpl *p = profile.ptr;
  memset(out, 0, sizeof *out);
  out->profile = profile;
  out->kernel = query->kernel;
  if (!query->kernel || !*query->kernel)
    return cmErrorSet(err, CM_ERR_QUERY, "the query names no kernel");
  for (int f = 0; f < CM_ROOFLINE_FIELDS; f++) {
    double number;
    out->rooflineFields[f] =
        cmParseNumber(cmQueryFindField(query, kRooflineFields[f]), &number)
            ? number
            : NAN;
  }
  const CmPolicy *policy =
      cmPolicySetResolve(&p->policies, query->kernel, &out->viaAnchor);
  /* A type without a table of its own (a plain conv2d where the profile
   * measured conv2d+batchnorm+relu) has its family's fields, for the
   * roofline's efficiency slopes (efficiencySource). */
  const CmPolicy *shape =
      policy ? policy : cmPolicySetFindFamily(&p->policies, query->kernel);
  const char *dtype = cmQueryDtype(query, shape);
  if (dtype)
    cmCanonicalRegimeValue("dtype", dtype, out->dtype, sizeof out->dtype);
  out->policy = policy;
  out->shapePolicy = shape;
  if (shape) {
    out->numAxes = shape->numAxes;
    for (int a = 0; a < shape->numAxes; a++)
      out->axisNames[a] = shape->axes[a];
    for (int r = 0; r < shape->numRegime; r++) {
      const char *text = cmQueryFindField(query, shape->regime[r]);
      double v;
      out->regimeNumbers[r] = cmParseNumber(text, &v) ? v : NAN;
      if (text && !strcmp(shape->regime[r], "kv_dtype"))
        cmCanonicalRegimeValue("dtype", text, out->kvDtype,
                               sizeof out->kvDtype);
    }
  }
  if (!policy) {
    snprintf(out->reason, sizeof out->reason, "no table for kernel '%.100s'",
             query->kernel);
    return CM_OK;
  }
  transferOf(profile, policy->kernel, out);
  char key[CM_REGIME_KEY_SIZE];
  CmEstimate missing; /* only its reason is used */
  missing.reason[0] = '\0';
  if (!cmQueryRegimeKey(query, policy, key, &missing)) {
    snprintf(out->reason, sizeof out->reason, "%.180s", missing.reason);
    return CM_OK;
  }
  CmGroup *g = cmGroupSetFind(&p->groups, policy->kernel, key, policy, false);
  if (g && !cmGroupSeal(g))
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  out->group = g;
  if (!g)
    snprintf(out->reason, sizeof out->reason,
             "no measurements for this regime");
  return CM_OK;
}

/* The kernel whose efficiencies (and their slopes) the roofline uses: the
 * table's kernel (`kernel`, or NULL) when device.csv has an efficiency for
 * it, else the query's family (<anchor>+*, written into `family`) when
 * device.csv has one, fitted over the anchor's measured types (a host
 * profile: a plain conv2d, or a VGG's conv2d+relu, where the bundled models
 * measured conv2d+batchnorm+relu; a transposed-weight matmul type whose
 * shapes no efficiency was fitted on), else `kernel`, whose absent keys
 * fall back to the device-wide ones. The family's slopes are read through
 * its fields (shapePolicy). */
static const char *efficiencySource(const CmPrepared *prep, const char *kernel,
                                    const char *dtype, char *family) {
  static const char *const kKeys[2] = {"compute_efficiency",
                                       "memory_efficiency"};
  for (int i = 0; kernel && i < 2; i++)
    if (!isnan(cmRooflineKernelNumber(prep->profile, kKeys[i], kernel, dtype)))
      return kernel;
  if (!prep->kernel ||
      !cmKernelFamily(prep->kernel, family, CM_KERNEL_FAMILY_SIZE))
    return kernel;
  for (int i = 0; i < 2; i++)
    if (!isnan(cmRooflineKernelNumber(prep->profile, kKeys[i], family, dtype)))
      return family;
  return kernel;
}

/* The tiers for a prepared query. `workDone`: the caller already ran the
 * built-in work formulas on the query's own fields (cmProfileEstimate), a
 * superset of the prepared values, so running them again could add
 * nothing. */
static CmStatus estimatePrepared(const CmPrepared *prep, const double *axes,
                                 double flops, double bytes, bool workDone,
                                 const CmOptions *options, CmEstimate *out,
                                 CmError *err) {
  cmAnswerReset(out, prep->kernel ? prep->kernel : "");
  if (prep->reason[0])
    cmEstimateAddReasonText(out, prep->reason, "");
  const CmPolicy *policy = prep->policy;
  PreparedValues values = {prep, axes}; /* shapes for the roofline */
  if (policy) {
    double q[CM_MAX_AXES], tq[CM_MAX_AXES];
    bool complete = true;
    out->tableKernel = policy->kernel;
    out->viaAnchor = prep->viaAnchor;
    out->numAxes = policy->numAxes;
    for (int a = 0; a < policy->numAxes; a++) {
      out->axisNames[a] = policy->axes[a];
      q[a] = out->axisValues[a] = axes ? axes[a] : NAN;
      if (isinf(q[a]))
        return cmErrorSet(err, CM_ERR_QUERY, "axis '%s' is not finite",
                          policy->axes[a]);
      if (isnan(q[a])) {
        complete = false;
        cmEstimateAddReason(out, "axis '%s' not given", policy->axes[a]);
      }
      tq[a] = cmTransformApply(policy->transforms[a], q[a]);
    }
    if (prep->group && estimateFromGroup(prep->profile, prep->group, q, tq,
                                         complete, options, out)) {
      if (prep->transferredFrom)
        markTransferred(prep, out);
      return CM_OK;
    }
  }
  if (!workDone && prep->shapePolicy)
    cmBuiltinWork(policy ? policy->kernel : prep->kernel, preparedValue,
                  &values, prep->dtype, prep->kvDtype, &flops, &bytes);
  /* without a policy of its own or its family's there are no shapes, only
     the roofline fields (a kernel's scratch) */
  const char *kernel = policy ? policy->kernel : NULL;
  const char *dtype = prep->dtype[0] ? prep->dtype : NULL;
  char family[CM_KERNEL_FAMILY_SIZE];
  CmEfficiencySource efficiency = {
      efficiencySource(prep, kernel, dtype, family), 1};
  if (efficiency.kernel == family)
    cmEstimateAddReason(out,
                        "roofline: no efficiency of its own, its family's "
                        "(device.csv %s)",
                        family);
  efficiency.scale =
      cmEfficiencyScale(prep->profile, efficiency.kernel, prep->shapePolicy,
                        preparedValue, &values);
  cmRoofline(prep->profile, kernel, dtype, flops, bytes, preparedValue, &values,
             efficiency, out);
  return CM_OK;
}

CmStatus cmPreparedEstimate(const CmPrepared *prep, const double *axes,
                            double flops, double bytes,
                            const CmOptions *options, CmEstimate *out,
                            CmError *err) {
  const CmOptions defaults = cmOptionsDefault();
  return estimatePrepared(prep, axes, flops, bytes, false,
                          options ? options : &defaults, out, err);
}

/* A conv2d kernel (groups = 1) of a profile without a conv table, looked
 * up as its implicit GEMM: M = batch x output hw, N = cout, K = cin x
 * window (kh x kw), through the same exact -> 1D -> 2D -> 3D path of the
 * matmul tables. True, with `out` filled and `mapping` set, when the
 * tables answered (measured, interpolated or transferred); false leaves the
 * conv to its own roofline, with the reason (depthwise and grouped convs
 * too: issue 13 asks the details to say why they are not mapped). device.csv
 * `implicit_gemm,0` turns it off. */
static bool estimateImplicitGemm(CmProfile profile, const CmQuery *query,
                                 const CmOptions *options, CmEstimate *out) {
  bool depthwise = cmKernelIs(query->kernel, "depthwise_conv2d");
  if (!(depthwise || cmKernelIs(query->kernel, "conv2d")) ||
      cmProfileGetDeviceNumber(profile, "implicit_gemm", 1) == 0)
    return false;
  const char *groups = cmQueryFindField(query, "groups");
  double g;
  if (depthwise || (groups && (!cmParseNumber(groups, &g) || g != 1))) {
    cmEstimateAddReason(out,
                        "%s conv: no implicit GEMM (it is one thin GEMM per "
                        "group, which a GEMM table does not time)",
                        depthwise ? "depthwise" : "grouped");
    return false;
  }
  static const char *const names[] = {"batch", "hw", "cin", "cout", "window"};
  double v[5];
  for (int i = 0; i < 5; i++)
    if (!cmParseNumber(cmQueryFindField(query, names[i]), &v[i]) || !(v[i] > 0))
      return false;
  char text[3][32];
  snprintf(text[0], sizeof text[0], "%.17g", v[0] * v[1]);
  snprintf(text[1], sizeof text[1], "%.17g", v[3]);
  snprintf(text[2], sizeof text[2], "%.17g", v[2] * v[4]);
  CmField fields[4] = {{"m", text[0]},
                       {"n", text[1]},
                       {"k", text[2]},
                       {"dtype", cmQueryFindField(query, "dtype")}};
  CmQuery gemm = {"matmul", fields, fields[3].value ? 4u : 3u, query->flops,
                  query->bytes};
  CmEstimate mapped;
  if (cmProfileEstimate(profile, &gemm, options, &mapped, NULL) != CM_OK ||
      (mapped.source != CM_SOURCE_MEASURED &&
       mapped.source != CM_SOURCE_INTERPOLATED &&
       mapped.source != CM_SOURCE_TRANSFERRED)) {
    cmEstimateAddReason(out, "implicit GEMM m=%s n=%s k=%s: not in the tables",
                        text[0], text[1], text[2]);
    return false;
  }
  *out = mapped;
  out->kernel = query->kernel;
  out->mapping = "implicit-gemm";
  return true;
}

CmStatus cmProfileEstimate(CmProfile profile, const CmQuery *query,
                           const CmOptions *options, CmEstimate *out,
                           CmError *err) {
  const CmOptions defaults = cmOptionsDefault();
  if (!options)
    options = &defaults;
  CmPrepared prep;
  CmStatus status = cmProfilePrepare(profile, query, &prep, err);
  if (status != CM_OK) { /* estimatePrepared resets on the normal path */
    cmAnswerReset(out, query->kernel ? query->kernel : "");
    return status;
  }
  double axes[CM_MAX_AXES];
  for (int a = 0; a < prep.numAxes; a++) {
    const char *text = cmQueryFindField(query, prep.axisNames[a]);
    bool number = text && cmParseNumber(text, &axes[a]) && isfinite(axes[a]);
    if (!number)
      axes[a] = NAN; /* a family's fields only shape the roofline */
    if (text && !number && prep.policy) {
      cmAnswerReset(out, query->kernel);
      return cmErrorSet(err, CM_ERR_QUERY,
                        "axis '%s': '%.40s' is not a finite number",
                        prep.axisNames[a], text);
    }
  }
  /* A kernel without a table may still have a work formula by its fields. */
  double flops = query->flops, bytes = query->bytes;
  cmBuiltinWork(query->kernel, cmQueryFieldValue, query, prep.dtype,
                cmQueryFindField(query, "kv_dtype"), &flops, &bytes);
  if (!prep.policy) {
    CmEstimate conv;
    conv.reason[0] = '\0';
    if (estimateImplicitGemm(profile, query, options, &conv)) {
      *out = conv;
      return CM_OK;
    }
    status =
        estimatePrepared(&prep, axes, flops, bytes, true, options, out, err);
    if (conv.reason[0])
      cmEstimateAddReasonText(out, conv.reason, "");
    return status;
  }
  return estimatePrepared(&prep, axes, flops, bytes, true, options, out, err);
}
