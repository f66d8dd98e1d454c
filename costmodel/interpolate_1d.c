/*===- interpolate_1d.c - the 1D tier: bracketing lines, CV-weighted -------===*
 *
 * Implements the rule of docs/costmodel.md ("1D tier"), measured in
 * shared/design/interpolation-rule.md: every axis whose line through the
 * query brackets it gives a linear candidate p_a; several candidates are
 * combined with weights 1 / (e_a + 0.001)^2, where e_a is the mean
 * |ln(pred / measured)| of the same axis-a rule at the query's neighbours on
 * its own lines. Only ever averages values interpolated between measured
 * neighbours, so it never extrapolates.
 *
 *===----------------------------------------------------------------------===*/
#include "interpolate.h"

#include "line_index.h"

#include <math.h>
#include <string.h>

/* The rule's regulariser: keeps a zero check error from taking all weight. */
static const double kWeightFloor = 0.001;

/* The line's value at raw axis value x (transformed: t). Where the transform
 * maps both ends to one double (log of 9e14 + 2 and 9e14 + 4), the raw
 * values place x instead of dividing by zero. */
static double lerp(const CmLinePoint *lo, const CmLinePoint *hi, double x,
                   double t) {
  double f = hi->t > lo->t ? (t - lo->t) / (hi->t - lo->t)
                           : (x - lo->x) / (hi->x - lo->x);
  return lo->y + f * (hi->y - lo->y);
}

/* Predicts the measured point `s` (axis values `sx`, latency `sy`) by the
 * axis-`a` rule, treating `s` as unmeasured; adds |ln(pred/sy)| to *sum and
 * counts it when the line through `s` brackets it. */
static void checkPoint(const CmLineIndex *index, int a, const double *sx,
                       double st, double sy, double *sum, int *count) {
  CmLine1D line = cmLineIndexFind(index, sx);
  const CmLinePoint *lo, *hi;
  if (!cmLineBracket(line, sx[a], &lo, &hi))
    return;
  *sum += cmLogDistance(lerp(lo, hi, sx[a], st), sy);
  (*count)++;
}

/* Mean check error of candidate axis `a` over the query's neighbours on its
 * own lines along every axis; -1 when no neighbour could be checked. */
static double checkError(CmGroup *g, const CmLineIndex *const *indexes,
                         const CmLine1D *ownLines, int a, const double *q) {
  double sum = 0;
  int count = 0;
  for (int b = 0; b < g->dim; b++) {
    const CmLinePoint *nb[2];
    cmLineNeighbours(ownLines[b], q[b], &nb[0], &nb[1]);
    for (int side = 0; side < 2; side++) {
      if (!nb[side])
        continue;
      const double *sx = g->x + (size_t)nb[side]->point * g->dim;
      double st = g->tx[(size_t)nb[side]->point * g->dim + a];
      checkPoint(indexes[a], a, sx, st, nb[side]->y, &sum, &count);
    }
  }
  return count ? sum / count : -1;
}

double cmLogDistance(double a, double b) {
  double d = fabs(log(a / b));
  return isfinite(d) ? d : fabs(log(a) - log(b)); /* a / b out of range */
}

bool cmInterpolate1D(CmGroup *g, const double *q, const double *tq,
                     CmEstimate *out) {
  const CmLineIndex *indexes[CM_MAX_AXES];
  CmLine1D ownLines[CM_MAX_AXES];
  int numCandidates = 0;
  for (int a = 0; a < g->dim; a++) {
    indexes[a] = cmGroupGetLineIndex(g, a);
    if (!indexes[a])
      return false;
    ownLines[a] = cmLineIndexFind(indexes[a], q);
    const CmLinePoint *lo, *hi;
    if (!cmLineBracket(ownLines[a], q[a], &lo, &hi))
      continue;
    CmLine *c = &out->lines[numCandidates++];
    memset(c, 0, sizeof *c);
    c->axis = a;
    c->lo = lo->x;
    c->hi = hi->x;
    c->value = lerp(lo, hi, q[a], tq[a]);
    out->counts.filtered += ownLines[a].count;
  }
  out->numLines = numCandidates;
  if (numCandidates == 0)
    return false;

  /* Local cross-validation of every candidate. */
  double largest = -1;
  int numChecked = 0;
  for (int i = 0; i < numCandidates; i++) {
    CmLine *c = &out->lines[i];
    c->checkErr = checkError(g, indexes, ownLines, c->axis, q);
    if (c->checkErr >= 0) {
      numChecked++;
      largest = fmax(largest, c->checkErr);
    }
  }
  double value = 0, weightSum = 0, errorSum = 0;
  for (int i = 0; i < numCandidates; i++) {
    CmLine *c = &out->lines[i];
    double e = c->checkErr >= 0 ? c->checkErr : largest;
    c->weight = numChecked ? 1.0 / ((e + kWeightFloor) * (e + kWeightFloor))
                           : 1.0; /* nothing checked: plain mean */
    value += c->weight * c->value;
    weightSum += c->weight;
    errorSum += c->weight * e;
  }
  int best = 0;
  for (int i = 0; i < numCandidates; i++) {
    out->lines[i].weight /= weightSum;
    if (out->lines[i].weight > out->lines[best].weight)
      best = i;
  }

  out->latencyUs = numCandidates == 1 ? out->lines[0].value : value / weightSum;
  out->source = CM_SOURCE_INTERPOLATED;
  out->method =
      numCandidates == 1 ? CM_METHOD_LINEAR_1D : CM_METHOD_WEIGHTED_1D;
  out->errorEstimate = numChecked ? errorSum / weightSum : -1;
  out->confidence =
      numChecked ? cmConfidenceFromError(out->errorEstimate) : 0.5;
  out->dim = 1;
  out->interpAxes[0] = out->lines[best].axis;
  out->lo[0] = out->lines[best].lo;
  out->hi[0] = out->lines[best].hi;
  cmCornersFromLine(g, q, &out->lines[best], out);
  return true;
}
