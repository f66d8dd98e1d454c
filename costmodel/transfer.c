/*===- transfer.c - a new device from a known one: the public entry points -===*
 *
 * cmTransferCreate loads the reference with its tables and the target's
 * device.csv as a profile without tables (through a scratch directory that
 * is removed before it returns), and makes one group per reference group.
 * Target points join groups as they are read; cmTransferFit fits each
 * group's correction once. The rest answers from those: transfer_value.c.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include "cm_error.h"
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxFitPoints = 1000 }; /* a group's fit uses at most this many */

/* Fills a new group's regime values and prepares its reference query. */
static bool groupInit(struct CmTransferImpl *t, CmTransferGroup *g,
                      const CmPolicy *policy, const char *regimeKey) {
  memset(g, 0, sizeof *g);
  g->policy = policy;
  if (!(g->regimeKey = cmStrDup(regimeKey)))
    return false;
  CmField fields[CM_MAX_REGIME];
  const char *s = regimeKey;
  for (int r = 0; r < policy->numRegime; r++) {
    size_t n = strcspn(s, "\x1f");
    snprintf(g->regime[r], sizeof g->regime[r], "%.*s", (int)n, s);
    s += n + (s[n] != '\0');
    g->regimeNumbers[r] = NAN;
    cmParseNumber(g->regime[r], &g->regimeNumbers[r]);
    fields[r] = (CmField){policy->regime[r], g->regime[r]};
  }
  CmQuery query = {policy->kernel, fields, (size_t)policy->numRegime, -1, -1};
  if (cmProfilePrepare(t->reference, &query, &g->prep, NULL) != CM_OK)
    return false;
  g->ref = g->prep.group;
  return true;
}

int cmTransferGroupIndex(struct CmTransferImpl *t, const CmPolicy *policy,
                         const char *regimeKey) {
  for (size_t i = t->numGroups; i-- > 0;) /* recent groups first */
    if (t->groups[i].policy == policy &&
        !strcmp(t->groups[i].regimeKey, regimeKey))
      return (int)i;
  if (t->numGroups == t->capacity) {
    size_t capacity = t->capacity ? 2 * t->capacity : 64;
    CmTransferGroup *groups = realloc(t->groups, capacity * sizeof *groups);
    if (!groups)
      return -1;
    t->groups = groups;
    t->capacity = capacity;
  }
  CmTransferGroup *g = &t->groups[t->numGroups];
  if (!groupInit(t, g, policy, regimeKey)) {
    free(g->regimeKey);
    return -1;
  }
  return (int)t->numGroups++;
}

/* Loads the target's device.csv as a profile without tables: a scratch
 * directory holds it with the reference's fusion.csv and policy.csv. */
static CmStatus loadTarget(const char *referenceDir, const char *deviceCsv,
                           CmProfile *out, CmError *err) {
  const char *tmp = getenv("TMPDIR");
  char dir[4096], path[3][4200], from[2][4200];
  snprintf(dir, sizeof dir, "%s/latency-transfer-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir))
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot create a scratch directory",
                      dir);
  static const char *const files[3] = {"device.csv", "fusion.csv",
                                       "policy.csv"};
  CmStatus status = CM_OK;
  for (int i = 0; i < 3 && status == CM_OK; i++)
    status = cmPathJoin(path[i], sizeof path[i], dir, files[i], err);
  for (int i = 0; i < 2 && status == CM_OK; i++)
    status =
        cmPathJoin(from[i], sizeof from[i], referenceDir, files[i + 1], err);
  if (status == CM_OK)
    status = cmCopyFile(deviceCsv, path[0], err);
  if (status == CM_OK)
    status = cmCopyFile(from[0], path[1], err);
  if (status == CM_OK && access(from[1], R_OK) == 0)
    status = cmCopyFile(from[1], path[2], err);
  if (status == CM_OK &&
      (status = cmProfileCreateFromDirWithoutTables(dir, out, err)) != CM_OK &&
      err && !strncmp(err->message, path[0], strlen(path[0]))) {
    char message[sizeof err->message];
    snprintf(message, sizeof message, "%s%s", deviceCsv,
             err->message + strlen(path[0])); /* name the user's file */
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  for (int i = 0; i < 3; i++)
    remove(path[i]);
  rmdir(dir);
  return status;
}

CmStatus cmTransferCreate(const char *referenceDir, const char *deviceCsv,
                          CmTransfer *out, CmError *err) {
  out->ptr = NULL;
  struct CmTransferImpl *t = calloc(1, sizeof *t);
  if (!t)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  CmStatus status = cmProfileCreateFromDir(referenceDir, &t->reference, err);
  if (status == CM_OK)
    status = loadTarget(referenceDir, deviceCsv, &t->target, err);
  const CmGroupSet *refGroups =
      status == CM_OK ? &t->reference.ptr->groups : NULL;
  for (size_t i = 0; refGroups && i < refGroups->count && status == CM_OK;
       i++) {
    const CmGroup *g = refGroups->items[i];
    if (cmTransferGroupIndex(t, g->policy, g->regimeKey) < 0)
      status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  if (status != CM_OK) {
    cmTransferDestroy((CmTransfer){t});
    return status;
  }
  out->ptr = t;
  return CM_OK;
}

void cmTransferDestroy(CmTransfer transfer) {
  struct CmTransferImpl *t = transfer.ptr;
  if (!t)
    return;
  for (size_t i = 0; i < t->numGroups; i++) {
    CmTransferGroup *g = &t->groups[i];
    for (int k = 0; k < CM_TRANSFER_SMOOTHERS; k++)
      cmSmootherDestroy(g->smoothers[k]);
    cmCorrectionFree(&g->correction);
    free(g->regimeKey);
  }
  free(t->groups);
  cmShapeListFree(&t->points);
  cmProfileDestroy(t->reference);
  cmProfileDestroy(t->target);
  free(t);
}

CmStatus cmTransferAddPoints(CmTransfer transfer, const char *path,
                             CmError *err) {
  struct CmTransferImpl *t = transfer.ptr;
  if (t->fitted)
    return cmErrorSet(err, CM_ERR_QUERY,
                      "%s: target points must be read before the fit", path);
  CmStatus status = cmShapesRead(t, path, true, &t->points, err);
  cmShapesMerge(&t->points);
  for (size_t i = 0; i < t->numGroups; i++)
    t->groups[i].numPoints = 0;
  for (size_t i = 0; i < t->points.count; i++)
    t->groups[t->points.items[i].group].numPoints++;
  return status;
}

void cmTransferSetDefaultKernel(CmTransfer transfer, const char *kernel) {
  transfer.ptr->defaultKernel = kernel;
}

size_t cmTransferGetNumPoints(CmTransfer transfer) {
  return transfer.ptr->points.count;
}

/* Fits group `gi` from its points (contiguous from `first`), at most
 * kMaxFitPoints of them, evenly strided. */
static bool fitGroup(struct CmTransferImpl *t, size_t gi, size_t first) {
  CmTransferGroup *g = &t->groups[gi];
  int dim = g->policy->numAxes;
  size_t stride = (g->numPoints + kMaxFitPoints - 1) / kMaxFitPoints;
  size_t n = (g->numPoints + stride - 1) / stride;
  double *features = malloc(n * dim * sizeof *features);
  double *residuals = malloc(CM_TRANSFER_BASELINES * n * sizeof *residuals);
  bool ok = features && residuals;
  for (size_t i = 0; ok && i < n; i++) {
    const CmShape *p = &t->points.items[first + i * stride];
    double refUs = cmTransferReferenceAt(g, p->axes);
    CmRowScale s;
    cmTransferRowScale(t, g, p->axes, &s);
    cmTransferFeatures(dim, p->axes, features + i * dim);
    for (int b = 0; b < CM_TRANSFER_BASELINES; b++) {
      double base = cmTransferBaseline(t, g, b, p->axes, refUs, &s);
      residuals[b * n + i] = base > 0 ? log(p->latencyUs / base) : NAN;
    }
  }
  ok = ok && cmCorrectionFit(&g->correction, dim, n, features, residuals);
  free(features);
  free(residuals);
  return ok;
}

CmStatus cmTransferFit(CmTransfer transfer, CmError *err) {
  struct CmTransferImpl *t = transfer.ptr;
  if (t->fitted)
    return CM_OK;
  for (size_t first = 0; first < t->points.count;) {
    size_t gi = (size_t)t->points.items[first].group;
    if (!fitGroup(t, gi, first))
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    first += t->groups[gi].numPoints;
  }
  t->fitted = true;
  return CM_OK;
}

/* The group and axes of `query`; CM_ERR_QUERY when malformed. */
static CmStatus resolveQuery(struct CmTransferImpl *t, const CmQuery *query,
                             int *group, double *axes, CmError *err) {
  const CmPolicy *policy = cmPolicySetFind(&t->reference.ptr->policies,
                                           query->kernel ? query->kernel : "");
  if (!policy)
    return cmErrorSet(err, CM_ERR_QUERY, "kernel '%.60s' has no policy",
                      query->kernel ? query->kernel : "");
  char key[512] = "";
  size_t used = 0;
  for (int r = 0; r < policy->numRegime; r++) {
    const char *text = cmQueryFindField(query, policy->regime[r]);
    char value[128];
    if (!text)
      return cmErrorSet(err, CM_ERR_QUERY, "regime key '%s' not given",
                        policy->regime[r]);
    cmCanonicalRegimeValue(policy->regime[r], text, value, sizeof value);
    used += (size_t)snprintf(key + used, sizeof key - used, "%s%s",
                             r ? "\x1f" : "", value);
  }
  for (int a = 0; a < policy->numAxes; a++) {
    const char *text = cmQueryFindField(query, policy->axes[a]);
    if (!cmParseNumber(text, &axes[a]) || !isfinite(axes[a]))
      return cmErrorSet(err, CM_ERR_QUERY,
                        "axis '%s': '%.40s' is not a finite number",
                        policy->axes[a], text ? text : "");
  }
  if (used >= sizeof key || (*group = cmTransferGroupIndex(t, policy, key)) < 0)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  return CM_OK;
}

CmStatus cmTransferPredict(CmTransfer transfer, const CmQuery *query,
                           CmTransferAnswer *out, CmError *err) {
  struct CmTransferImpl *t = transfer.ptr;
  double axes[CM_MAX_AXES] = {0};
  int group = -1;
  CmStatus status = cmTransferFit(transfer, err);
  if (status == CM_OK)
    status = resolveQuery(t, query, &group, axes, err);
  if (status != CM_OK)
    return status;
  CmTransferGroup *g = &t->groups[group];
  CmRowScale s;
  cmTransferRowScale(t, g, axes, &s);
  out->referenceUs = cmTransferReferenceAt(g, axes);
  out->scaledUs = cmTransferApplyScale(&s, out->referenceUs);
  out->latencyUs = cmTransferValueAt(t, group, axes, out->referenceUs);
  out->bound = s.bound;
  out->confidence = cmTransferGroupConfidence(g);
  out->points = (int)g->numPoints;
  return CM_OK;
}
