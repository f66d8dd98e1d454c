/*===- tuple_hash.h - open-addressing index of points by axis values -------===*
 *
 * Maps a tuple of axis values (all axes, or all but a masked-out few) to one
 * representative point. Slots store point index + 1 (0 = empty); keys are
 * read from the point array itself, so the table is just uint32 slots. The
 * load factor stays at or below 1/2, so probes are short.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TUPLE_HASH_H
#define LATENCY_TUPLE_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t *slots;   /* point index + 1, or 0                  */
  size_t mask;       /* number of slots - 1 (a power of two)    */
  const double *x;   /* points, dim values each (borrowed)      */
  int dim;           /* values per point                        */
  unsigned skipMask; /* axes left out of the key                */
  size_t count;      /* keys stored                             */
  bool borrowed;     /* slots live in a mapped cache entry      */
} CmTupleHash;

/* What cmTupleHashInsert returns when growing the slots ran out of memory. */
#define CM_TUPLE_HASH_NO_MEMORY UINT32_MAX

/// Initialises `hash` for `capacity` keys over `x` (dim values per point),
/// ignoring the axes in `skipMask`; more keys grow it. Returns false when
/// out of memory.
bool cmTupleHashInit(CmTupleHash *hash, size_t capacity, const double *x,
                     int dim, unsigned skipMask);

/// Initialises `hash` over `x` on `numSlots` borrowed `slots` holding
/// `count` keys (a mapped index entry, checked by cmIndexSlotsValid); the
/// hash only reads them, never grows and never frees them.
void cmTupleHashInitBorrowed(CmTupleHash *hash, const uint32_t *slots,
                             size_t numSlots, size_t count, const double *x,
                             int dim, unsigned skipMask);

/// Frees the slots of `hash`; a zeroed hash is a no-op.
void cmTupleHashFree(CmTupleHash *hash);

/// Returns the point whose key equals point `index`'s key, inserting `index`
/// as the representative when there is none (then returns `index`), or
/// CM_TUPLE_HASH_NO_MEMORY when the slots had to grow and could not.
uint32_t cmTupleHashInsert(CmTupleHash *hash, uint32_t index);

/// Returns whether points `a` and `b` have the same key (skipped axes
/// ignored). Index builders use it to give a point that repeats its
/// predecessor's key the predecessor's answer without probing: tables list
/// their rows in axis order, so most lines and sets come as runs.
bool cmTupleHashSameKey(const CmTupleHash *hash, uint32_t a, uint32_t b);

/// Moves `hash` onto new storage of the same keys: `x` now holds them, and
/// the representative stored as index i becomes `newIndex[i]`. Slots stay
/// where they are (a key's slot depends on its values only).
void cmTupleHashRebase(CmTupleHash *hash, const double *x,
                       const size_t *newIndex);

/// Returns the representative point whose key equals the key of the tuple
/// `probe` (dim values, skipped axes ignored), or -1.
long cmTupleHashFind(const CmTupleHash *hash, const double *probe);

#endif /* LATENCY_TUPLE_HASH_H */
