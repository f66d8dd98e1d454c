/*===- classify.h - what each op of a TOSA / linalg graph is (internal) ----===*
 *
 * Every op gets a class name (the vocabulary of fusion.csv: conv2d, matmul,
 * add, relu, batchnorm, reduce, transpose, ...) and a role: costed ops become
 * kernels; views (reshapes) cost nothing but fusion looks through them;
 * everything else (constants, empty tensors, asserts, returns) is skipped.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_OP_CLASS_H
#define LATENCY_OP_CLASS_H

#include "mlir-c/IR.h"

#include <stdbool.h>

typedef enum {
  LAT_ROLE_SKIP,   /* no cost, not part of any kernel            */
  LAT_ROLE_VIEW,   /* no cost; fusion looks through it           */
  LAT_ROLE_COSTED, /* a kernel or part of one                    */
  LAT_ROLE_UNKNOWN /* not recognised: costed as a copy, warned   */
} LatRole;

/// Every class an op or a multi-op pattern can have. The names are the
/// vocabulary of fusion.csv and of kernel type names; code compares ids, so
/// a misspelt class does not compile.
#define LAT_CLASSES(X)                                                         \
  X(UNKNOWN, "unknown")                                                        \
  X(ADD, "add")                                                                \
  X(ASSERT, "assert")                                                          \
  X(BATCHNORM, "batchnorm")                                                    \
  X(BROADCAST, "broadcast")                                                    \
  X(CALL, "call")                                                              \
  X(CAST, "cast")                                                              \
  X(CLAMP, "clamp")                                                            \
  X(CONCAT, "concat")                                                          \
  X(CONST, "const")                                                            \
  X(CONTROL, "control")                                                        \
  X(CONV1D, "conv1d")                                                          \
  X(CONV2D, "conv2d")                                                          \
  X(CONV3D, "conv3d")                                                          \
  X(COPY, "copy")                                                              \
  X(DEPTHWISE_CONV2D, "depthwise_conv2d")                                      \
  X(DIV, "div")                                                                \
  X(ELEMENTWISE, "elementwise")                                                \
  X(ERF, "erf")                                                                \
  X(EXP, "exp")                                                                \
  X(FFT, "fft")                                                                \
  X(FILL, "fill")                                                              \
  X(GATHER, "gather")                                                          \
  X(MATMUL, "matmul")                                                          \
  X(MATVEC, "matvec")                                                          \
  X(MUL, "mul")                                                                \
  X(NEG, "neg")                                                                \
  X(PAD, "pad")                                                                \
  X(POOL, "pool")                                                              \
  X(POW, "pow")                                                                \
  X(REDUCE, "reduce")                                                          \
  X(RELU, "relu")                                                              \
  X(RELU6, "relu6")                                                            \
  X(RESHAPE, "reshape")                                                        \
  X(RESIZE, "resize")                                                          \
  X(RETURN, "return")                                                          \
  X(RSQRT, "rsqrt")                                                            \
  X(SCALAR, "scalar")                                                          \
  X(SIGMOID, "sigmoid")                                                        \
  X(SLICE, "slice")                                                            \
  X(SOFTMAX, "softmax")                                                        \
  X(SUB, "sub")                                                                \
  X(TANH, "tanh")                                                              \
  X(TRANSPOSE, "transpose")                                                    \
  X(TRANSPOSE_CONV2D, "transpose_conv2d")                                      \
  X(ATTENTION, "attention")                                                    \
  X(GELU, "gelu")                                                              \
  X(SILU, "silu")                                                              \
  X(ROPE, "rope")                                                              \
  X(LAYERNORM, "layernorm")                                                    \
  X(RMSNORM, "rmsnorm")                                                        \
  X(GROUPNORM, "groupnorm")

typedef enum {
#define LAT_CLASS_ID(id, name) LAT_CLASS_##id,
  LAT_CLASSES(LAT_CLASS_ID)
#undef LAT_CLASS_ID
      LAT_NUM_CLASSES
} LatClassId;

/// The fusion.csv name of class `id` (static), "unknown" out of range.
const char *latClassName(LatClassId id);

/// True for the convolution classes (conv1d/2d/3d, depthwise, transposed).
bool latClassIsConv(LatClassId id);

typedef struct {
  LatClassId id;
  const char *name; /* latClassName(id) */
  LatRole role;
  double flopsPerElement; /* elementwise work per output element   */
} LatOpClass;

/// A class of `id` with `role` and `flopsPerElement`.
LatOpClass latOpClassMake(LatClassId id, LatRole role, double flopsPerElement);

/// Classifies `op` (named TOSA / linalg ops, linalg.generic by its body and
/// iterator types, tensor and arith helpers).
LatOpClass latClassify(MlirOperation op);

/// Classifies a linalg.generic by its body, iterator types and indexing maps,
/// or a linalg.map by its body alone (classify_generic.c).
LatOpClass latClassifyGeneric(MlirOperation generic);

#endif /* LATENCY_OP_CLASS_H */
