/*===- roofline.h - the analytic default tier (internal) ------------------===*/
#ifndef LATENCY_ROOFLINE_H
#define LATENCY_ROOFLINE_H

#include "latency/costmodel.h"

/// Fills the roofline answer for `flops` and `bytes` (negative: unknown) of
/// a kernel whose table kernel is `kernel` (may be NULL) and element type
/// `dtype` (may be NULL) from the device of `profile`; returns false with the
/// reason when neither bound can be computed.
bool cmRoofline(CmProfile profile, const char *kernel, const char *dtype,
                double flops, double bytes, CmEstimate *out);

#endif /* LATENCY_ROOFLINE_H */
