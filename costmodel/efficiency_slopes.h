/*===- efficiency_slopes.h - the roofline's efficiency along a kernel's axes
 *
 * Internal.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_EFFICIENCY_SLOPES_H
#define LATENCY_EFFICIENCY_SLOPES_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h" /* cmClampedLawFactor */
#include "policy.h"
#include "work.h"

/// Returns the factor by which the efficiencies of `kernel` (a table's
/// kernel, or a family: conv2d+*) change at the query's values (`value`
/// over `context`, by the names of `policy`'s axes and regime keys): the
/// product over the names with a device.csv `efficiency_slope.<kernel>.
/// <name>` of (x / center) ^ slope, x clamped to [`efficiency_lo.<kernel>.
/// <name>`, `efficiency_hi...`] and center their geometric mean, held
/// within [1e-3, 1e3], times the reduction law's factor where device.csv
/// has `efficiency_reduction_k0|lo|hi.<kernel>` (cmReductionLawFactor at
/// the query's cmReductionPerOutput). 1 when the profile has no slopes and
/// no reduction law for the kernel (every shipped GPU profile) or `kernel` or
/// `policy` is NULL.
double cmEfficiencyScale(CmProfile profile, const char *kernel,
                         const CmPolicy *policy, CmValueFn value,
                         const void *context);

#endif /* LATENCY_EFFICIENCY_SLOPES_H */
