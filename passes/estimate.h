/*===- estimate.h - kernel latencies from the cost model (internal) --------===*
 *
 * After description: one kernel at a time (estimate.c), silent, so the
 * fusion analysis can price kernels that do not exist.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_ESTIMATE_H
#define LATENCY_ESTIMATE_H

#include "graph.h"

/// True when kernels of `type` are priced with the cost model's built-in
/// work (cmQueryWork: attention's is the causal prefill's, half what its
/// ops count), not the flops and bytes their ops add up to.
bool latKernelUsesBuiltinWork(const char *type);

/// Clears `k`'s estimate: unknown, no time.
void latKernelSetUnknown(LatKernel *k);

/// Asks the cost model for described kernel `k` and keeps the answer and
/// its provenance on it; false (k unknown) when no tier answers. Emits no
/// diagnostics.
bool latKernelEstimate(CmProfile profile, const CmOptions *options,
                       LatKernel *k);

#endif /* LATENCY_ESTIMATE_H */
