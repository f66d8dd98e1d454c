/*===- ir_util.h - small helpers over the MLIR C API (internal) ------------===*
 *
 * Names, shapes, element types and locations of ops and values, so the
 * classification and description code reads as what it means.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_IR_UTIL_H
#define LATENCY_IR_UTIL_H

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { LAT_MAX_RANK = 8 };

/// Shape facts of a value: static dims (dynamic ones count as 1), element
/// type spelling and size.
typedef struct {
  bool isTensor;              /* a ranked tensor or memref                  */
  bool dynamic;               /* some dim was dynamic (counted as 1)        */
  bool overflow;              /* the element count overflowed int64         */
  int rank;                   /* number of dims                             */
  int64_t dims[LAT_MAX_RANK]; /* static sizes                             */
  double elements;            /* product of dims                            */
  char dtype[24];             /* MLIR spelling: bf16, f32, i8, ... or ""    */
  double elementBytes;        /* bytes per element, 0 when unknown          */
} LatShape;

/// Returns operand `i` of `op`, or a null value when `op` is null or has no
/// operand `i`. Every operand access in passes/ goes through here: a
/// matcher that guesses wrong about an op gets a null value, never a read
/// past the operand list (test/lit/diagnostics/crash-shapes.mlir).
MlirValue latOperand(MlirOperation op, intptr_t i);

/// Returns result `i` of `op`, or a null value when there is none.
MlirValue latResult(MlirOperation op, intptr_t i);

/// Returns the first use of `value`, or a null use for a null value.
MlirOpOperand latFirstUse(MlirValue value);

/// Returns the length of the longest prefix of `text` (`length` bytes) of
/// at most `max` bytes that ends on a UTF-8 character boundary: a name cut
/// to fit a buffer never ends inside a character.
size_t latUtf8Prefix(const char *text, size_t length, size_t max);

/// Returns true when `op` is named exactly `name`.
bool latOpIs(MlirOperation op, const char *name);

/// Returns true when `op`'s name starts with `prefix`.
bool latOpHasPrefix(MlirOperation op, const char *prefix);

/// Copies `op`'s name into `out` (`size` bytes).
void latOpName(MlirOperation op, char *out, size_t size);

/// Describes the type of `value`; a null value describes as no tensor, with
/// no element type.
LatShape latShapeOf(MlirValue value);

/// Returns the number of distinct ops using the results of `op`.
int latCountUsers(MlirOperation op);

/// Writes `op`'s location as text into `out` (`size` bytes).
void latLocationText(MlirOperation op, char *out, size_t size);

/// Writes `attr` as text into `out` (`size` bytes, truncated).
void latAttributeText(MlirAttribute attr, char *out, size_t size);

/// Returns the producer op of `value`, or a null op for block arguments.
MlirOperation latProducer(MlirValue value);

/// Returns true when `op` makes an init tensor that carries no data into
/// the op using it (tensor.empty, linalg.fill); false for a null op.
bool latIsInitProducer(MlirOperation op);

/// True when `a` is a dense splat of zero (float +0.0 or integer): LLVM emits
/// it as zero-filled memory, which the JIT never copies and every read finds on
/// the one zero page. False for a null attribute.
bool latIsZeroSplat(MlirAttribute a);

/// Returns the value attribute of the constant (tosa.const `values`,
/// arith.constant `value`) producing `value`, or a null attribute.
MlirAttribute latConstantValue(MlirValue value);

/// Copies the indexing maps of the linalg op `op` into `maps` (the first
/// `max`) and returns how many it has; 0 when it has no `indexing_maps` or
/// one of them is not an affine map.
intptr_t latIndexingMaps(MlirOperation op, MlirAffineMap *maps, intptr_t max);

/// Returns the integer `index` of an i64 array attribute `name` of `op`
/// (DenseI64ArrayAttr, DenseI32ArrayAttr, dense integer elements or an
/// ArrayAttr of integers), or `fallback`.
int64_t latI64ArrayAttr(MlirOperation op, const char *name, int index,
                        int64_t fallback);

#endif /* LATENCY_IR_UTIL_H */
