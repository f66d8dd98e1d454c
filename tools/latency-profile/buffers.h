/*===- buffers.h - host buffers for the arguments of a lowered function ---===*
 *
 * A lowered function (pipelines.h) takes each tensor argument, then each
 * tensor result, as a pointer to a strided memref descriptor:
 *   { allocated, aligned, offset, sizes[rank], strides[rank] }.
 * An LpBuffer owns one such descriptor and its data, filled with random
 * values that are not constants (no folding can know them).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_BUFFERS_H
#define LATENCY_PROFILE_BUFFERS_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { LP_MAX_RANK = 8 };

typedef enum {
  LP_ELEM_F32,
  LP_ELEM_F64,
  LP_ELEM_F16,
  LP_ELEM_BF16,
  LP_ELEM_INT, /* any integer or index: small values, 0 for indices */
  LP_ELEM_BYTE /* other one-byte types (f8 variants): zeros          */
} LpElementKind;

/// One argument or result buffer of a lowered function.
typedef struct {
  int rank;
  int64_t dims[LP_MAX_RANK];
  size_t elementBytes;
  LpElementKind kind;
  bool isIndexLike;    /* i32, i64 or index: filled with 0 (gather indices) */
  void *data;          /* owned, 64-byte aligned                            */
  int64_t *descriptor; /* owned: allocated, aligned, offset, sizes, strides */
} LpBuffer;

/// Describes `type` into `*out` when it is a statically shaped ranked
/// tensor of a supported element type; false with the reason in `err`.
bool lpBufferFromType(MlirType type, LpBuffer *out, char *err, size_t size);

/// Returns the number of elements of `buffer`.
size_t lpBufferElements(const LpBuffer *buffer);

/// Allocates the data and descriptor of `buffer` and fills the data with
/// random values from `seed`; false when out of memory.
bool lpBufferAllocate(LpBuffer *buffer, uint64_t *seed);

/// Releases what `buffer` owns; an unallocated buffer is a no-op.
void lpBufferFree(LpBuffer *buffer);

/// Fills `count` elements of `kind` at `data` with random values: floats
/// uniform in [-1, 1), small integers in [-8, 8) (0 when `indexLike`).
void lpFillRandom(void *data, size_t count, LpElementKind kind,
                  size_t elementBytes, bool indexLike, uint64_t *seed);

#endif /* LATENCY_PROFILE_BUFFERS_H */
