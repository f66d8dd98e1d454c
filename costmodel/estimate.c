/*===- estimate.c - the estimate facade: exact -> 1D -> 2D -> 3D -> roofline ===*
 *
 * Resolves a query against the profile's policies (which fields are axes,
 * which are regime keys, which table answers a fused kernel), then asks the
 * tiers in their fixed order. Confidence is computed for display and never
 * consulted here.
 *
 *===----------------------------------------------------------------------===*/
#include "interpolate.h"
#include "profile.h"
#include "roofline.h"

#include "cm_error.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { kRegimeKeySize = 512 };

void cmEstimateAddReason(CmEstimate *out, const char *format, ...) {
  size_t used = strlen(out->reason);
  if (used + 3 >= sizeof out->reason)
    return;
  if (used) {
    memcpy(out->reason + used, "; ", 3);
    used += 2;
  }
  va_list args;
  va_start(args, format);
  vsnprintf(out->reason + used, sizeof out->reason - used, format, args);
  va_end(args);
}

void cmCornersFromLine(const CmGroup *g, const double *q, const CmLine *line,
                       CmEstimate *out) {
  double f = (q[line->axis] - line->lo) / (line->hi - line->lo);
  const double ends[2] = {line->lo, line->hi};
  out->numCorners = 2;
  for (int i = 0; i < 2; i++) {
    CmCorner *c = &out->corners[i];
    memcpy(c->axes, q, g->dim * sizeof *q);
    c->axes[line->axis] = ends[i];
    long p = cmGroupFindExact(g, c->axes);
    c->latencyUs = p >= 0 ? g->y[p] : NAN;
    c->weight = i ? f : 1 - f;
  }
}

static const char *findField(const CmQuery *q, const char *name) {
  for (size_t i = 0; i < q->numFields; i++)
    if (q->fields[i].name && !strcmp(q->fields[i].name, name))
      return q->fields[i].value;
  return NULL;
}

/* The policy whose table answers `kernel`: its own, else the first '+'
 * component that has one (the fused kernel's anchor). */
static const CmPolicy *resolvePolicy(const struct CmProfileImpl *p,
                                     const char *kernel, bool *viaAnchor) {
  *viaAnchor = false;
  const CmPolicy *policy = cmPolicySetFind(&p->policies, kernel);
  if (policy || !strchr(kernel, '+'))
    return policy;
  char part[128];
  for (const char *s = kernel; *s;) {
    size_t n = strcspn(s, "+");
    if (n < sizeof part) {
      memcpy(part, s, n);
      part[n] = '\0';
      if ((policy = cmPolicySetFind(&p->policies, part))) {
        *viaAnchor = true;
        return policy;
      }
    }
    s += n + (s[n] == '+');
  }
  return NULL;
}

/* The element type of the query: its "dtype" field, else the first regime
 * key ending in "dtype". */
static const char *queryDtype(const CmQuery *q, const CmPolicy *policy) {
  const char *dtype = findField(q, "dtype");
  for (int i = 0; !dtype && policy && i < policy->numRegime; i++) {
    size_t n = strlen(policy->regime[i]);
    if (n >= 5 && !strcmp(policy->regime[i] + n - 5, "dtype"))
      dtype = findField(q, policy->regime[i]);
  }
  return dtype;
}

/* Built-in work formulas where the query gives none: matmul-like kernels
 * (axes m, n, k and optional batch): 2mnk flops, (mk + kn + mn) elements. */
static void deriveWork(const CmQuery *q, const char *dtype, double *flops,
                       double *bytes) {
  *flops = q->flops;
  *bytes = q->bytes;
  double m, n, k, batch = 1;
  const char *bt = findField(q, "batch");
  if (!cmParseNumber(findField(q, "m"), &m) ||
      !cmParseNumber(findField(q, "n"), &n) ||
      !cmParseNumber(findField(q, "k"), &k) ||
      (bt && !cmParseNumber(bt, &batch)))
    return;
  if (*flops < 0)
    *flops = 2 * m * n * k * batch;
  double size = cmDtypeGetSize(dtype ? dtype : "");
  if (*bytes < 0 && size > 0)
    *bytes = (m * k + k * n + m * n) * batch * size;
}

/* Reads the policy's axes from the query into q (raw) and tq (transformed);
 * CM_ERR_QUERY for a non-numeric axis; *complete = every axis present. */
static CmStatus readAxes(const CmQuery *query, const CmPolicy *policy,
                         double *q, double *tq, bool *complete,
                         CmEstimate *out, CmError *err) {
  *complete = true;
  out->numAxes = policy->numAxes;
  for (int a = 0; a < policy->numAxes; a++) {
    out->axisNames[a] = policy->axes[a];
    const char *text = findField(query, policy->axes[a]);
    if (!text) {
      *complete = false;
      q[a] = tq[a] = out->axisValues[a] = NAN;
      cmEstimateAddReason(out, "axis '%s' not given", policy->axes[a]);
      continue;
    }
    if (!cmParseNumber(text, &q[a]) || !isfinite(q[a]))
      return cmErrorSet(err, CM_ERR_QUERY,
                        "axis '%s': '%.40s' is not a finite number",
                        policy->axes[a], text);
    out->axisValues[a] = q[a];
    tq[a] = cmTransformApply(policy->transforms[a], q[a]);
  }
  return CM_OK;
}

/* Builds the regime key of the query; false (with the reason) when a regime
 * key is missing. */
static bool queryRegimeKey(const CmQuery *query, const CmPolicy *policy,
                           char *key, CmEstimate *out) {
  size_t used = 0;
  key[0] = '\0';
  for (int i = 0; i < policy->numRegime; i++) {
    const char *text = findField(query, policy->regime[i]);
    if (!text) {
      cmEstimateAddReason(out, "regime key '%s' not given", policy->regime[i]);
      return false;
    }
    char value[128];
    cmCanonicalRegimeValue(policy->regime[i], text, value, sizeof value);
    used += (size_t)snprintf(key + used, kRegimeKeySize - used, "%s%s",
                             i ? "\x1f" : "", value);
    if (used >= kRegimeKeySize)
      return false;
  }
  return true;
}

/* Exact, then interpolation tiers on `g`; true when one answered. */
static bool estimateFromGroup(CmGroup *g, const double *q, const double *tq,
                              bool complete, const CmOptions *options,
                              CmEstimate *out) {
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
  cmEstimateAddReason(out, "exact: not measured");
  if (!options->interpolation) {
    cmEstimateAddReason(out, "interpolation off");
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
  cmEstimateAddReason(out, "1D: no line brackets the query");
  return cmInterpolateND(g, 2, q, tq, out) || cmInterpolateND(g, 3, q, tq, out);
}

static void resetEstimate(CmEstimate *out, const char *kernel) {
  memset(out, 0, sizeof *out);
  out->kernel = kernel;
  out->source = CM_SOURCE_UNKNOWN;
  out->errorEstimate = -1;
  out->flops = out->bytes = -1;
}

CmStatus cmProfileEstimate(CmProfile profile, const CmQuery *query,
                           const CmOptions *options, CmEstimate *out,
                           CmError *err) {
  struct CmProfileImpl *p = profile.ptr;
  const CmOptions defaults = cmOptionsDefault();
  if (!options)
    options = &defaults;
  resetEstimate(out, query->kernel ? query->kernel : "");
  if (!query->kernel || !*query->kernel)
    return cmErrorSet(err, CM_ERR_QUERY, "the query names no kernel");

  bool viaAnchor;
  const CmPolicy *policy = resolvePolicy(p, query->kernel, &viaAnchor);
  double q[CM_MAX_AXES], tq[CM_MAX_AXES];
  char key[kRegimeKeySize];
  if (!policy) {
    cmEstimateAddReason(out, "no table for kernel '%s'", query->kernel);
  } else {
    out->tableKernel = policy->kernel;
    out->viaAnchor = viaAnchor;
    bool complete;
    CmStatus status = readAxes(query, policy, q, tq, &complete, out, err);
    if (status != CM_OK)
      return status;
    CmGroup *g = NULL;
    if (queryRegimeKey(query, policy, key, out)) {
      g = cmGroupSetFind(&p->groups, policy->kernel, key, policy, false);
      if (!g)
        cmEstimateAddReason(out, "no measurements for this regime");
    }
    if (g && !cmGroupSeal(g))
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    if (g && estimateFromGroup(g, q, tq, complete, options, out))
      return CM_OK;
  }
  const char *dtype = queryDtype(query, policy);
  char canonical[64];
  if (dtype) {
    cmCanonicalRegimeValue("dtype", dtype, canonical, sizeof canonical);
    dtype = canonical;
  }
  double flops, bytes;
  deriveWork(query, dtype, &flops, &bytes);
  cmRoofline(profile, dtype, flops, bytes, out);
  return CM_OK;
}
