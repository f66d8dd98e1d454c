/*===- answer.c - writing an answer: reset, reasons, corners, confidence ---===*
 *
 * What every tier does to the CmEstimate it fills, in one place below the
 * tiers: the facade (estimate.c) and the tiers (interpolate_1d.c,
 * interpolate_nd.c, roofline.c) call down into it, never back up into each
 * other.
 *
 *===----------------------------------------------------------------------===*/
#include "answer.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The corner and line arrays are left as they are (their counts are
 * zeroed): they are half of the struct, so an exact hit stays cheap. This
 * clears by offset: the fields before numCorners and from counts to the
 * end are everything else, which the asserts keep true. */
static_assert(
    offsetof(CmEstimate, numCorners) < offsetof(CmEstimate, corners) &&
        offsetof(CmEstimate, corners) < offsetof(CmEstimate, numLines) &&
        offsetof(CmEstimate, numLines) < offsetof(CmEstimate, lines) &&
        offsetof(CmEstimate, lines) < offsetof(CmEstimate, counts),
    "cmAnswerReset skips exactly the corner and line arrays");
static_assert(offsetof(CmEstimate, hi) < offsetof(CmEstimate, numCorners) &&
                  offsetof(CmEstimate, reason) > offsetof(CmEstimate, counts),
              "every other field of CmEstimate is before or after them");

void cmAnswerReset(CmEstimate *out, const char *kernel) {
  memset(out, 0, offsetof(CmEstimate, numCorners));
  out->numCorners = 0;
  out->numLines = 0;
  memset(&out->counts, 0, sizeof *out - offsetof(CmEstimate, counts));
  out->kernel = kernel;
  out->source = CM_SOURCE_UNKNOWN;
  out->errorEstimate = -1;
  out->flops = out->bytes = -1;
}

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

void cmEstimateAddReasonText(CmEstimate *out, const char *first,
                             const char *second) {
  size_t used = strlen(out->reason), size = sizeof out->reason;
  const char *parts[3] = {used ? "; " : "", first, second};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(parts[i]);
    if (n > size - 1 - used)
      n = size - 1 - used;
    memcpy(out->reason + used, parts[i], n);
    used += n;
  }
  out->reason[used] = '\0';
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

/* Maps the weighted check error e (mean |ln(pred/measured)| at the query's
 * neighbours) to the displayed confidence: the probability of landing within
 * 10% if the query's log-error is half-normal with mean e, i.e.
 * P(|X| <= ln 1.1) with sigma = e * sqrt(pi/2). No device constants; how well
 * it is calibrated is shown per quintile by latency-eval (docs/accuracy.md). */
double cmConfidenceFromError(double e) {
  if (e <= 0)
    return 1.0;
  const double sqrtPi = 1.7724538509055160273; /* C11 has no M_PI */
  return erf(log(1.1) / (e * sqrtPi));
}
