/*===- patterns.h - multi-op templates (internal) -------------------------===*/
#ifndef LATENCY_PATTERNS_H
#define LATENCY_PATTERNS_H

#include "graph.h"

/// Finds scaled-dot-product attention, erf-GELU, softmax, LayerNorm and
/// RMSNorm spelled as several ops and marks each occurrence as one group
/// (LatNode.group) with its class, before kernels are detected. Attention is
/// a fusion template and is matched only when `fusion` is set; the others are
/// single ops users think of as one and are always matched.
void latGraphMatchPatterns(LatGraph *graph, bool fusion);

#endif /* LATENCY_PATTERNS_H */
