/*===- buffers.c - host buffers for the arguments of a lowered function ---===*
 *
 * Random data, not constants: a kernel measured on zeros could take a fast
 * path the real weights never take. Floats are uniform in [-1, 1) (no
 * denormals, no NaN); integers are small, and index-like integers (i32,
 * i64, index) are 0 so that a gather or a scatter never reads out of
 * bounds.
 *
 *===----------------------------------------------------------------------===*/
#include "buffers.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t nextRandom(uint64_t *state) { /* xorshift64* */
  uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ull;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in [-1, 1): 24 random mantissa bits. */
static float randomUnit(uint64_t *state) {
  return (float)(nextRandom(state) >> 40) * (1.0f / 8388608.0f) - 1.0f;
}

/* IEEE half of a float in [-1, 1): round toward zero, tiny values to 0. */
static uint16_t toHalf(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000u);
  int exponent = (int)((bits >> 23) & 0xff) - 127 + 15;
  if (exponent <= 0)
    return sign;
  return (uint16_t)(sign | (exponent << 10) | ((bits >> 13) & 0x3ffu));
}

void lpFillRandom(void *data, size_t count, LpElementKind kind,
                  size_t elementBytes, bool indexLike, uint64_t *seed) {
  unsigned char *bytes = data;
  for (size_t i = 0; i < count; i++) {
    float f = randomUnit(seed);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    if (kind == LP_ELEM_F32) {
      memcpy(bytes + 4 * i, &f, 4);
    } else if (kind == LP_ELEM_F64) {
      double d = f;
      memcpy(bytes + 8 * i, &d, 8);
    } else if (kind == LP_ELEM_F16 || kind == LP_ELEM_BF16) {
      uint16_t h = kind == LP_ELEM_F16 ? toHalf(f) : (uint16_t)(bits >> 16);
      memcpy(bytes + 2 * i, &h, 2);
    } else if (kind == LP_ELEM_INT) {
      int64_t v = indexLike ? 0 : (int64_t)(nextRandom(seed) >> 60) - 8;
      if (elementBytes == 1 && !indexLike)
        v &= 1; /* i1 and i8 alike: 0 or 1 */
      memcpy(bytes + elementBytes * i, &v, elementBytes); /* little end */
    } else {
      memset(bytes + elementBytes * i, 0, elementBytes);
    }
  }
}

static bool elementKind(MlirType t, LpBuffer *out) {
  out->isIndexLike = false;
  if (mlirTypeIsAF32(t) || mlirTypeIsAF64(t) || mlirTypeIsAF16(t) ||
      mlirTypeIsABF16(t)) {
    out->kind = mlirTypeIsAF32(t)   ? LP_ELEM_F32
                : mlirTypeIsAF64(t) ? LP_ELEM_F64
                : mlirTypeIsAF16(t) ? LP_ELEM_F16
                                    : LP_ELEM_BF16;
    out->elementBytes = out->kind == LP_ELEM_F64   ? 8
                        : out->kind == LP_ELEM_F32 ? 4
                                                   : 2;
    return true;
  }
  if (mlirTypeIsAIndex(t) || mlirTypeIsAInteger(t)) {
    unsigned width = mlirTypeIsAIndex(t) ? 64 : mlirIntegerTypeGetWidth(t);
    if (width > 64)
      return false;
    out->kind = LP_ELEM_INT;
    out->elementBytes = width <= 8 ? 1 : width <= 16 ? 2 : width <= 32 ? 4 : 8;
    out->isIndexLike = width >= 32;
    return true;
  }
  if (mlirTypeIsAFloat(t) && mlirFloatTypeGetWidth(t) <= 8) {
    out->kind = LP_ELEM_BYTE;
    out->elementBytes = 1;
    return true;
  }
  return false;
}

bool lpBufferFromType(MlirType type, LpBuffer *out, char *err, size_t size) {
  memset(out, 0, sizeof *out);
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type)) {
    snprintf(err, size, "not a statically shaped ranked tensor");
    return false;
  }
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank > LP_MAX_RANK) {
    snprintf(err, size, "rank %d is above %d", (int)rank, LP_MAX_RANK);
    return false;
  }
  out->rank = (int)rank;
  for (intptr_t d = 0; d < rank; d++)
    out->dims[d] = mlirShapedTypeGetDimSize(type, d);
  if (!elementKind(mlirShapedTypeGetElementType(type), out)) {
    snprintf(err, size, "unsupported element type");
    return false;
  }
  /* a count past what a size_t holds would wrap to a small buffer the
   * generated code then overruns */
  double bytes = (double)out->elementBytes;
  for (int d = 0; d < out->rank; d++)
    bytes *= (double)out->dims[d];
  if (bytes > (double)(SIZE_MAX / 4)) {
    snprintf(err, size, "%.3g bytes, more than this host can address", bytes);
    return false;
  }
  return true;
}

size_t lpBufferElements(const LpBuffer *b) {
  size_t n = 1;
  for (int d = 0; d < b->rank; d++)
    n *= (size_t)b->dims[d];
  return n;
}

bool lpBufferAllocate(LpBuffer *b, uint64_t *seed) {
  size_t count = lpBufferElements(b);
  size_t bytes = (count * b->elementBytes + 63) / 64 * 64;
  b->data = aligned_alloc(64, bytes ? bytes : 64);
  b->descriptor = calloc(3 + 2 * (size_t)b->rank, sizeof *b->descriptor);
  if (!b->data || !b->descriptor) {
    lpBufferFree(b);
    return false;
  }
  lpFillRandom(b->data, count, b->kind, b->elementBytes, b->isIndexLike, seed);
  memcpy(&b->descriptor[0], &b->data, sizeof b->data); /* allocated */
  memcpy(&b->descriptor[1], &b->data, sizeof b->data); /* aligned   */
  int64_t stride = 1;
  for (int d = b->rank - 1; d >= 0; d--) {
    b->descriptor[3 + d] = b->dims[d];
    b->descriptor[3 + b->rank + d] = stride;
    stride *= b->dims[d];
  }
  return true;
}

void lpBufferFree(LpBuffer *b) {
  free(b->data);
  free(b->descriptor);
  b->data = NULL;
  b->descriptor = NULL;
}
