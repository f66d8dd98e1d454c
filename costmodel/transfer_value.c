/*===- transfer_value.c - the transferred value of one shape --------------===*
 *
 * value(x) = baseline_b(x) * exp(c(x)), or the measured value at a target
 * point. Baseline 0 is the reference scaled to the target
 * (transfer_map.c); baselines 1-4 scale the geometric mix
 * t^(1 - alpha) * smooth_h(x)^alpha of the reference and its smoothed
 * trend (transfer_smooth.c) for alpha in {1/2, 1} and h in {0.3, 0.1}:
 * how much of the reference's cliffs carry over to the target is chosen
 * with the correction c, by leave-one-out on the target points. With no
 * target point, c = 0 and b = 0: the scaled reference itself.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include <math.h>
#include <stdlib.h>

static const struct {
  int smoother; /* index into kBandwidths, -1: none */
  double alpha; /* weight of the smoothed reference */
} kBaselines[CM_TRANSFER_BASELINES] = {
    {-1, 0}, {1, 0.5}, {1, 1}, {0, 0.5}, {0, 1}};
static const double kBandwidths[CM_TRANSFER_SMOOTHERS] = {0.1, 0.3};

void cmTransferFeatures(int dim, const double *axes, double *out) {
  for (int a = 0; a < dim; a++)
    out[a] = log(fmax(axes[a], 0.5));
}

double cmTransferReferenceAt(const CmTransferGroup *g, const double *axes) {
  CmEstimate e;
  if (cmPreparedEstimate(&g->prep, axes, -1, -1, NULL, &e, NULL) != CM_OK ||
      e.source == CM_SOURCE_UNKNOWN || !(e.latencyUs > 0))
    return NAN;
  return e.latencyUs;
}

double cmTransferBaseline(const struct CmTransferImpl *t, CmTransferGroup *g,
                          int b, const double *axes, double refUs,
                          const CmRowScale *s) {
  if (b == 0 || isnan(refUs))
    return cmTransferApplyScale(s, refUs);
  int k = kBaselines[b].smoother;
  if (!g->smoothers[k])
    g->smoothers[k] = cmSmootherCreate(t, g, kBandwidths[k]);
  if (!g->smoothers[k])
    return NAN;
  double f[CM_MAX_AXES];
  cmTransferFeatures(g->policy->numAxes, axes, f);
  double smooth = cmSmootherAt(g->smoothers[k], f, s->refRoofUs);
  if (isnan(smooth))
    return NAN;
  double alpha = kBaselines[b].alpha;
  double mixed = exp((1 - alpha) * log(refUs) + alpha * log(smooth));
  return cmTransferApplyScale(s, mixed);
}

long cmTransferFindPoint(const struct CmTransferImpl *t, int group,
                         const double *axes) {
  CmShape key = {.group = group};
  for (int a = 0; a < t->groups[group].policy->numAxes; a++)
    key.axes[a] = axes[a];
  size_t lo = 0, hi = t->points.count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmShapeCompare(&t->points.items[mid], &key);
    if (c == 0)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -1;
}

double cmTransferValueAt(struct CmTransferImpl *t, int group,
                         const double *axes, double refUs) {
  long p = cmTransferFindPoint(t, group, axes);
  if (p >= 0)
    return t->points.items[p].latencyUs;
  CmTransferGroup *g = &t->groups[group];
  CmRowScale s;
  cmTransferRowScale(t, g, axes, &s);
  double scaled = cmTransferApplyScale(&s, refUs);
  if (g->correction.n == 0)
    return scaled;
  double base =
      cmTransferBaseline(t, g, g->correction.baseline, axes, refUs, &s);
  double f[CM_MAX_AXES];
  cmTransferFeatures(g->policy->numAxes, axes, f);
  return (isnan(base) ? scaled : base) * exp(cmCorrectionAt(&g->correction, f));
}

double cmTransferGroupConfidence(const CmTransferGroup *g) {
  double c = g->correction.looWithin10;
  return g->numPoints > 0 && !isnan(c) ? c : CM_TRANSFER_PRIOR_CONFIDENCE;
}
