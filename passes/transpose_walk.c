/*===- transpose_walk.c - the column a transpose walks ---------------------===*
 *
 * See transpose_walk.h. The innermost loop's stride on each side is the
 * product of that side's dims after the one the loop indexes (row-major, as
 * bufferization lays tensors out); the side with the larger stride walks.
 *
 *===----------------------------------------------------------------------===*/
#include "transpose_walk.h"

#include "ir_util.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinTypes.h"

/* True when `shape` (of `v`) is all of `v`'s shape: static, and of the rank
 * its type has (latShapeOf keeps at most LAT_MAX_RANK dims). */
static bool wholeStaticShape(MlirValue v, const LatShape *shape) {
  if (!shape->isTensor || shape->dynamic) /* a null value is no tensor */
    return false;
  MlirType type = mlirValueGetType(v);
  return mlirTypeIsAShaped(type) && mlirShapedTypeHasRank(type) &&
         mlirShapedTypeGetRank(type) == shape->rank;
}

/* Elements between neighbours along dim `dim` of `shape` (row-major); 0
 * when `dim` is not one of its dims. */
static double strideOf(const LatShape *shape, int64_t dim) {
  if (dim < 0 || dim >= shape->rank)
    return 0;
  double stride = 1;
  for (int i = (int)dim + 1; i < shape->rank; i++)
    stride *= (double)shape->dims[i];
  return stride;
}

/* The result of `map` that is loop `loop`, or -1. */
static int64_t resultOfLoop(MlirAffineMap map, intptr_t loop) {
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); i++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == loop)
      return i;
  }
  return -1;
}

/* The strides of the innermost loop on the input and output sides, and its
 * trip count; false when they cannot be read. */
static bool innermostStrides(MlirOperation op, const LatShape *in,
                             const LatShape *out, double *inStride,
                             double *outStride, double *trips) {
  if (latOpIs(op, "linalg.generic")) {
    MlirAffineMap maps[2];
    if (latIndexingMaps(op, maps, 2) != 2 ||
        mlirAffineMapGetNumResults(maps[0]) != in->rank ||
        mlirAffineMapGetNumResults(maps[1]) != out->rank)
      return false;
    intptr_t inner = mlirAffineMapGetNumDims(maps[1]) - 1;
    int64_t outDim = resultOfLoop(maps[1], inner);
    if (outDim < 0) /* results match the rank: outDim indexes a dim */
      return false;
    *inStride = strideOf(in, resultOfLoop(maps[0], inner));
    *outStride = strideOf(out, outDim);
    *trips = (double)out->dims[outDim];
    return true;
  }
  /* linalg.transpose's `permutation`, tosa.transpose's `perms`: result dim
     i is input dim perm[i], and the loops run over the result */
  const char *name = latOpIs(op, "linalg.transpose") ? "permutation" : "perms";
  /* a rank-0 transpose moves one element: no walk (MLIR 22's verifier
     crashes on a rank-0 linalg.transpose before any pass runs, so this
     guards builders, not parsed IR) */
  if (out->rank < 1) {
    *inStride = *outStride = *trips = 1;
    return true;
  }
  int64_t inDim = latI64ArrayAttr(op, name, out->rank - 1, -1);
  if (inDim < 0 || inDim >= in->rank ||
      latI64ArrayAttr(op, name, out->rank, -1) != -1) /* one per dim */
    return false;
  *inStride = strideOf(in, inDim);
  *outStride = 1;
  *trips = (double)out->dims[out->rank - 1];
  return true;
}

bool latTransposeWalkOf(MlirOperation op, LatTransposeWalk *out) {
  *out = (LatTransposeWalk){0, 0, false};
  if (!latOpIs(op, "linalg.generic") && !latOpIs(op, "linalg.transpose") &&
      !latOpIs(op, "tosa.transpose"))
    return false;
  /* the one input and the result (a linalg op on memrefs has none, and
     describe.c asks only ops with results) */
  MlirValue inValue = latOperand(op, 0), resultValue = latResult(op, 0);
  LatShape in = latShapeOf(inValue), result = latShapeOf(resultValue);
  if (!wholeStaticShape(inValue, &in) ||
      !wholeStaticShape(resultValue, &result) || in.rank != result.rank)
    return false;
  double inStride = 0, outStride = 0, trips = 0;
  if (!innermostStrides(op, &in, &result, &inStride, &outStride, &trips))
    return false;
  double stride = inStride > outStride ? inStride : outStride;
  if (stride > 1 && trips > 1)
    *out = (LatTransposeWalk){trips, stride, outStride > inStride};
  return true;
}
