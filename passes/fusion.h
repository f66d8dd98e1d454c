/*===- fusion.h - what fusions gain, and a greedy partition (internal) -----===*
 *
 * After estimation: every producer -> consumer edge priced fused and apart
 * (fusion_gain.c), and fusion=greedy's cost-driven partition
 * (fusion_greedy.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_FUSION_H
#define LATENCY_FUSION_H

#include "graph.h"

/// What the fusion analysis needs: the cost model and the fusion rules.
typedef struct {
  CmProfile profile;
  const CmOptions *options;
  bool (*rules)(void *context, const char *producer, const char *consumer);
  void *rulesContext;
} LatFusionContext;

/// Fills `graph->edges` with every fusion edge of the estimated graph and
/// its gain; false when out of memory. The graph is unchanged otherwise.
bool latFusionAnalyze(const LatFusionContext *context, LatGraph *graph);

/// Returns the estimate of kernels `producer` and `consumer` merged (the
/// graph unchanged), or -1 when the cost model cannot answer.
double latFusionMergedUs(const LatFusionContext *context, LatGraph *graph,
                         int producer, int consumer);

/// Returns the kernel producing operand `o` of node `n`, looking through
/// views that are in no kernel; -1 when none does.
int latFusionProducerKernel(const LatGraph *graph, int n, intptr_t o);

/// Returns true when kernels `producer` and `consumer` may merge: both
/// estimated, neither a call, not both rooted at a conv, matmul, attention
/// or pool (no rule set fuses two of those).
bool latFusionCanMerge(const LatGraph *graph, int producer, int consumer);

/// Moves kernel `absorb`'s members into kernel `keep` (the chain of the one
/// rooted at a conv, matmul, attention or pool first) and leaves `absorb`
/// empty; `nodes` is scratch space for `graph->numNodes` entries.
void latFusionJoinKernels(LatGraph *graph, int keep, int absorb, int *nodes);

/// Merges the kernels of the estimated `graph` (usually single-op kernels)
/// greedily, as priority fusion does: the producer -> consumer merge with
/// the largest estimated gain first, while the merge pays (gain > 0) and is
/// legal (no cycle through a third kernel; values used outside stay
/// materialised, which the boundary bytes count). Leaves every kernel
/// described and estimated. False when out of memory.
bool latFusionGreedy(const LatFusionContext *context, LatGraph *graph);

/// Totals of one function under three partitions, for fusion=greedy.
typedef struct {
  double singleOpUs; /* fusion=false: where greedy starts        */
  size_t singleOpKernels;
  double greedyUs; /* the greedy partition                      */
  double rulesUs;  /* the profile's fusion rules (the default)  */
  size_t rulesKernels;
} LatPartitionComparison;

/// fusion=greedy for `graph` (built from `body`, detected with fusion off,
/// described, tables loaded): estimates it, merges greedily, describes the
/// result, and prices the rule-based partition of the same body beside it
/// into `*out`. False when out of memory.
bool latGreedyPartition(const LatFusionContext *context, LatGraph *graph,
                        MlirRegion body, LatPartitionComparison *out);

#endif /* LATENCY_FUSION_H */
