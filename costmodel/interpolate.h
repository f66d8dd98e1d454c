/*===- interpolate.h - the interpolation tiers (internal) ------------------===*
 *
 * Each tier fills the answer and its provenance in `out` and returns true,
 * or returns false with `out->reason` extended by why it could not answer.
 * The caller has sealed the group and zeroed the answer fields.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_INTERPOLATE_H
#define LATENCY_INTERPOLATE_H

#include "group.h"

/// The 1D tier at raw query `q` (transformed: `tq`).
bool cmInterpolate1D(CmGroup *group, const double *q, const double *tq,
                     CmEstimate *out);

/// The 2D (`dim` = 2) or 3D (`dim` = 3) Delaunay tier at `q` / `tq`.
bool cmInterpolateND(CmGroup *group, int dim, const double *q, const double *tq,
                     CmEstimate *out);

/// The displayed confidence for an expected log-error `e` (mean |ln(pred /
/// measured)|): the chance of landing within 10% if the log-error is
/// half-normal with that mean.
double cmConfidenceFromError(double e);

/// Returns |ln(`a` / `b`)| for positive `a` and `b`, finite also where the
/// quotient overflows or underflows (latencies of 1e-320 and 1 us).
double cmLogDistance(double a, double b);

/// Records the two end points of `line` through `q` as the answer's corners.
void cmCornersFromLine(const CmGroup *group, const double *q,
                       const CmLine *line, CmEstimate *out);

/// Appends the texts `first` and `second` (may be "") to the answer's
/// reason, separated from what is there by "; ". No formatting: the tiers
/// call this on every miss, so it must be cheap.
void cmEstimateAddReasonText(CmEstimate *out, const char *first,
                             const char *second);

/// Appends formatted text to the answer's reason, separated by "; ".
void cmEstimateAddReason(CmEstimate *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* LATENCY_INTERPOLATE_H */
