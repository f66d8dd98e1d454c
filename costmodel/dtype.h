/*===- dtype.h - framework spellings of element types (internal) -----------===*
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_COSTMODEL_DTYPE_H
#define LATENCY_COSTMODEL_DTYPE_H

#include "latency/dtype.h"

#include <stddef.h>

/// Returns the MLIR spelling of framework element type `alias` (bfloat16,
/// half, float32, ..., compared without case), or NULL when it is none.
const char *cmDtypeFromAlias(const char *alias);

/// Writes to `out` (at most `max`) the alias spellings that
/// cmCanonicalRegimeValue maps to dtype `canonical` (compared without case);
/// returns how many.
size_t cmDtypeAliasesOf(const char *canonical, const char **out, size_t max);

/// Returns true when regime key `key` holds element types (ends in "dtype").
bool cmIsDtypeKey(const char *key);

#endif /* LATENCY_COSTMODEL_DTYPE_H */
