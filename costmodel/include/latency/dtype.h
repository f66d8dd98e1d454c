/*===- latency/dtype.h - element types: sizes and precisions ---------------===*
 *
 * The one table of element types for the whole project: the cost model's
 * work formulas and roofline bytes and the passes' tensor sizes read it, so
 * i4 is half a byte everywhere. Spellings are MLIR's (bf16, f8E4M3FN, i8).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_DTYPE_H
#define LATENCY_DTYPE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Returns the element size in bytes of the MLIR dtype spelling `dtype`
/// (bf16 -> 2, f32 -> 4, i8 -> 1, ...), or 0 when unknown.
double cmDtypeGetSize(const char *dtype);

/// Returns the MLIR element type a deployment precision computes in: "bf16",
/// "f16", "fp8" (f8E4M3FN) or "int8" (i8), MLIR spellings accepted too; NULL
/// for "as-is" or "" (each kernel keeps its type) and for a name it does not
/// know (`*known` false). The string is static.
const char *cmPrecisionGetDtype(const char *precision, bool *known);

/// Returns true for the floating-point element types a deployment precision
/// re-types (f64, f32, tf32, f16, bf16); integer indices and i1 masks keep
/// their type.
bool cmDtypeIsFloat(const char *dtype);

/// Returns true for MLIR's integer spellings: i8, i32, ui8, si16 ... (not
/// index).
bool cmDtypeIsInteger(const char *dtype);

/// Returns true for the 2-byte floats (f16, bf16): the types a CPU without
/// half arithmetic converts (latency/converted_chain.h).
bool cmDtypeIsHalfFloat(const char *dtype);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_DTYPE_H */
