/*===- tuple_hash.c - open-addressing index of points by axis values -------===*
 *
 * Keys compare bit-exactly after folding -0.0 into 0.0, so "same axis
 * values" means what a CSV reader produced from the same text.
 *
 *===----------------------------------------------------------------------===*/
#include "tuple_hash.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static uint64_t bitsOf(double v) {
  if (v == 0.0)
    v = 0.0; /* fold -0.0 */
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return bits;
}

/* The slots this hash picks are stored in the on-disk index cache
 * (index_cache.c) and only range-checked when read back: a change here, or
 * in how slots are probed, must bump kIndexVersion there. */
static uint64_t hashTuple(const double *t, int dim, unsigned skipMask) {
  uint64_t h = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < dim; i++) {
    if (skipMask & (1u << i))
      continue;
    h ^= bitsOf(t[i]);
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  /* Finish with MurmurHash3's fmix64: slots take the low bits, and without
   * it axis values that differ only in exponent and top mantissa bits (the
   * log-spaced integer grids of every profile) crowded a few runs of slots,
   * so inserting the 35,700 GEMM points probed ~200 ns each. */
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

static bool sameKey(const double *a, const double *b, int dim,
                    unsigned skipMask) {
  for (int i = 0; i < dim; i++)
    if (!(skipMask & (1u << i)) && a[i] != b[i])
      return false;
  return true;
}

bool cmTupleHashInit(CmTupleHash *hash, size_t capacity, const double *x,
                     int dim, unsigned skipMask) {
  size_t n = 16;
  while (n < 2 * capacity)
    n *= 2;
  hash->slots = calloc(n, sizeof *hash->slots);
  hash->mask = n - 1;
  hash->x = x;
  hash->dim = dim;
  hash->skipMask = skipMask;
  hash->count = 0;
  hash->borrowed = false;
  return hash->slots != NULL;
}

void cmTupleHashInitBorrowed(CmTupleHash *hash, const uint32_t *slots,
                             size_t numSlots, size_t count, const double *x,
                             int dim, unsigned skipMask) {
  hash->slots = (uint32_t *)slots; /* never written: borrowed is set */
  hash->mask = numSlots - 1;
  hash->x = x;
  hash->dim = dim;
  hash->skipMask = skipMask;
  hash->count = count;
  hash->borrowed = true;
}

/* Doubles the slots and places every stored key again (keys are distinct:
 * no compares). A key's slot depends only on its values and the size, so
 * what Find and Insert answer is unchanged. */
static bool grow(CmTupleHash *hash) {
  size_t mask = 2 * (hash->mask + 1) - 1;
  uint32_t *slots = calloc(mask + 1, sizeof *slots);
  if (!slots)
    return false;
  for (size_t s = 0; s <= hash->mask; s++) {
    uint32_t stored = hash->slots[s];
    if (!stored)
      continue;
    const double *key = hash->x + (size_t)(stored - 1) * hash->dim;
    size_t t = hashTuple(key, hash->dim, hash->skipMask) & mask;
    while (slots[t])
      t = (t + 1) & mask;
    slots[t] = stored;
  }
  free(hash->slots);
  hash->slots = slots;
  hash->mask = mask;
  return true;
}

void cmTupleHashFree(CmTupleHash *hash) {
  if (!hash->borrowed)
    free(hash->slots);
  hash->slots = NULL;
}

uint32_t cmTupleHashInsert(CmTupleHash *hash, uint32_t index) {
  assert(!hash->borrowed);
  const double *key = hash->x + (size_t)index * hash->dim;
  size_t slot = hashTuple(key, hash->dim, hash->skipMask) & hash->mask;
  for (;; slot = (slot + 1) & hash->mask) {
    uint32_t stored = hash->slots[slot];
    if (stored == 0) {
      if (2 * (hash->count + 1) > hash->mask + 1) /* keep load <= 1/2 */
        return grow(hash) ? cmTupleHashInsert(hash, index)
                          : CM_TUPLE_HASH_NO_MEMORY;
      hash->slots[slot] = index + 1;
      hash->count++;
      return index;
    }
    if (sameKey(hash->x + (size_t)(stored - 1) * hash->dim, key, hash->dim,
                hash->skipMask))
      return stored - 1;
  }
}

bool cmTupleHashSameKey(const CmTupleHash *hash, uint32_t a, uint32_t b) {
  return sameKey(hash->x + (size_t)a * hash->dim,
                 hash->x + (size_t)b * hash->dim, hash->dim, hash->skipMask);
}

void cmTupleHashRebase(CmTupleHash *hash, const double *x,
                       const size_t *newIndex) {
  for (size_t s = 0; s <= hash->mask; s++)
    if (hash->slots[s])
      hash->slots[s] = (uint32_t)newIndex[hash->slots[s] - 1] + 1;
  hash->x = x;
}

long cmTupleHashFind(const CmTupleHash *hash, const double *probe) {
  if (!hash->slots)
    return -1;
  size_t slot = hashTuple(probe, hash->dim, hash->skipMask) & hash->mask;
  for (;; slot = (slot + 1) & hash->mask) {
    uint32_t stored = hash->slots[slot];
    if (stored == 0)
      return -1;
    if (sameKey(hash->x + (size_t)(stored - 1) * hash->dim, probe, hash->dim,
                hash->skipMask))
      return (long)stored - 1;
  }
}
