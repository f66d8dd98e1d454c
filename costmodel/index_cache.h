/*===- index_cache.h - sealed groups and their indexes across processes ----===*
 *
 * Sealing a large group (averaging duplicates into the exact index) and
 * building its 1D line and 2D/3D subspace indexes cost a warm pass run on
 * the 35,700-point GEMM group ~6-7 ms, every process. An index entry keeps
 * one such structure (the seal, one axis's line index, one mask's subspace
 * index) in the on-disk cache as typed arrays that are mapped and used in
 * place. It is keyed by a hash of the group's rows (raw axis values,
 * latencies, transforms: everything a seal and an index are built from), so
 * any table or policy edit that changes a group's rows gives another name.
 *
 * An entry is handed out only when its magic, version, kind, key, section
 * sizes and checksum check out; the caller then checks its structure
 * (indices in range, hash slots loaded at most 1/2) and rejects it with
 * cmIndexEntryReject when something is off, which notes it as corrupt: the
 * structure is then built as without a cache, and the entry rewritten.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_INDEX_CACHE_H
#define LATENCY_INDEX_CACHE_H

#include "cache_file.h"
#include "policy.h"

/* Groups with fewer rows build faster than an entry is opened. */
enum { kCmIndexCacheMinRows = 1000, kCmIndexMaxSections = 6 };

/// What an entry holds.
typedef enum {
  CM_INDEX_SEAL = 1,    /* points, means, transformed points, exact slots */
  CM_INDEX_LINES = 2,   /* the line index along one axis (param: axis)    */
  CM_INDEX_SUBSPACE = 3 /* the subspace index of one mask (param: mask)   */
} CmIndexKind;

/// One typed array of an entry: `count` elements of `elemSize` bytes.
typedef struct {
  const void *data;  /* the elements (to write) or into the map (read) */
  uint64_t count;    /* elements                                       */
  uint64_t elemSize; /* bytes per element                             */
} CmIndexSection;

/// A mapped entry; its sections point into the map until released.
typedef struct {
  void *map;                   /* the whole file, read-only */
  size_t mapSize;              /* its bytes                 */
  char path[kCmCachePathSize]; /* for notes                 */
  CmIndexSection sections[kCmIndexMaxSections];
} CmIndexEntry;

/// Returns the key of a group's rows: `numRows` rows of `dim` raw axis
/// values `x`, latencies `y`, and the axis `transforms`; 0 when the cache is
/// off or the group has fewer than kCmIndexCacheMinRows rows (no entry).
uint64_t cmIndexCacheKey(const double *x, const double *y, size_t numRows,
                         int dim, const CmTransform *transforms);

/// Maps the entry (`key`, `kind`, `param`) whose `numSections` sections have
/// the element sizes `elemSizes` into `entry`; returns false when the cache
/// is off, there is no entry, or it is corrupt (then noted).
bool cmIndexEntryOpen(uint64_t key, CmIndexKind kind, unsigned param,
                      int numSections, const uint64_t *elemSizes,
                      CmIndexEntry *entry);

/// Notes `entry` as corrupt for `why` and releases it.
void cmIndexEntryReject(CmIndexEntry *entry, const char *why);

/// Unmaps the map at `map` of `size` bytes; NULL is a no-op.
void cmIndexMapRelease(void *map, size_t size);

/// Writes the entry (`key`, `kind`, `param`) of `numSections` sections
/// through a temporary file and a rename; failures only cost the next
/// process a build.
void cmIndexEntryStore(uint64_t key, CmIndexKind kind, unsigned param,
                       const CmIndexSection *sections, int numSections);

/// Returns whether the `numSlots` hash `slots` over `numPoints` points are
/// safe to probe: a power of two, every slot 0 or at most `numPoints`,
/// exactly `count` filled, and at most half of them.
bool cmIndexSlotsValid(const uint32_t *slots, uint64_t numSlots, uint64_t count,
                       uint64_t numPoints);

#endif /* LATENCY_INDEX_CACHE_H */
