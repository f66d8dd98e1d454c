/*===- answer.h - writing an answer (internal) -----------------------------===*
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_ANSWER_H
#define LATENCY_ANSWER_H

#include "group.h"

/// Clears `out` for a new query of `kernel` (borrowed): no answer, unknown
/// source, no reasons, counts zero, flops and bytes -1.
void cmAnswerReset(CmEstimate *out, const char *kernel);

/// Appends the texts `first` and `second` (may be "") to the answer's
/// reason, separated from what is there by "; ". No formatting: the tiers
/// call this on every miss, so it must be cheap.
void cmEstimateAddReasonText(CmEstimate *out, const char *first,
                             const char *second);

/// Appends formatted text to the answer's reason, separated by "; ".
void cmEstimateAddReason(CmEstimate *out, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Records the two end points of `line` through `q` as the answer's corners.
void cmCornersFromLine(const CmGroup *group, const double *q,
                       const CmLine *line, CmEstimate *out);

/// The displayed confidence for an expected log-error `e` (mean |ln(pred /
/// measured)|): the chance of landing within 10% if the log-error is
/// half-normal with that mean.
double cmConfidenceFromError(double e);

#endif /* LATENCY_ANSWER_H */
