/*===- policy.h - which columns of a kernel's table are axes and regimes ---===*
 *
 * A policy names, per kernel type, its axes (numbers interpolated over, in a
 * fixed order), its regime keys (must match exactly) and optional per-axis
 * transforms. Every other column of a table is metadata. Built-in default:
 * matmul has axes m n k and regime key dtype; policy.csv adds or replaces.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_POLICY_H
#define LATENCY_POLICY_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

typedef enum {
  CM_TRANSFORM_NONE,  /* raw axis values   */
  CM_TRANSFORM_LOG,   /* natural logarithm */
  CM_TRANSFORM_SQRT,  /* square root       */
  CM_TRANSFORM_SQUARE /* its square: attention's sequence, whose work grows
                         with it squared (latency-profile writes it) */
} CmTransform;

typedef struct {
  char *kernel;                        /* kernel type, e.g. "matmul"      */
  int numAxes;                         /* entries in axes (1..MAX_AXES)   */
  char *axes[CM_MAX_AXES];             /* axis column names, in order     */
  CmTransform transforms[CM_MAX_AXES]; /* per axis                        */
  int numRegime;                       /* entries in regime               */
  char *regime[CM_MAX_REGIME];         /* regime key column names         */
} CmPolicy;

typedef struct {
  CmPolicy *items; /* owned */
  size_t count;    /* entries in items */
} CmPolicySet;

/// Fills `set` with the built-in default policies.
CmStatus cmPolicySetInitDefaults(CmPolicySet *set, CmError *err);

/// Reads policy.csv at `path` (absent file: no change) into `set`; a row for
/// a kernel that already has a policy replaces it.
CmStatus cmPolicySetLoad(CmPolicySet *set, const char *path, const char *name,
                         CmError *err);

/// Releases everything `set` owns.
void cmPolicySetFree(CmPolicySet *set);

/// Returns the policy of `kernel` (borrowed), or NULL.
const CmPolicy *cmPolicySetFind(const CmPolicySet *set, const char *kernel);

/// Returns the policy whose table answers `kernel`: its own, else that of
/// its first '+'-component, the root (a fused kernel's anchor, setting
/// `*viaAnchor`); NULL when neither has one.
const CmPolicy *cmPolicySetResolve(const CmPolicySet *set, const char *kernel,
                                   bool *viaAnchor);

/// Returns the first policy (built-in, then policy.csv order) of a kernel
/// with the anchor of `kernel` (conv2d+batchnorm+relu for conv2d), or NULL:
/// the fields a kernel without a table of its own has, since every type of
/// an anchor is described by the same fields (passes/describe.c).
const CmPolicy *cmPolicySetFindFamily(const CmPolicySet *set,
                                      const char *kernel);

/// Applies `transform` to `x`; values outside the transform's domain
/// (log of <= 0, sqrt of < 0) give NaN.
double cmTransformApply(CmTransform transform, double x);

/// Returns the index of axis `name` in `policy`, or -1.
int cmPolicyFindAxis(const CmPolicy *policy, const char *name);

/// Returns the index of regime key `name` in `policy`, or -1.
int cmPolicyFindRegime(const CmPolicy *policy, const char *name);

#endif /* LATENCY_POLICY_H */
