/*===- classify_generic.c - what a linalg.generic computes, from its body
 *------===*
 *
 * A linalg.generic is recognised from the ops in its body (math.erf ->
 * gelu, max/select -> relu, rsqrt with several inputs -> batchnorm, ...),
 * its iterator types (a reduction -> reduce, or pool when it reads through
 * windows) and its indexing maps (a multiply-accumulate over reductions ->
 * matmul or conv; a yield of its input -> view, transpose, broadcast or
 * copy). A linalg.map is classified by its body the same way.
 *
 *===----------------------------------------------------------------------===*/
#include "classify.h"

#include "ir_util.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

typedef struct {
  bool erf, max, min, select, cmp, exp, tanh, sqrt, div, add, sub, mul;
  bool cast, extract, neg, pow, other;
  int numOps;
} BodyOps;

/* True when an operand of `op` is an arith.constant float of at least 3e38
 * (FLT_MAX, as lowered TOSA clamps bound ReLU from above); a dense
 * tosa.const is never a float attribute, so only scalars count. */
static bool hasHugeConstantOperand(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirAttribute v = latConstantValue(latOperand(op, i));
    if (!mlirAttributeIsNull(v) && mlirAttributeIsAFloat(v) &&
        mlirFloatAttrGetValueDouble(v) >= 3.0e38)
      return true;
  }
  return false;
}

static BodyOps scanBody(MlirOperation generic) {
  BodyOps b;
  memset(&b, 0, sizeof b);
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  if (mlirBlockIsNull(block))
    return b;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (latOpIs(op, "linalg.yield"))
      continue;
    b.numOps++;
    if (latOpIs(op, "math.erf"))
      b.erf = true;
    else if (latOpIs(op, "tensor.extract"))
      b.extract = true; /* reads an input at computed indices */
    else if (latOpIs(op, "arith.negf"))
      b.neg = true;
    else if (latOpIs(op, "math.powf"))
      b.pow = true;
    else if (latOpIs(op, "arith.maximumf") || latOpIs(op, "arith.maxnumf"))
      b.max = true;
    else if (latOpIs(op, "arith.minimumf") || latOpIs(op, "arith.minnumf"))
      b.min |= !hasHugeConstantOperand(op); /* min(x, FLT_MAX): no bound */
    else if (latOpIs(op, "arith.select"))
      b.select = true;
    else if (latOpIs(op, "arith.cmpf"))
      b.cmp = true;
    else if (latOpIs(op, "math.exp"))
      b.exp = true;
    else if (latOpIs(op, "math.tanh"))
      b.tanh = true;
    else if (latOpIs(op, "math.sqrt") || latOpIs(op, "math.rsqrt"))
      b.sqrt = true;
    else if (latOpIs(op, "arith.divf"))
      b.div = true;
    else if (latOpIs(op, "arith.addf") || latOpIs(op, "arith.addi"))
      b.add = true;
    else if (latOpIs(op, "arith.subf") || latOpIs(op, "arith.subi"))
      b.sub = true;
    else if (latOpIs(op, "arith.mulf") || latOpIs(op, "arith.muli"))
      b.mul = true;
    else if (latOpHasPrefix(op, "arith.trunc") ||
             latOpHasPrefix(op, "arith.ext") ||
             latOpHasPrefix(op, "arith.fpto") ||
             latOpHasPrefix(op, "arith.sitofp"))
      b.cast = true;
    else if (!latOpIs(op, "arith.constant") && !latOpIs(op, "linalg.index") &&
             !latOpIs(op, "arith.index_cast"))
      b.other = true;
  }
  return b;
}

/* True when an iterator is #linalg.iterator_type<reduction>. */
static bool hasReduction(MlirOperation generic) {
  MlirAttribute iterators = mlirOperationGetAttributeByName(
      generic, mlirStringRefCreateFromCString("iterator_types"));
  if (mlirAttributeIsNull(iterators))
    return false;
  char text[512];
  latAttributeText(iterators, text, sizeof text);
  return strstr(text, "reduction") != NULL;
}

/* True when indexing map `map` reads the result's index space unchanged:
 * dim i at position i, or the constant 0 where `shape` has extent 1 (how
 * torch-mlir spells a broadcast of a size-1 dim). */
static bool readsInPlace(MlirAffineMap map, const LatShape *shape) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n != shape->rank || mlirAffineMapGetNumDims(map) != n)
    return false;
  for (intptr_t i = 0; i < n; i++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    bool same = mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == i;
    bool unitBroadcast = mlirAffineExprIsAConstant(e) &&
                         mlirAffineConstantExprGetValue(e) == 0 &&
                         shape->dims[i] == 1;
    if (!same && !unitBroadcast)
      return false;
  }
  return true;
}

/* A generic that yields its one input, of the result's type, read in place:
 * a copy that upstream canonicalisation erases (and no device runs). */
static bool isIdentityCopy(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) != 2 ||
      mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeEqual(mlirValueGetType(latOperand(op, 0)),
                     mlirValueGetType(latResult(op, 0))))
    return false;
  MlirAffineMap maps[2];
  LatShape shape = latShapeOf(latResult(op, 0));
  return latIndexingMaps(op, maps, 2) == 2 && readsInPlace(maps[0], &shape) &&
         readsInPlace(maps[1], &shape);
}

/* True when the first input's indexing map reads it at a combination of
 * loops (d1 + d4, as a convolution's window does), not at single loops. */
static bool readsWindows(MlirOperation generic) {
  MlirAffineMap map;
  if (latIndexingMaps(generic, &map, 1) < 1)
    return false;
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); i++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (!mlirAffineExprIsADim(e) && !mlirAffineExprIsAConstant(e))
      return true;
  }
  return false;
}

/* A generalised contraction: two inputs multiplied and accumulated over
 * reduction loops (what linalg-generalize-named-ops makes of a matmul or a
 * conv). Convolutions read their input through windows. LAT_NUM_CLASSES
 * when the body is not one. */
static LatClassId contractionClass(MlirOperation generic, const BodyOps *b) {
  int tensorInputs = 0; /* scalar inputs are zero points (quantized ops) */
  for (intptr_t i = 0; i + 1 < mlirOperationGetNumOperands(generic); i++)
    tensorInputs += latShapeOf(latOperand(generic, i)).isTensor;
  if (tensorInputs != 2 || !b->mul || !b->add || b->other || b->div || b->exp ||
      b->max || b->min || b->select || b->sqrt)
    return LAT_NUM_CLASSES;
  if (!readsWindows(generic))
    return LAT_CLASS_MATMUL;
  int rank = latShapeOf(latResult(generic, 0)).rank;
  return rank == 3   ? LAT_CLASS_CONV1D
         : rank == 5 ? LAT_CLASS_CONV3D
                     : LAT_CLASS_CONV2D;
}

/* What a generic that yields its one input does: "broadcast" when it
 * reads fewer loops than there are (the input has lower rank),
 * "transpose" when its input and output maps are different permutations
 * of the loops (either side may carry the permutation: torch-mlir's
 * exports write a linear layer's weight transposed through the output
 * map, reading the input in order), else "copy". */
static LatClassId copyKind(MlirOperation generic) {
  MlirAffineMap maps[2];
  if (mlirOperationGetNumOperands(generic) != 2 ||
      latIndexingMaps(generic, maps, 2) != 2)
    return LAT_CLASS_COPY;
  intptr_t loops = mlirAffineMapGetNumDims(maps[0]);
  if (mlirAffineMapGetNumResults(maps[0]) < loops)
    return LAT_CLASS_BROADCAST;
  return mlirAffineMapIsPermutation(maps[0]) &&
                 mlirAffineMapIsPermutation(maps[1]) &&
                 !mlirAffineMapEqual(maps[0], maps[1])
             ? LAT_CLASS_TRANSPOSE
             : LAT_CLASS_COPY;
}

LatOpClass latClassifyGeneric(MlirOperation op) {
  /* a linalg.map is a generic without indexing maps or iterators: every
     test below that reads them answers "no" for it (no reduction) */
  bool map = latOpIs(op, "linalg.map");
  BodyOps b = scanBody(op);
  LatOpClass c = latOpClassMake(LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED,
                                b.numOps ? b.numOps : 1);
  intptr_t numInputs = mlirOperationGetNumOperands(op) - 1;
  bool reduces = hasReduction(op);
  LatClassId contraction = reduces ? contractionClass(op, &b) : LAT_NUM_CLASSES;
  if (b.extract)
    c.id = LAT_CLASS_GATHER; /* gathers, nearest / bilinear resizes */
  else if (b.erf)
    c.id = LAT_CLASS_GELU;
  else if (b.sqrt && numInputs >= 3)
    c.id = LAT_CLASS_BATCHNORM;
  else if (contraction != LAT_NUM_CLASSES)
    c = latOpClassMake(contraction, LAT_ROLE_COSTED, 0);
  else if (reduces)
    c.id = readsWindows(op) ? LAT_CLASS_POOL
                            : LAT_CLASS_REDUCE; /* windows: a pooling */
  else if ((b.max || (b.cmp && b.select)) && b.min)
    c.id = LAT_CLASS_RELU6;
  else if ((b.max || (b.cmp && b.select)) && !b.add && !b.mul)
    c.id = LAT_CLASS_RELU;
  else if (b.exp)
    c.id = LAT_CLASS_EXP;
  else if (b.tanh)
    c.id = LAT_CLASS_TANH;
  else if (b.div)
    c.id = LAT_CLASS_DIV;
  else if (b.sqrt)
    c.id = LAT_CLASS_RSQRT;
  else if (b.sub && !b.add && !b.mul)
    c.id = LAT_CLASS_SUB;
  else if (b.mul && !b.add && !b.sub)
    c.id = LAT_CLASS_MUL;
  else if (b.add || b.sub || b.mul)
    c.id = LAT_CLASS_ADD;
  else if (b.cast)
    c.id = LAT_CLASS_CAST;
  else if (b.neg && !b.other)
    c.id = LAT_CLASS_NEG;
  else if (b.pow && !b.other)
    c.id = LAT_CLASS_POW;
  else if (b.numOps == 0 && map)
    c.id = LAT_CLASS_COPY; /* a map has no indexing maps to say more */
  else if (b.numOps == 0 && isIdentityCopy(op))
    c = latOpClassMake(LAT_CLASS_COPY, LAT_ROLE_VIEW, 0);
  else if (b.numOps == 0)
    c.id = copyKind(op); /* a yield of inputs: transpose or broadcast */
  c.name = latClassName(c.id);
  return c;
}
