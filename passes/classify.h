/*===- op_class.h - what each op of a TOSA / linalg graph is (internal) ----===*
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

typedef struct {
  const char *name; /* class name, static */
  LatRole role;
  double flopsPerElement; /* elementwise work per output element   */
} LatOpClass;

/// Classifies `op` (named TOSA / linalg ops, linalg.generic by its body and
/// iterator types, tensor and arith helpers).
LatOpClass latClassify(MlirOperation op);

/// Classifies a linalg.generic by its body, iterator types and indexing maps
/// (generic_class.c).
LatOpClass latClassifyGeneric(MlirOperation generic);

#endif /* LATENCY_OP_CLASS_H */
