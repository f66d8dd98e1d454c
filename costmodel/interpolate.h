/*===- interpolate.h - the interpolation tiers (internal) ------------------===*
 *
 * Each tier fills the answer and its provenance in `out` and returns true,
 * or returns false with `out->reason` extended by why it could not answer.
 * The caller has sealed the group and zeroed the answer fields.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_INTERPOLATE_H
#define LATENCY_INTERPOLATE_H

#include "answer.h"
#include "group.h"

/// The 1D tier at raw query `q` (transformed: `tq`).
bool cmInterpolate1D(CmGroup *group, const double *q, const double *tq,
                     CmEstimate *out);

/// The 2D (`dim` = 2) or 3D (`dim` = 3) Delaunay tier at `q` / `tq`. A
/// simplex whose corners span more than `maxSpan` (largest / smallest raw
/// value, on any of its axes) does not answer: device.csv
/// `max_simplex_span`, INFINITY when absent.
bool cmInterpolateND(CmGroup *group, int dim, const double *q, const double *tq,
                     double maxSpan, CmEstimate *out);

/// Returns |ln(`a` / `b`)| for positive `a` and `b`, finite also where the
/// quotient overflows or underflows (latencies of 1e-320 and 1 us).
double cmLogDistance(double a, double b);

#endif /* LATENCY_INTERPOLATE_H */
