/*===- roofline_loop_matmul.h - what a loop-lowered matmul adds -----------===*
 *
 * Internal.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_ROOFLINE_LOOP_MATMUL_H
#define LATENCY_ROOFLINE_LOOP_MATMUL_H

#include "latency/costmodel.h"
#include "work.h"

/// For a matmul, batch_matmul, attention or channels-first conv `kernel` on
/// a profile that has the keys (host profiles from latency-profile; no
/// shipped GPU profile): raises out->memoryUs to the time its loops take to
/// walk weight columns that do not stay in L1 (attention: the columns of
/// K^T and V; a conv: its input's, across the channels; a depthwise conv:
/// its output's, where the plane makes each load wait on a store), sets
/// out->computeUs to the multiply-adds of a reduction short enough to be
/// unrolled and vectorized (which then walks nothing), and adds
/// to `*launchUs` the copy of a weight its query says is transposed on
/// every call, each with a reason when it counts. Does nothing for other
/// kernels, without `value`, and where the query gives no shape (or
/// weight_transposed, for the copy).
void cmRooflineAddLoopMatmul(CmProfile profile, const char *kernel,
                             const char *dtype, CmValueFn value,
                             const void *context, CmEstimate *out,
                             double *launchUs);

#endif /* LATENCY_ROOFLINE_LOOP_MATMUL_H */
