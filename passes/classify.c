/*===- classify.c - what each op of a TOSA / linalg graph is ---------------===*
 *
 * Named ops map through tables (exact names, then name prefixes); a few are
 * refined by their attributes or operands (tosa.clamp bounds, x + 0, a
 * dtype-changing copy); linalg.generic is classified by classify_generic.c.
 *
 *===----------------------------------------------------------------------===*/
#include "classify.h"

#include "ir_util.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <assert.h>
#include <math.h>
#include <string.h>

typedef struct {
  const char *op;
  LatClassId cls;
  LatRole role;
  double flops;
} NamedClass;

static const NamedClass kNamed[] = {
    /* compute */
    {"func.call", LAT_CLASS_CALL, LAT_ROLE_COSTED,
     0}, /* costed as its callee */
    {"tosa.conv2d", LAT_CLASS_CONV2D, LAT_ROLE_COSTED, 0},
    {"tosa.depthwise_conv2d", LAT_CLASS_DEPTHWISE_CONV2D, LAT_ROLE_COSTED, 0},
    {"tosa.matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.matmul_transpose_b", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.batch_matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.quantized_matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.quantized_batch_matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"tosa.cast_to_block_scaled", LAT_CLASS_CAST, LAT_ROLE_COSTED, 1},
    {"tosa.cast_from_block_scaled", LAT_CLASS_CAST, LAT_ROLE_COSTED, 1},
    /* state the runtime keeps in place (a KV cache): its consumers read it */
    {"tosa.variable_read", LAT_CLASS_COPY, LAT_ROLE_VIEW, 0},
    /* elementwise */
    {"tosa.add", LAT_CLASS_ADD, LAT_ROLE_COSTED, 1},
    {"linalg.add", LAT_CLASS_ADD, LAT_ROLE_COSTED, 1},
    {"tosa.sub", LAT_CLASS_SUB, LAT_ROLE_COSTED, 1},
    {"linalg.sub", LAT_CLASS_SUB, LAT_ROLE_COSTED, 1},
    {"tosa.mul", LAT_CLASS_MUL, LAT_ROLE_COSTED, 1},
    {"linalg.mul", LAT_CLASS_MUL, LAT_ROLE_COSTED, 1},
    {"linalg.div", LAT_CLASS_DIV, LAT_ROLE_COSTED, 1},
    {"tosa.reciprocal", LAT_CLASS_DIV, LAT_ROLE_COSTED, 1},
    {"tosa.rsqrt", LAT_CLASS_RSQRT, LAT_ROLE_COSTED, 2},
    {"tosa.clamp", LAT_CLASS_CLAMP, LAT_ROLE_COSTED, 2},
    /* tosa.maximum is classified in latClassify: relu only against a
     * constant. */
    {"tosa.sigmoid", LAT_CLASS_SIGMOID, LAT_ROLE_COSTED, 4},
    {"tosa.tanh", LAT_CLASS_TANH, LAT_ROLE_COSTED, 4},
    {"tosa.exp", LAT_CLASS_EXP, LAT_ROLE_COSTED, 4},
    {"linalg.exp", LAT_CLASS_EXP, LAT_ROLE_COSTED, 4},
    {"linalg.powf", LAT_CLASS_POW, LAT_ROLE_COSTED, 4},
    {"linalg.negf", LAT_CLASS_NEG, LAT_ROLE_COSTED, 1},
    {"linalg.softmax", LAT_CLASS_SOFTMAX, LAT_ROLE_COSTED, 5},
    {"tosa.negate", LAT_CLASS_NEG, LAT_ROLE_COSTED, 1},
    {"tosa.pow", LAT_CLASS_POW, LAT_ROLE_COSTED, 4},
    {"tosa.rescale", LAT_CLASS_CAST, LAT_ROLE_COSTED, 2},
    {"tosa.argmax", LAT_CLASS_REDUCE, LAT_ROLE_COSTED, 1},
    {"tosa.table", LAT_CLASS_GATHER, LAT_ROLE_COSTED, 0},
    {"tosa.scatter", LAT_CLASS_GATHER, LAT_ROLE_COSTED, 0},
    {"tosa.concat", LAT_CLASS_CONCAT, LAT_ROLE_COSTED, 0},
    {"tensor.concat", LAT_CLASS_CONCAT, LAT_ROLE_COSTED, 0},
    {"tosa.tile", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"tosa.reverse", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"tosa.resize", LAT_CLASS_RESIZE, LAT_ROLE_COSTED, 4},
    {"tensor.insert_slice", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"tensor.gather", LAT_CLASS_GATHER, LAT_ROLE_COSTED, 0},
    {"tensor.scatter", LAT_CLASS_GATHER, LAT_ROLE_COSTED, 0},
    {"linalg.pack", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"linalg.unpack", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"tosa.conv3d", LAT_CLASS_CONV3D, LAT_ROLE_COSTED, 0},
    {"tosa.transpose_conv2d", LAT_CLASS_TRANSPOSE_CONV2D, LAT_ROLE_COSTED, 0},
    {"tosa.fft2d", LAT_CLASS_FFT, LAT_ROLE_COSTED, 10},
    {"tosa.rfft2d", LAT_CLASS_FFT, LAT_ROLE_COSTED, 10},
    {"linalg.matvec", LAT_CLASS_MATVEC, LAT_ROLE_COSTED, 0},
    {"linalg.vecmat", LAT_CLASS_MATVEC, LAT_ROLE_COSTED, 0},
    {"linalg.batch_matvec", LAT_CLASS_MATVEC, LAT_ROLE_COSTED, 0},
    {"linalg.batch_vecmat", LAT_CLASS_MATVEC, LAT_ROLE_COSTED, 0},
    {"linalg.dot", LAT_CLASS_MATVEC, LAT_ROLE_COSTED, 0},
    {"linalg.contract", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.batch_reduce_matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED, 0},
    {"linalg.elementwise", LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED, 1},
    {"tensor.bitcast", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    {"tensor.splat", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"tensor.from_elements", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"tosa.variable", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    /* weights kept as ml_program globals (some torch-mlir and IREE imports);
     * a mutable global is state read in place, not a constant */
    {"ml_program.global_load_const", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"ml_program.global_load", LAT_CLASS_COPY, LAT_ROLE_VIEW, 0},
    {"tosa.erf", LAT_CLASS_ERF, LAT_ROLE_COSTED, 8},
    {"math.erf", LAT_CLASS_ERF, LAT_ROLE_COSTED,
     8}, /* on tensors, in TOSA graphs */
    {"math.exp", LAT_CLASS_EXP, LAT_ROLE_COSTED, 4},
    {"math.tanh", LAT_CLASS_TANH, LAT_ROLE_COSTED, 4},
    {"math.rsqrt", LAT_CLASS_RSQRT, LAT_ROLE_COSTED, 2},
    {"math.sqrt", LAT_CLASS_RSQRT, LAT_ROLE_COSTED, 2},
    {"tosa.cast", LAT_CLASS_CAST, LAT_ROLE_COSTED, 1},
    {"tosa.identity", LAT_CLASS_COPY, LAT_ROLE_VIEW, 0},
    {"linalg.copy", LAT_CLASS_COPY, LAT_ROLE_COSTED, 0},
    {"linalg.broadcast", LAT_CLASS_BROADCAST, LAT_ROLE_COSTED, 0},
    /* reductions, pooling, data movement */
    {"tosa.reduce_sum", LAT_CLASS_REDUCE, LAT_ROLE_COSTED, 1},
    {"tosa.reduce_max", LAT_CLASS_REDUCE, LAT_ROLE_COSTED, 1},
    {"linalg.reduce", LAT_CLASS_REDUCE, LAT_ROLE_COSTED, 1},
    {"tosa.avg_pool2d", LAT_CLASS_POOL, LAT_ROLE_COSTED, 0},
    {"tosa.max_pool2d", LAT_CLASS_POOL, LAT_ROLE_COSTED, 0},
    {"tosa.transpose", LAT_CLASS_TRANSPOSE, LAT_ROLE_COSTED, 0},
    {"linalg.transpose", LAT_CLASS_TRANSPOSE, LAT_ROLE_COSTED, 0},
    {"tosa.gather", LAT_CLASS_GATHER, LAT_ROLE_COSTED, 0},
    {"tosa.slice", LAT_CLASS_SLICE, LAT_ROLE_COSTED, 0},
    {"tensor.extract_slice", LAT_CLASS_SLICE, LAT_ROLE_COSTED, 0},
    {"tensor.pad", LAT_CLASS_PAD, LAT_ROLE_COSTED, 0},
    {"tosa.pad", LAT_CLASS_PAD, LAT_ROLE_COSTED, 0},
    /* views: no data moves */
    {"tosa.reshape", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    {"tensor.collapse_shape", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    {"tensor.expand_shape", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    {"tensor.reshape", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    {"tensor.cast", LAT_CLASS_RESHAPE, LAT_ROLE_VIEW, 0},
    /* control flow: the ops in their regions are costed (control_flow.c) */
    {"scf.for", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.forall", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.parallel", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.while", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.if", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.index_switch", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.execute_region", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.yield", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.condition", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.forall.in_parallel", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"scf.reduce", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"cf.br", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"cf.cond_br", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    {"cf.switch", LAT_CLASS_CONTROL, LAT_ROLE_SKIP, 0},
    /* no cost at all */
    {"tosa.const", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"tosa.const_shape", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"arith.constant", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"tensor.empty", LAT_CLASS_CONST, LAT_ROLE_SKIP, 0},
    {"linalg.fill", LAT_CLASS_FILL, LAT_ROLE_SKIP, 0},
    {"cf.assert", LAT_CLASS_ASSERT, LAT_ROLE_SKIP, 0},
    {"func.return", LAT_CLASS_RETURN, LAT_ROLE_SKIP, 0},
    {"tensor.extract", LAT_CLASS_SCALAR, LAT_ROLE_SKIP, 0},
    {"tensor.dim", LAT_CLASS_SCALAR, LAT_ROLE_SKIP, 0},
};

/* Prefixes of named op families, first match wins. */
static const NamedClass kPrefixes[] = {
    {"linalg.depthwise_conv_2d", LAT_CLASS_DEPTHWISE_CONV2D, LAT_ROLE_COSTED,
     0},
    {"linalg.depthwise_conv_", LAT_CLASS_DEPTHWISE_CONV2D, LAT_ROLE_COSTED, 0},
    {"linalg.conv_2d", LAT_CLASS_CONV2D, LAT_ROLE_COSTED, 0},
    {"linalg.conv_3d", LAT_CLASS_CONV3D, LAT_ROLE_COSTED, 0},
    {"linalg.conv_1d", LAT_CLASS_CONV1D, LAT_ROLE_COSTED, 0},
    {"linalg.pooling_", LAT_CLASS_POOL, LAT_ROLE_COSTED, 0},
    {"linalg.matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED,
     0}, /* _transpose_a/b */
    {"linalg.batch_matmul", LAT_CLASS_MATMUL, LAT_ROLE_COSTED,
     0}, /* _transpose_a/b */
    {"tosa.reduce_", LAT_CLASS_REDUCE, LAT_ROLE_COSTED, 1},
    {"tosa.logical_", LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED, 1},
    {"tosa.bitwise_", LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED, 1},
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

/* True when operand `i` of `op` is produced by a constant. */
static bool isConstantOperand(MlirOperation op, intptr_t i) {
  return !mlirAttributeIsNull(latConstantValue(latOperand(op, i)));
}

/* True when operand `i` of `op` is a constant splat of `value` and the
 * other operand already has the result's type: then `op` (x + 0, x - 0,
 * x * 1, as exporters emit to materialise broadcasts) returns the other
 * operand unchanged, which upstream canonicalisation folds. */
static bool isIdentityOperand(MlirOperation op, intptr_t i, double value) {
  MlirAttribute a = latConstantValue(latOperand(op, i));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      !mlirDenseElementsAttrIsSplat(a))
    return false;
  MlirAttribute splat = mlirDenseElementsAttrGetSplatValue(a);
  bool same = mlirAttributeIsAFloat(splat)
                  ? mlirFloatAttrGetValueDouble(splat) == value
              : mlirAttributeIsAInteger(splat)
                  ? (double)mlirIntegerAttrGetValueInt(splat) == value
                  : false;
  MlirValue other = latOperand(op, 1 - i);
  return same && mlirTypeEqual(mlirValueGetType(other),
                               mlirValueGetType(latResult(op, 0)));
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
  LatShape in = latShapeOf(latOperand(op, 0));
  LatShape out = latShapeOf(latResult(op, 0));
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

/* The value of integer attribute `a`, read by its own type's signedness
 * (MLIR asserts on a getter of the other kind). */
static double integerAttrValue(MlirAttribute a) {
  MlirType type = mlirAttributeGetType(a);
  if (mlirTypeIsAInteger(type) && mlirIntegerTypeIsUnsigned(type))
    return (double)mlirIntegerAttrGetValueUInt(a);
  if (mlirTypeIsAInteger(type) && mlirIntegerTypeIsSigned(type))
    return (double)mlirIntegerAttrGetValueSInt(a);
  return (double)mlirIntegerAttrGetValueInt(a);
}

/* True when `op` is a tosa.clamp whose bounds take in every value of its
 * element type: an integer clamp over the type's whole range (TFLite's
 * int8 exports put one after each rescale) or a float one from -inf to
 * +inf. Upstream canonicalisation folds it (TOSA's ClampIsNoOp, and through
 * a pipeline that lowers TOSA first, arith's min/max with the type's
 * bounds); priced as an elementwise pass it was a tenth of an int8
 * MobileNet. */
static bool isNoOpClamp(MlirOperation op) {
  if (!latOpIs(op, "tosa.clamp") || mlirOperationGetNumOperands(op) < 1)
    return false;
  MlirType type = mlirValueGetType(latOperand(op, 0));
  if (!mlirTypeIsAShaped(type))
    return false;
  MlirType element = mlirShapedTypeGetElementType(type);
  MlirAttribute low = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("min_val"));
  MlirAttribute high = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("max_val"));
  if (mlirAttributeIsNull(low) || mlirAttributeIsNull(high))
    return false;
  if (mlirAttributeIsAFloat(low) && mlirAttributeIsAFloat(high)) {
    double lo = mlirFloatAttrGetValueDouble(low);
    double hi = mlirFloatAttrGetValueDouble(high);
    return isinf(lo) && lo < 0 && isinf(hi) && hi > 0;
  }
  if (!mlirTypeIsAInteger(element) || !mlirAttributeIsAInteger(low) ||
      !mlirAttributeIsAInteger(high))
    return false;
  unsigned width = mlirIntegerTypeGetWidth(element);
  if (width < 2 || width > 32) /* i1 and i48 / i64: not from exporters */
    return false;
  if (mlirIntegerTypeIsUnsigned(element))
    return integerAttrValue(low) == 0 &&
           integerAttrValue(high) >= (double)((1ull << width) - 1);
  double top = (double)((1ull << (width - 1)) - 1);
  return integerAttrValue(low) <= -top - 1 && integerAttrValue(high) >= top;
}

/* tosa.clamp is how exporters spell ReLU (0, +max) and ReLU6 (0, 6). */
static LatClassId clampClass(MlirOperation op) {
  double low = floatAttr(op, "min_val", -1), high = floatAttr(op, "max_val", 0);
  if (low != 0)
    return LAT_CLASS_CLAMP;
  return high == 6        ? LAT_CLASS_RELU6
         : high >= 3.0e38 ? LAT_CLASS_RELU
                          : LAT_CLASS_CLAMP;
}

LatOpClass latClassify(MlirOperation op) {
  if (isIdentityArithmetic(op) || isNoOpClamp(op))
    return latOpClassMake(LAT_CLASS_COPY, LAT_ROLE_VIEW, 0);
  if (latOpIs(op, "tosa.clamp"))
    return latOpClassMake(clampClass(op), LAT_ROLE_COSTED, 2);
  if (latOpIs(op, "linalg.copy") && changesElementType(op))
    return latOpClassMake(LAT_CLASS_CAST, LAT_ROLE_COSTED, 1);
  if (latOpIs(op, "tosa.maximum")) /* PyTorch's ReLU is max(x, 0) */
    return latOpClassMake(isConstantOperand(op, 0) || isConstantOperand(op, 1)
                              ? LAT_CLASS_RELU
                              : LAT_CLASS_ELEMENTWISE,
                          LAT_ROLE_COSTED, 1);
  for (size_t i = 0; i < sizeof kNamed / sizeof kNamed[0]; i++)
    if (latOpIs(op, kNamed[i].op))
      return latOpClassMake(kNamed[i].cls, kNamed[i].role, kNamed[i].flops);
  for (size_t i = 0; i < sizeof kPrefixes / sizeof kPrefixes[0]; i++)
    if (latOpHasPrefix(op, kPrefixes[i].op))
      return latOpClassMake(kPrefixes[i].cls, kPrefixes[i].role, 0);
  for (size_t i = 0; i < sizeof kElementwise / sizeof kElementwise[0]; i++)
    if (latOpIs(op, kElementwise[i]))
      return latOpClassMake(LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED, 1);
  if (latOpIs(op, "linalg.generic") || latOpIs(op, "linalg.map"))
    return latClassifyGeneric(op); /* what the body computes */
  /* Ops that produce no tensor (asserts, scalar checks, index math) cost
   * nothing we model. */
  bool tensorResult = false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    tensorResult |= latShapeOf(latResult(op, r)).isTensor;
  if (!tensorResult)
    return latOpClassMake(LAT_CLASS_SCALAR, LAT_ROLE_SKIP, 0);
  /* arith and math ops applied to whole tensors are elementwise. */
  if (latOpHasPrefix(op, "arith.") || latOpHasPrefix(op, "math."))
    return latOpClassMake(LAT_CLASS_ELEMENTWISE, LAT_ROLE_COSTED, 1);
  return latOpClassMake(LAT_CLASS_UNKNOWN, LAT_ROLE_UNKNOWN, 1);
}

const char *latClassName(LatClassId id) {
  static const char *const names[] = {
#define LAT_CLASS_NAME(id, name) name,
      LAT_CLASSES(LAT_CLASS_NAME)
#undef LAT_CLASS_NAME
  };
  static_assert(sizeof names / sizeof names[0] == LAT_NUM_CLASSES,
                "one name per class");
  return (unsigned)id < LAT_NUM_CLASSES ? names[id] : "unknown";
}

bool latClassIsConv(LatClassId id) {
  return id == LAT_CLASS_CONV1D || id == LAT_CLASS_CONV2D ||
         id == LAT_CLASS_CONV3D || id == LAT_CLASS_DEPTHWISE_CONV2D ||
         id == LAT_CLASS_TRANSPOSE_CONV2D;
}

LatOpClass latOpClassMake(LatClassId id, LatRole role, double flopsPerElement) {
  return (LatOpClass){id, latClassName(id), role, flopsPerElement};
}
