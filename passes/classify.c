/*===- op_class.c - what each op of a TOSA / linalg graph is ---------------===*
 *
 * Named ops map through tables (exact names, then name prefixes); a few are
 * refined by their attributes or operands (tosa.clamp bounds, x + 0, a
 * dtype-changing copy); linalg.generic is classified by generic_class.c.
 *
 *===----------------------------------------------------------------------===*/
#include "classify.h"

#include "ir_util.h"

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
    /* control flow: the ops in their regions are costed (control_flow.c) */
    {"scf.for", "control", LAT_ROLE_SKIP, 0},
    {"scf.forall", "control", LAT_ROLE_SKIP, 0},
    {"scf.parallel", "control", LAT_ROLE_SKIP, 0},
    {"scf.while", "control", LAT_ROLE_SKIP, 0},
    {"scf.if", "control", LAT_ROLE_SKIP, 0},
    {"scf.index_switch", "control", LAT_ROLE_SKIP, 0},
    {"scf.execute_region", "control", LAT_ROLE_SKIP, 0},
    {"scf.yield", "control", LAT_ROLE_SKIP, 0},
    {"scf.condition", "control", LAT_ROLE_SKIP, 0},
    {"scf.forall.in_parallel", "control", LAT_ROLE_SKIP, 0},
    {"scf.reduce", "control", LAT_ROLE_SKIP, 0},
    {"cf.br", "control", LAT_ROLE_SKIP, 0},
    {"cf.cond_br", "control", LAT_ROLE_SKIP, 0},
    {"cf.switch", "control", LAT_ROLE_SKIP, 0},
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
    return latClassifyGeneric(op);
  /* Ops that produce no tensor (asserts, scalar checks, index math) cost
   * nothing we model. */
  bool tensorResult = false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    tensorResult |= latShapeOf(latResult(op, r)).isTensor;
  if (!tensorResult)
    return (LatOpClass){"scalar", LAT_ROLE_SKIP, 0};
  /* arith and math ops applied to whole tensors are elementwise. */
  if (latOpHasPrefix(op, "arith.") || latOpHasPrefix(op, "math."))
    return (LatOpClass){"elementwise", LAT_ROLE_COSTED, 1};
  return (LatOpClass){"unknown", LAT_ROLE_UNKNOWN, 1};
}
