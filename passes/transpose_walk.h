/*===- transpose_walk.h - the column a transpose walks (internal) ----------===*
 *
 * Lowered to loops, a transpose runs its innermost loop along a dim that is
 * contiguous on at most one side: for every element of that loop it
 * touches a new line of the side with the larger stride, a column of it. As
 * a matmul's weight column (latency/column_walk.h), the walk is fast while
 * the column stays in L1 and several times slower once it spills, which no
 * count of elements tells: on the project's VM, `loops` transposed
 * [1024, 576] -> [576, 1024] (a column 4096 B apart: one L1 set) at 3.8 ns
 * an element and [1000, 1024] -> [1024, 1000] (4000 B apart: every set)
 * at 0.8 (docs/profiling.md, "Transposes walk a column"). The pass puts the
 * walk on the kernel (`walk_k`, `walk_stride`, `walk_writes`) and the cost
 * model prices it (costmodel/roofline_loop_matmul.c).
 *
 * Only the innermost loop is described. The grids it is priced with were
 * probed on two-dimensional transposes, where the next loop out steps along
 * the walked side's contiguous dim and reuses the column's lines; a
 * higher-rank permutation whose next loop strides too ([2, 1, 0]) reuses
 * less, and is priced as if it did.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRANSPOSE_WALK_H
#define LATENCY_TRANSPOSE_WALK_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/// The column a transpose walks: `k` elements (the innermost loop's trip
/// count) `stride` elements apart, on the side it writes (`writes`) or
/// reads. All 0 when the innermost loop is contiguous on both sides.
typedef struct {
  double k, stride;
  bool writes;
} LatTransposeWalk;

/// The walk of transpose `op` (tosa.transpose, linalg.transpose, or a
/// linalg.generic yielding its input through permuted maps) as `loops`
/// runs it: over the output's dims in order for the named ops (their
/// lowering iterates the result), over the generic's loops in order
/// otherwise. False, and a walk of 0, when `op` is none of these, or its
/// shapes (dynamic, or of a rank beyond LAT_MAX_RANK) or permutation
/// cannot be read.
bool latTransposeWalkOf(MlirOperation op, LatTransposeWalk *out);

#endif /* LATENCY_TRANSPOSE_WALK_H */
