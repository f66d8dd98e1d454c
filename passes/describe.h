/*===- describe.h - each kernel's type, axes, work and query (internal) ----===*
 *
 * After detection: the kernel's type name (classes joined with '+'), element
 * type and the type it is costed in (precision=), axes, flops, boundary
 * bytes and the cost-model query fields; diagnostics at op locations for
 * what cannot be described exactly (describe.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_DESCRIBE_H
#define LATENCY_DESCRIBE_H

#include "graph.h"

/// Describes every kernel: type name, dtype, axes, flops, boundary bytes,
/// and the cost-model query fields; warns at op locations about dynamic
/// shapes, overflowing sizes, unsupported dtypes and unknown ops.
void latGraphDescribe(LatGraph *graph);

/// Describes kernel `kernel` of `graph` (see latGraphDescribe); warns only
/// when `warn` is set (a kernel the fusion analysis imagines stays silent).
void latKernelDescribe(LatGraph *graph, int kernel, bool warn);

/// The method shown for kernel `k`: the cost model's, or "call" for a call
/// kernel (costed as the sum of its callee's kernels).
const char *latKernelMethodName(const LatKernel *k);

#endif /* LATENCY_DESCRIBE_H */
