/*===- edge_cutout.h - the two sides of a fusion edge, and both as one ----===*
 *
 * A fusion edge is measured as three cut-outs (cutout.h) of the same ops:
 * the producer side alone, the consumer side alone, and both as one
 * kernel. Between two kernels of a graph the sides are those kernels and
 * the merged kernel is what latFusionJoinKernels makes of them (views
 * between them included); inside one kernel the sides are the kernel cut
 * before one of its units, as passes/fusion_gain.c prices it. The graph is
 * relabelled while a cut-out is written and restored before these return.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_EDGE_CUTOUT_H
#define LATENCY_PROFILE_EDGE_CUTOUT_H

#include "graph.h"
#include "mlir_host.h"

#include <stdbool.h>
#include <stddef.h>

/// Writes kernels `producer` and `consumer` of `graph` merged into one
/// function to `path`; false with the reason in `err`. The graph is left
/// as it was.
bool lpCutoutMerged(LpHost *host, LatGraph *graph, int producer, int consumer,
                    const char *path, char *err, size_t size);

/// Writes the two sides of kernel `kernel` cut before its member node
/// `cutNode` (side A: the members before it and the folded-in data
/// movement; side B: the others) to `pathA` and `pathB`; false with the
/// reason in `err`. The graph is left as it was.
bool lpCutoutSplit(LpHost *host, LatGraph *graph, int kernel, int cutNode,
                   const char *pathA, const char *pathB, char *err,
                   size_t size);

/// Returns the class a cut before node `n` is named by (its pattern's
/// class or its own), or NULL when no cut starts there (folded-in data
/// movement, a pattern member after its head).
const char *lpCutClass(const LatGraph *graph, int n);

#endif /* LATENCY_PROFILE_EDGE_CUTOUT_H */
