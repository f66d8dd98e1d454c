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
#include "mlir-c/BuiltinAttributes.h"

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

/* Position `position` of the permutation attribute `name` of `op` (a
 * linalg.transpose's i64 `permutation`, a tosa.transpose's i32 `perms`),
 * or -1. */
static int64_t permutationAt(MlirOperation op, const char *name,
                             intptr_t position) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || position < 0 ||
      position >=
          (mlirAttributeIsADenseI64Array(a) || mlirAttributeIsADenseI32Array(a)
               ? mlirDenseArrayGetNumElements(a)
               : 0))
    return -1;
  return mlirAttributeIsADenseI64Array(a)
             ? mlirDenseI64ArrayGetElement(a, position)
             : mlirDenseI32ArrayGetElement(a, position);
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
    if (latIndexingMaps(op, maps, 2) != 2)
      return false;
    intptr_t inner = mlirAffineMapGetNumDims(maps[1]) - 1;
    int64_t inDim = resultOfLoop(maps[0], inner);
    int64_t outDim = resultOfLoop(maps[1], inner);
    if (outDim < 0)
      return false;
    *inStride = strideOf(in, inDim);
    *outStride = strideOf(out, outDim);
    *trips = (double)out->dims[outDim];
    return true;
  }
  const char *name = latOpIs(op, "linalg.transpose") ? "permutation" : "perms";
  if (out->rank < 1)
    return false;
  /* result dim i is input dim perm[i]; the loops run over the result */
  int64_t inDim = permutationAt(op, name, out->rank - 1);
  if (inDim < 0)
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
  /* a named op's init is operand 1 and a generic's too (one input) */
  LatShape in = latShapeOf(latOperand(op, 0));
  LatShape result = latShapeOf(latResult(op, 0));
  if (!in.isTensor || !result.isTensor || in.rank != result.rank)
    return false;
  double inStride = 0, outStride = 0, trips = 0;
  if (!innermostStrides(op, &in, &result, &inStride, &outStride, &trips))
    return false;
  double stride = inStride > outStride ? inStride : outStride;
  if (stride > 1 && trips > 1)
    *out = (LatTransposeWalk){trips, stride, outStride > inStride};
  return true;
}
