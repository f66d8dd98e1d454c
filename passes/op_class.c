/*===- op_class.c - what each op of a TOSA / linalg graph is ---------------===*
 *
 * Named ops map through a table; linalg.generic is recognised from the ops
 * in its body (math.erf -> gelu, max/select -> relu, rsqrt with several
 * inputs -> batchnorm, ...) and a reduction iterator (-> reduce).
 *
 *===----------------------------------------------------------------------===*/
#include "op_class.h"

#include "ir_util.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

typedef struct {
  const char *op;
  const char *cls;
  LatRole role;
  double flops;
} NamedClass;

static const NamedClass kNamed[] = {
    /* compute */
    {"func.call", "call", LAT_ROLE_COSTED, 0}, /* costed as its callee */
    {"tosa.conv2d", "conv2d", LAT_ROLE_COSTED, 0},
    {"tosa.depthwise_conv2d", "depthwise_conv2d", LAT_ROLE_COSTED, 0},
    {"tosa.matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.matmul_transpose_b", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.batch_matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.quantized_matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.quantized_batch_matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"tosa.cast_to_block_scaled", "cast", LAT_ROLE_COSTED, 1},
    {"tosa.cast_from_block_scaled", "cast", LAT_ROLE_COSTED, 1},
    /* state the runtime keeps in place (a KV cache): its consumers read it */
    {"tosa.variable_read", "copy", LAT_ROLE_VIEW, 0},
    /* elementwise */
    {"tosa.add", "add", LAT_ROLE_COSTED, 1},
    {"linalg.add", "add", LAT_ROLE_COSTED, 1},
    {"tosa.sub", "sub", LAT_ROLE_COSTED, 1},
    {"linalg.sub", "sub", LAT_ROLE_COSTED, 1},
    {"tosa.mul", "mul", LAT_ROLE_COSTED, 1},
    {"linalg.mul", "mul", LAT_ROLE_COSTED, 1},
    {"linalg.div", "div", LAT_ROLE_COSTED, 1},
    {"tosa.reciprocal", "div", LAT_ROLE_COSTED, 1},
    {"tosa.rsqrt", "rsqrt", LAT_ROLE_COSTED, 2},
    {"tosa.clamp", "clamp", LAT_ROLE_COSTED, 2},
    /* tosa.maximum is classified in latClassify: relu only against a
     * constant. */
    {"tosa.sigmoid", "sigmoid", LAT_ROLE_COSTED, 4},
    {"tosa.tanh", "tanh", LAT_ROLE_COSTED, 4},
    {"tosa.exp", "exp", LAT_ROLE_COSTED, 4},
    {"linalg.exp", "exp", LAT_ROLE_COSTED, 4},
    {"linalg.powf", "pow", LAT_ROLE_COSTED, 4},
    {"linalg.negf", "neg", LAT_ROLE_COSTED, 1},
    {"linalg.softmax", "softmax", LAT_ROLE_COSTED, 5},
    {"tosa.negate", "neg", LAT_ROLE_COSTED, 1},
    {"tosa.pow", "pow", LAT_ROLE_COSTED, 4},
    {"tosa.rescale", "cast", LAT_ROLE_COSTED, 2},
    {"tosa.argmax", "reduce", LAT_ROLE_COSTED, 1},
    {"tosa.table", "gather", LAT_ROLE_COSTED, 0},
    {"tosa.scatter", "gather", LAT_ROLE_COSTED, 0},
    {"tosa.concat", "concat", LAT_ROLE_COSTED, 0},
    {"tensor.concat", "concat", LAT_ROLE_COSTED, 0},
    {"tosa.tile", "copy", LAT_ROLE_COSTED, 0},
    {"tosa.reverse", "copy", LAT_ROLE_COSTED, 0},
    {"tosa.resize", "resize", LAT_ROLE_COSTED, 4},
    {"tensor.insert_slice", "copy", LAT_ROLE_COSTED, 0},
    {"tensor.gather", "gather", LAT_ROLE_COSTED, 0},
    {"tensor.scatter", "gather", LAT_ROLE_COSTED, 0},
    {"linalg.pack", "copy", LAT_ROLE_COSTED, 0},
    {"linalg.unpack", "copy", LAT_ROLE_COSTED, 0},
    {"tosa.conv3d", "conv3d", LAT_ROLE_COSTED, 0},
    {"tosa.transpose_conv2d", "transpose_conv2d", LAT_ROLE_COSTED, 0},
    {"tosa.fft2d", "fft", LAT_ROLE_COSTED, 10},
    {"tosa.rfft2d", "fft", LAT_ROLE_COSTED, 10},
    {"linalg.matvec", "matvec", LAT_ROLE_COSTED, 0},
    {"linalg.vecmat", "matvec", LAT_ROLE_COSTED, 0},
    {"linalg.batch_matvec", "matvec", LAT_ROLE_COSTED, 0},
    {"linalg.batch_vecmat", "matvec", LAT_ROLE_COSTED, 0},
    {"linalg.dot", "matvec", LAT_ROLE_COSTED, 0},
    {"linalg.contract", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.batch_reduce_matmul", "matmul", LAT_ROLE_COSTED, 0},
    {"linalg.elementwise", "elementwise", LAT_ROLE_COSTED, 1},
    {"linalg.map", "elementwise", LAT_ROLE_COSTED, 1},
    {"tensor.bitcast", "reshape", LAT_ROLE_VIEW, 0},
    {"tensor.splat", "const", LAT_ROLE_SKIP, 0},
    {"tensor.from_elements", "const", LAT_ROLE_SKIP, 0},
    {"tosa.variable", "const", LAT_ROLE_SKIP, 0},
    /* weights kept as ml_program globals (some torch-mlir and IREE imports);
     * a mutable global is state read in place, not a constant */
    {"ml_program.global_load_const", "const", LAT_ROLE_SKIP, 0},
    {"ml_program.global_load", "copy", LAT_ROLE_VIEW, 0},
    {"tosa.erf", "erf", LAT_ROLE_COSTED, 8},
    {"math.erf", "erf", LAT_ROLE_COSTED, 8}, /* on tensors, in TOSA graphs */
    {"math.exp", "exp", LAT_ROLE_COSTED, 4},
    {"math.tanh", "tanh", LAT_ROLE_COSTED, 4},
    {"math.rsqrt", "rsqrt", LAT_ROLE_COSTED, 2},
    {"math.sqrt", "rsqrt", LAT_ROLE_COSTED, 2},
    {"tosa.cast", "cast", LAT_ROLE_COSTED, 1},
    {"tosa.identity", "copy", LAT_ROLE_VIEW, 0},
    {"linalg.copy", "copy", LAT_ROLE_COSTED, 0},
    {"linalg.broadcast", "broadcast", LAT_ROLE_COSTED, 0},
    /* reductions, pooling, data movement */
    {"tosa.reduce_sum", "reduce", LAT_ROLE_COSTED, 1},
    {"tosa.reduce_max", "reduce", LAT_ROLE_COSTED, 1},
    {"linalg.reduce", "reduce", LAT_ROLE_COSTED, 1},
    {"tosa.avg_pool2d", "pool", LAT_ROLE_COSTED, 0},
    {"tosa.max_pool2d", "pool", LAT_ROLE_COSTED, 0},
    {"tosa.transpose", "transpose", LAT_ROLE_COSTED, 0},
    {"linalg.transpose", "transpose", LAT_ROLE_COSTED, 0},
    {"tosa.gather", "gather", LAT_ROLE_COSTED, 0},
    {"tosa.slice", "slice", LAT_ROLE_COSTED, 0},
    {"tensor.extract_slice", "slice", LAT_ROLE_COSTED, 0},
    {"tensor.pad", "pad", LAT_ROLE_COSTED, 0},
    {"tosa.pad", "pad", LAT_ROLE_COSTED, 0},
    /* views: no data moves */
    {"tosa.reshape", "reshape", LAT_ROLE_VIEW, 0},
    {"tensor.collapse_shape", "reshape", LAT_ROLE_VIEW, 0},
    {"tensor.expand_shape", "reshape", LAT_ROLE_VIEW, 0},
    {"tensor.reshape", "reshape", LAT_ROLE_VIEW, 0},
    {"tensor.cast", "reshape", LAT_ROLE_VIEW, 0},
    /* no cost at all */
    {"tosa.const", "const", LAT_ROLE_SKIP, 0},
    {"tosa.const_shape", "const", LAT_ROLE_SKIP, 0},
    {"arith.constant", "const", LAT_ROLE_SKIP, 0},
    {"tensor.empty", "const", LAT_ROLE_SKIP, 0},
    {"linalg.fill", "fill", LAT_ROLE_SKIP, 0},
    {"cf.assert", "assert", LAT_ROLE_SKIP, 0},
    {"func.return", "return", LAT_ROLE_SKIP, 0},
    {"tensor.extract", "scalar", LAT_ROLE_SKIP, 0},
    {"tensor.dim", "scalar", LAT_ROLE_SKIP, 0},
};

/* Prefixes of named op families, first match wins. */
static const NamedClass kPrefixes[] = {
    {"linalg.depthwise_conv_2d", "depthwise_conv2d", LAT_ROLE_COSTED, 0},
    {"linalg.depthwise_conv_", "depthwise_conv2d", LAT_ROLE_COSTED, 0},
    {"linalg.conv_2d", "conv2d", LAT_ROLE_COSTED, 0},
    {"linalg.conv_3d", "conv3d", LAT_ROLE_COSTED, 0},
    {"linalg.conv_1d", "conv1d", LAT_ROLE_COSTED, 0},
    {"linalg.pooling_", "pool", LAT_ROLE_COSTED, 0},
    {"linalg.matmul", "matmul", LAT_ROLE_COSTED, 0},       /* _transpose_a/b */
    {"linalg.batch_matmul", "matmul", LAT_ROLE_COSTED, 0}, /* _transpose_a/b */
    {"tosa.reduce_", "reduce", LAT_ROLE_COSTED, 1},
    {"tosa.logical_", "elementwise", LAT_ROLE_COSTED, 1},
    {"tosa.bitwise_", "elementwise", LAT_ROLE_COSTED, 1},
};

/* Elementwise ops of TOSA and named linalg without a class of their own. */
static const char *const kElementwise[] = {
    "tosa.abs",
    "tosa.ceil",
    "tosa.floor",
    "tosa.log",
    "tosa.sin",
    "tosa.cos",
    "tosa.minimum",
    "tosa.greater",
    "tosa.greater_equal",
    "tosa.equal",
    "tosa.select",
    "tosa.intdiv",
    "tosa.clz",
    "tosa.arithmetic_right_shift",
    "tosa.logical_left_shift",
    "tosa.logical_right_shift",
    "linalg.abs",
    "linalg.ceil",
    "linalg.floor",
    "linalg.log",
    "linalg.max",
    "linalg.min",
    "linalg.sqrt",
    "linalg.rsqrt",
    "linalg.square",
    "linalg.tanh",
    "linalg.erf",
    "linalg.reciprocal",
    "linalg.round",
    "linalg.select",
    "linalg.div_unsigned",
};

typedef struct {
  bool erf, max, min, select, cmp, exp, tanh, sqrt, div, add, sub, mul;
  bool cast, extract, neg, pow, other;
  int numOps;
} BodyOps;

/* True when an operand of `op` is an arith.constant float of at least 3e38
 * (FLT_MAX, as lowered TOSA clamps bound ReLU from above). */
static bool hasHugeConstantOperand(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirOperation p = latProducer(mlirOperationGetOperand(op, i));
    if (mlirOperationIsNull(p) || !latOpIs(p, "arith.constant"))
      continue;
    MlirAttribute v = mlirOperationGetAttributeByName(
        p, mlirStringRefCreateFromCString("value"));
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
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, 0)),
                     mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  MlirAttribute maps = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != 2)
    return false;
  LatShape shape = latShapeOf(mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < 2; i++) {
    MlirAttribute map = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(map) ||
        !readsInPlace(mlirAffineMapAttrGetValue(map), &shape))
      return false;
  }
  return true;
}

/* True when the first input's indexing map reads it at a combination of
 * loops (d1 + d4, as a convolution's window does), not at single loops. */
static bool readsWindows(MlirOperation generic) {
  MlirAttribute maps = mlirOperationGetAttributeByName(
      generic, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) < 1 ||
      !mlirAttributeIsAAffineMap(mlirArrayAttrGetElement(maps, 0)))
    return false;
  MlirAffineMap map =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); i++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (!mlirAffineExprIsADim(e) && !mlirAffineExprIsAConstant(e))
      return true;
  }
  return false;
}

/* A generalised contraction: two inputs multiplied and accumulated over
 * reduction loops (what linalg-generalize-named-ops makes of a matmul or a
 * conv). Convolutions read their input through windows. */
static const char *contractionClass(MlirOperation generic, const BodyOps *b) {
  int tensorInputs = 0; /* scalar inputs are zero points (quantized ops) */
  for (intptr_t i = 0; i + 1 < mlirOperationGetNumOperands(generic); i++)
    tensorInputs += latShapeOf(mlirOperationGetOperand(generic, i)).isTensor;
  if (tensorInputs != 2 || !b->mul || !b->add || b->other || b->div || b->exp ||
      b->max || b->min || b->select || b->sqrt)
    return NULL;
  if (!readsWindows(generic))
    return "matmul";
  int rank = latShapeOf(mlirOperationGetResult(generic, 0)).rank;
  return rank == 3 ? "conv1d" : rank == 5 ? "conv3d" : "conv2d";
}

/* What a generic that yields its one input does: "transpose" when the
 * input's map permutes all loops, "broadcast" when it reads fewer loops
 * than there are (the input has lower rank), else "copy". */
static const char *copyKind(MlirOperation generic) {
  MlirAttribute maps = mlirOperationGetAttributeByName(
      generic, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirOperationGetNumOperands(generic) != 2 || mlirAttributeIsNull(maps) ||
      !mlirAttributeIsAArray(maps) || mlirArrayAttrGetNumElements(maps) != 2 ||
      !mlirAttributeIsAAffineMap(mlirArrayAttrGetElement(maps, 0)))
    return "copy";
  MlirAffineMap in =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  intptr_t loops = mlirAffineMapGetNumDims(in);
  if (mlirAffineMapGetNumResults(in) < loops)
    return "broadcast";
  return mlirAffineMapIsPermutation(in) && !mlirAffineMapIsIdentity(in)
             ? "transpose"
             : "copy";
}

static LatOpClass classifyGeneric(MlirOperation op) {
  BodyOps b = scanBody(op);
  LatOpClass c = {"elementwise", LAT_ROLE_COSTED, b.numOps ? b.numOps : 1};
  intptr_t numInputs = mlirOperationGetNumOperands(op) - 1;
  if (b.extract)
    c.name = "gather"; /* gathers, nearest / bilinear resizes */
  else if (b.erf)
    c.name = "gelu";
  else if (b.sqrt && numInputs >= 3)
    c.name = "batchnorm";
  else if (hasReduction(op) && contractionClass(op, &b))
    c = (LatOpClass){contractionClass(op, &b), LAT_ROLE_COSTED, 0};
  else if (hasReduction(op))
    c.name = readsWindows(op) ? "pool" : "reduce"; /* windows: a pooling */
  else if ((b.max || (b.cmp && b.select)) && b.min)
    c.name = "relu6";
  else if ((b.max || (b.cmp && b.select)) && !b.add && !b.mul)
    c.name = "relu";
  else if (b.exp)
    c.name = "exp";
  else if (b.tanh)
    c.name = "tanh";
  else if (b.div)
    c.name = "div";
  else if (b.sqrt)
    c.name = "rsqrt";
  else if (b.sub && !b.add && !b.mul)
    c.name = "sub";
  else if (b.mul && !b.add && !b.sub)
    c.name = "mul";
  else if (b.add || b.sub || b.mul)
    c.name = "add";
  else if (b.cast)
    c.name = "cast";
  else if (b.neg && !b.other)
    c.name = "neg";
  else if (b.pow && !b.other)
    c.name = "pow";
  else if (b.numOps == 0 && isIdentityCopy(op))
    c = (LatOpClass){"copy", LAT_ROLE_VIEW, 0};
  else if (b.numOps == 0)
    c.name = copyKind(op); /* a yield of inputs: transpose or broadcast */
  return c;
}

/* True when operand `i` of `op` is produced by a constant. */
static bool isConstantOperand(MlirOperation op, intptr_t i) {
  MlirOperation p = latProducer(mlirOperationGetOperand(op, i));
  return !mlirOperationIsNull(p) &&
         (latOpIs(p, "tosa.const") || latOpIs(p, "arith.constant"));
}

/* True when operand `i` of `op` is a constant splat of `value` and the
 * other operand already has the result's type: then `op` (x + 0, x - 0,
 * x * 1, as exporters emit to materialise broadcasts) returns the other
 * operand unchanged, which upstream canonicalisation folds. */
static bool isIdentityOperand(MlirOperation op, intptr_t i, double value) {
  MlirOperation p = latProducer(mlirOperationGetOperand(op, i));
  if (mlirOperationIsNull(p) ||
      !(latOpIs(p, "tosa.const") || latOpIs(p, "arith.constant")))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      p, mlirStringRefCreateFromCString(latOpIs(p, "tosa.const") ? "values"
                                                                 : "value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      !mlirDenseElementsAttrIsSplat(a))
    return false;
  MlirAttribute splat = mlirDenseElementsAttrGetSplatValue(a);
  bool same = mlirAttributeIsAFloat(splat)
                  ? mlirFloatAttrGetValueDouble(splat) == value
              : mlirAttributeIsAInteger(splat)
                  ? (double)mlirIntegerAttrGetValueInt(splat) == value
                  : false;
  MlirValue other = mlirOperationGetOperand(op, 1 - i);
  return same && mlirTypeEqual(mlirValueGetType(other),
                               mlirValueGetType(mlirOperationGetResult(op, 0)));
}

/* x + 0, 0 + x, x - 0, x * 1, 1 * x (tosa.mul's third operand is a shift). */
static bool isIdentityArithmetic(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1 ||
      mlirOperationGetNumOperands(op) < 2)
    return false;
  if (latOpIs(op, "tosa.add"))
    return isIdentityOperand(op, 1, 0) || isIdentityOperand(op, 0, 0);
  if (latOpIs(op, "tosa.sub"))
    return isIdentityOperand(op, 1, 0);
  if (latOpIs(op, "tosa.mul"))
    return isIdentityOperand(op, 1, 1) || isIdentityOperand(op, 0, 1);
  return false;
}

/* True when `op`'s first operand and result differ in element type (a
 * linalg.copy from bf16 into f32 converts). */
static bool changesElementType(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) < 1 || mlirOperationGetNumResults(op) < 1)
    return false;
  LatShape in = latShapeOf(mlirOperationGetOperand(op, 0));
  LatShape out = latShapeOf(mlirOperationGetResult(op, 0));
  return in.isTensor && out.isTensor && strcmp(in.dtype, out.dtype) != 0;
}

/* The value of float attribute `name` of `op`, or `fallback`. */
static double floatAttr(MlirOperation op, const char *name, double fallback) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a)
             ? mlirFloatAttrGetValueDouble(a)
             : fallback;
}

/* tosa.clamp is how exporters spell ReLU (0, +max) and ReLU6 (0, 6). */
static const char *clampClass(MlirOperation op) {
  double low = floatAttr(op, "min_val", -1), high = floatAttr(op, "max_val", 0);
  if (low != 0)
    return "clamp";
  return high == 6 ? "relu6" : high >= 3.0e38 ? "relu" : "clamp";
}

LatOpClass latClassify(MlirOperation op) {
  if (isIdentityArithmetic(op))
    return (LatOpClass){"copy", LAT_ROLE_VIEW, 0};
  if (latOpIs(op, "tosa.clamp"))
    return (LatOpClass){clampClass(op), LAT_ROLE_COSTED, 2};
  if (latOpIs(op, "linalg.copy") && changesElementType(op))
    return (LatOpClass){"cast", LAT_ROLE_COSTED, 1};
  if (latOpIs(op, "tosa.maximum")) /* PyTorch's ReLU is max(x, 0) */
    return (LatOpClass){isConstantOperand(op, 0) || isConstantOperand(op, 1)
                            ? "relu"
                            : "elementwise",
                        LAT_ROLE_COSTED, 1};
  for (size_t i = 0; i < sizeof kNamed / sizeof kNamed[0]; i++)
    if (latOpIs(op, kNamed[i].op))
      return (LatOpClass){kNamed[i].cls, kNamed[i].role, kNamed[i].flops};
  for (size_t i = 0; i < sizeof kPrefixes / sizeof kPrefixes[0]; i++)
    if (latOpHasPrefix(op, kPrefixes[i].op))
      return (LatOpClass){kPrefixes[i].cls, kPrefixes[i].role, 0};
  for (size_t i = 0; i < sizeof kElementwise / sizeof kElementwise[0]; i++)
    if (latOpIs(op, kElementwise[i]))
      return (LatOpClass){"elementwise", LAT_ROLE_COSTED, 1};
  if (latOpIs(op, "linalg.generic"))
    return classifyGeneric(op);
  /* Ops that produce no tensor (asserts, scalar checks, index math) cost
   * nothing we model. */
  bool tensorResult = false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    tensorResult |= latShapeOf(mlirOperationGetResult(op, r)).isTensor;
  if (!tensorResult)
    return (LatOpClass){"scalar", LAT_ROLE_SKIP, 0};
  /* arith and math ops applied to whole tensors are elementwise. */
  if (latOpHasPrefix(op, "arith.") || latOpHasPrefix(op, "math."))
    return (LatOpClass){"elementwise", LAT_ROLE_COSTED, 1};
  return (LatOpClass){"unknown", LAT_ROLE_UNKNOWN, 1};
}
