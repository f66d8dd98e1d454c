/*===- annotate.h - the answers as attributes (internal) -------------------===*
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_ANNOTATE_H
#define LATENCY_ANNOTATE_H

#include "report.h"

/// Writes the estimated function `fn` onto its IR: `latency.estimate` on
/// each kernel root, `latency.fusion` on consumers of fusion edges,
/// `latency.kernel` on every member op, `latency.total_us` and
/// `latency.kernels` on the function.
void latAnnotateFunction(const LatFunctionReport *fn);

/// detect-fusion-kernels: `latency.kernel` on every member op of `graph`'s
/// kernels and `latency.kernel_type` on each root.
void latAnnotateKernelTypes(MlirContext ctx, const LatGraph *graph);

#endif /* LATENCY_ANNOTATE_H */
