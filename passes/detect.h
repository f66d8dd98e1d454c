/*===- detect.h - which ops run as one kernel (internal) -------------------===*
 *
 * Kernels are detected with nn-Meter semantics: an op joins its producer's
 * kernel when the rule (producer class, consumer class) exists and the
 * producer has no other user. Views (reshapes) and folded transposes are
 * transparent: the op after them is matched against the class before them.
 * A multi-op pattern (detect_patterns.c) is one unit: its ops join or start
 * a kernel together, under the pattern's class. Transposes in front of a
 * compute op fold into its kernel when the rule (transpose, its class)
 * exists, also transparently.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_DETECT_H
#define LATENCY_DETECT_H

#include "graph.h"

/// Finds scaled-dot-product attention, erf-GELU, softmax, LayerNorm and
/// RMSNorm spelled as several ops and marks each occurrence as one group
/// (LatNode.group) with its class, before kernels are detected. Attention is
/// a fusion template and is matched only when `fusion` is set; the others are
/// single ops users think of as one and are always matched
/// (detect_patterns.c).
void latGraphMatchPatterns(LatGraph *graph, bool fusion);

/// Groups the costed ops into kernels; with `fusion` false every costed op
/// is its own kernel. `rules` answers whether (producer, consumer) fuses.
bool latGraphDetect(LatGraph *graph, bool fusion,
                    bool (*rules)(void *ctx, const char *producer,
                                  const char *consumer),
                    void *ctx);

/// The class a fusion rule sees for node `n` as a consumer: its pattern's,
/// or for a folded layout op the class of its kernel's root.
const char *latGraphConsumerClass(const LatGraph *graph, int n);

/// Drops the kernels left empty (numOps 0) and renumbers the rest, in
/// order.
void latGraphCompactKernels(LatGraph *graph);

#endif /* LATENCY_DETECT_H */
