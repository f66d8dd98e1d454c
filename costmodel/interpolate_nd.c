/*===- interpolate_nd.c - the 2D and 3D tiers: Delaunay + barycentric ------===*
 *
 * For each subset of `dim` axes, in ascending order of their bit masks
 * ((m,n), (m,k), (n,k) for matmul), the candidates agreeing with the query on
 * the other axes are triangulated (once, cached) and the query located in a
 * simplex; the answer is the barycentric combination of its corners. The
 * first subset whose hull contains the query answers; outside every hull,
 * the tier fails with each subset's reason. Never extrapolates.
 *
 * A sparse table (a host profile: a few models' shapes and the lines the
 * sweep drew through them) can enclose a query in a simplex whose corners
 * are hundreds of times apart on an axis; the latency is far from linear
 * over such a span (matmul through `loops`: 0.5 to 4.7 ns a multiply-add
 * as n grows from 128 to 4096), and the calibrated roofline answers better
 * (docs/accuracy.md). `max_simplex_span` bounds the span; dense tables
 * (the GPU profiles) do not set it.
 *
 *===----------------------------------------------------------------------===*/
#include "interpolate.h"

#include "subspace_index.h"

#include <math.h>
#include <string.h>

static int axesOfMask(unsigned mask, int dim, int *axes) {
  int n = 0;
  for (int a = 0; a < dim; a++)
    if (mask & (1u << a))
      axes[n++] = a;
  return n;
}

static int popcount(unsigned mask) {
  int n = 0;
  for (; mask; mask &= mask - 1)
    n++;
  return n;
}

/* Fills the answer from simplex corners `vertices` with `weights`. */
static void answerFromSimplex(const CmGroup *g, int dim, const int *axes,
                              const CmSubspaceSet *set,
                              const uint32_t *vertices, const double *weights,
                              CmEstimate *out) {
  double value = 0;
  out->numCorners = dim + 1;
  for (int k = 0; k < dim; k++)
    out->interpAxes[k] = axes[k];
  for (int i = 0; i <= dim; i++) {
    uint32_t p = cmSubspaceSetGetPoint(set, vertices[i]);
    CmCorner *c = &out->corners[i];
    memcpy(c->axes, g->x + (size_t)p * g->dim, g->dim * sizeof *c->axes);
    c->latencyUs = g->y[p];
    c->weight = weights[i];
    value += weights[i] * g->y[p];
    for (int k = 0; k < dim; k++) {
      double v = c->axes[axes[k]];
      if (i == 0 || v < out->lo[k])
        out->lo[k] = v;
      if (i == 0 || v > out->hi[k])
        out->hi[k] = v;
    }
  }
  out->latencyUs = value;
  out->source = CM_SOURCE_INTERPOLATED;
  out->method = dim == 2 ? CM_METHOD_DELAUNAY_2D : CM_METHOD_DELAUNAY_3D;
  out->dim = dim;
  out->counts.filtered = cmSubspaceSetGetSize(set);
  /* The confidence needs an expected error. A simplex has no check points
   * of its own (the 1D rule's), so the error is taken to grow with how far
   * apart its corners are: e = sqrt(kFloor^2 + (kScale * spread)^2), spread
   * the weighted mean |ln(corner / answer)|. kFloor and kScale were fitted
   * on one hold-out (attention, off-grid in seq and heads, seed 0) and
   * checked on six others (docs/accuracy.md): the answers it rates higher
   * land within 10% more often, where the old constant said nothing. */
  const double kFloor = 0.05, kScale = 0.2;
  double spread = 0;
  for (int i = 0; i <= dim && value > 0; i++)
    spread += weights[i] * cmLogDistance(out->corners[i].latencyUs, value);
  out->errorEstimate =
      sqrt(kFloor * kFloor + kScale * kScale * spread * spread);
  out->confidence = cmConfidenceFromError(out->errorEstimate);
}

/* The largest ratio between the simplex's corners on one of its axes, and
 * that axis. */
static double simplexSpan(const CmGroup *g, int dim, const int *axes,
                          const CmSubspaceSet *set, const uint32_t *vertices,
                          int *widest) {
  double span = 1;
  for (int k = 0; k < dim; k++) {
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i <= dim; i++) {
      uint32_t p = cmSubspaceSetGetPoint(set, vertices[i]);
      double v = g->x[(size_t)p * g->dim + axes[k]];
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    double ratio = lo > 0 ? hi / lo : INFINITY;
    if (ratio > span) {
      span = ratio;
      *widest = axes[k];
    }
  }
  return span;
}

/* True when `target` (transformed) lies outside the bounding box of the
 * set's points on `axes`: then it is outside their hull too, and the
 * triangulation (seconds for a 35,700-point group) need not be built. */
static bool outsideBox(const CmGroup *g, const CmSubspaceSet *set,
                       const int *axes, int dim, const double *target) {
  for (int k = 0; k < dim; k++) {
    CmTransform t = g->policy->transforms[axes[k]];
    bool below = true, above = true;
    for (size_t i = 0; i < cmSubspaceSetGetSize(set) && (below || above); i++) {
      uint32_t p = cmSubspaceSetGetPoint(set, i);
      double v = cmTransformApply(t, g->x[(size_t)p * g->dim + axes[k]]);
      below = below && v > target[k];
      above = above && v < target[k];
    }
    if (below || above)
      return true;
  }
  return false;
}

bool cmInterpolateND(CmGroup *g, int dim, const double *q, const double *tq,
                     double maxSpan, CmEstimate *out) {
  if (g->dim < dim) {
    cmEstimateAddReason(out, "%dD: kernel has %d axes", dim, g->dim);
    return false;
  }
  for (unsigned mask = 1; mask < (1u << g->dim); mask++) {
    if (popcount(mask) != dim)
      continue;
    int axes[3];
    axesOfMask(mask, g->dim, axes);
    const CmSubspaceIndex *index = cmGroupGetSubspaceIndex(g, mask);
    if (!index) {
      cmEstimateAddReasonText(out, "out of memory", "");
      return false;
    }
    const char *name = cmSubspaceIndexGetName(index);
    const CmSubspaceSet *set = cmSubspaceIndexFind(index, q);
    if (!set) {
      cmEstimateAddReasonText(out, name, ": no points share the other axes");
      continue;
    }
    double target[3], weights[4];
    uint32_t vertices[4];
    for (int k = 0; k < dim; k++)
      target[k] = tq[axes[k]];
    /* The box check scans the set's points (35,700 for the GEMM group): only
     * before the triangulation exists. A built one rejects the same targets
     * with the same reason, in cmTriangulationLocate's box test. */
    if (!cmSubspaceSetPeekTriangulation(set) &&
        outsideBox(g, set, axes, dim, target)) {
      cmEstimateAddReasonText(out, name, ": outside the hull");
      continue;
    }
    char why[160];
    const CmTriangulation *tri =
        cmSubspaceSetGetTriangulation(g, index, set, why, sizeof why);
    if (!tri) {
      cmEstimateAddReasonText(out, name, ": ");
      cmEstimateAddReasonText(out, why, "");
      continue;
    }
    if (!cmTriangulationLocate(tri, target, vertices, weights)) {
      cmEstimateAddReasonText(out, name, ": outside the hull");
      continue;
    }
    int widest = axes[0];
    double span = simplexSpan(g, dim, axes, set, vertices, &widest);
    if (span > maxSpan) {
      cmEstimateAddReason(out,
                          "%s: simplex spans %.3gx on %s (max_simplex_span %g)",
                          name, span, g->policy->axes[widest], maxSpan);
      continue;
    }
    answerFromSimplex(g, dim, axes, set, vertices, weights, out);
    return true;
  }
  return false;
}
