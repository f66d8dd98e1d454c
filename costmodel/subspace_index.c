/*===- subspace_index.c - 2D/3D candidate sets and their triangulations ----===*
 *
 * Same shape as line_index.c: hash the other-axis values to a set number,
 * count, fill. A set's triangulation is published once (or its failure
 * reason, so a hopeless set is not re-triangulated on every query); large
 * ones come from the on-disk cache when it has them (triangulation_cache.c).
 * A large group's index itself is kept in the on-disk cache and mapped in
 * place (index_cache.h); only its sets are allocated then.
 *
 *===----------------------------------------------------------------------===*/
#include "subspace_index.h"

#include "index_cache.h"
#include "triangulation_cache.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets the hash is first sized for; it grows (as line_index.c's lines). */
enum { kFirstSets = 1024 };

struct CmSubspaceSet {
  uint32_t *points;               /* group point indices (borrowed)   */
  size_t count;                   /* entries in points                */
  _Atomic(CmTriangulation *) tri; /* built on first use               */
  atomic_bool failed;             /* triangulation impossible         */
  char reason[160];               /* why, when failed                 */
};

struct CmSubspaceIndex {
  unsigned mask;         /* axes interpolated over               */
  int dim;               /* bits in mask                          */
  int axes[CM_MAX_AXES]; /* the axes of mask, ascending           */
  CmTupleHash byOthers;  /* other-axis values -> first point      */
  uint32_t *setOf;       /* point -> set number                   */
  uint32_t *members;     /* points grouped by set                 */
  char name[96];         /* "2D (m,n)", for reasons               */
  CmSubspaceSet *sets;   /* numSets entries                       */
  size_t numSets;
  void *map;      /* mapped entry setOf and members borrow */
  size_t mapSize; /*   from (NULL: they are owned)         */
};

/* The sections of a subspace index entry. */
enum { kSetCount, kSetOf, kSetMembers, kSetStart, kSetSlots, kSetSections };
static const uint64_t kSetSizes[kSetSections] = {
    sizeof(uint64_t), sizeof(uint32_t), sizeof(uint32_t), sizeof(uint64_t),
    sizeof(uint32_t)};

void cmSubspaceIndexDestroy(CmSubspaceIndex *index) {
  if (!index)
    return;
  for (size_t i = 0; i < index->numSets; i++)
    cmTriangulationDestroy(atomic_load(&index->sets[i].tri));
  cmTupleHashFree(&index->byOthers);
  if (index->map) {
    cmIndexMapRelease(index->map, index->mapSize);
  } else {
    free(index->setOf);
    free(index->members);
  }
  free(index->sets);
  free(index);
}

/* Fills the mask's axes and the name ("2D (m,n)") of `index`. */
static void nameIndex(const CmGroup *g, unsigned mask, CmSubspaceIndex *index) {
  index->mask = mask;
  for (int a = 0; a < g->dim; a++)
    if (mask & (1u << a))
      index->axes[index->dim++] = a;
  int len = snprintf(index->name, sizeof index->name, "%dD (", index->dim);
  for (int k = 0; k < index->dim && len < (int)sizeof index->name; k++)
    len += snprintf(index->name + len, sizeof index->name - len, "%s%s",
                    k ? "," : "", g->policy->axes[index->axes[k]]);
  if (len < (int)sizeof index->name - 1)
    snprintf(index->name + len, sizeof index->name - len, ")");
}

/* Returns whether the mapped arrays of a subspace index over `n` points are
 * safe to use: every set number, member and set range in range. */
static bool setArraysValid(const CmIndexSection *s, size_t n) {
  uint64_t numSets = 0;
  if (s[kSetCount].count == 1)
    memcpy(&numSets, s[kSetCount].data, sizeof numSets);
  if (s[kSetCount].count != 1 || numSets == 0 || numSets > n ||
      s[kSetOf].count != n || s[kSetMembers].count != n ||
      s[kSetStart].count != numSets + 1 ||
      !cmIndexSlotsValid(s[kSetSlots].data, s[kSetSlots].count, numSets, n))
    return false;
  const uint32_t *setOf = s[kSetOf].data, *members = s[kSetMembers].data;
  const uint64_t *start = s[kSetStart].data;
  for (size_t p = 0; p < n; p++)
    if (setOf[p] >= numSets || members[p] >= n)
      return false;
  for (size_t i = 0; i < numSets; i++)
    if (start[i] > start[i + 1])
      return false;
  return start[0] == 0 && start[numSets] == n;
}

/* Returns the index of `g` for `mask` from its cache entry, or NULL when
 * there is no sound one (a corrupt one is noted). */
static CmSubspaceIndex *subspaceIndexFromEntry(const CmGroup *g,
                                               unsigned mask) {
  CmIndexEntry e;
  if (!cmIndexEntryOpen(g->cacheKey, CM_INDEX_SUBSPACE, mask, kSetSections,
                        kSetSizes, &e))
    return NULL;
  const CmIndexSection *s = e.sections;
  if (!setArraysValid(s, g->numPoints)) {
    cmIndexEntryReject(&e, "a subspace index out of range");
    return NULL;
  }
  CmSubspaceIndex *index = calloc(1, sizeof *index);
  size_t numSets = s[kSetStart].count - 1;
  CmSubspaceSet *sets = index ? calloc(numSets + 1, sizeof *sets) : NULL;
  if (!sets) {
    free(index);
    cmIndexMapRelease(e.map, e.mapSize);
    return NULL;
  }
  nameIndex(g, mask, index);
  const uint64_t *start = s[kSetStart].data;
  index->setOf = (uint32_t *)s[kSetOf].data; /* read-only map */
  index->members = (uint32_t *)s[kSetMembers].data;
  for (size_t i = 0; i < numSets; i++) {
    sets[i].points = index->members + start[i];
    sets[i].count = start[i + 1] - start[i];
  }
  index->sets = sets;
  index->numSets = numSets;
  cmTupleHashInitBorrowed(&index->byOthers, s[kSetSlots].data,
                          s[kSetSlots].count, numSets, g->x, g->dim, mask);
  index->map = e.map;
  index->mapSize = e.mapSize;
  return index;
}

/* Writes `index` of `g` to its cache entry. */
static void storeSubspaceIndex(const CmGroup *g, const CmSubspaceIndex *index) {
  uint64_t numSets = index->numSets;
  uint64_t *start = malloc((numSets + 1) * sizeof *start);
  if (!start)
    return; /* the next process builds it */
  for (size_t i = 0; i < numSets; i++)
    start[i] = (uint64_t)(index->sets[i].points - index->members);
  start[numSets] = g->numPoints;
  CmIndexSection s[kSetSections] = {
      {&numSets, 1, sizeof numSets},
      {index->setOf, g->numPoints, sizeof *index->setOf},
      {index->members, g->numPoints, sizeof *index->members},
      {start, numSets + 1, sizeof *start},
      {index->byOthers.slots, index->byOthers.mask + 1, sizeof(uint32_t)}};
  cmIndexEntryStore(g->cacheKey, CM_INDEX_SUBSPACE, index->mask, s,
                    kSetSections);
  free(start);
}

static CmSubspaceIndex *subspaceIndexCreate(const CmGroup *g, unsigned mask) {
  size_t n = g->numPoints;
  CmSubspaceIndex *index = calloc(1, sizeof *index);
  if (!index)
    return NULL;
  nameIndex(g, mask, index);
  index->setOf = malloc((n + 1) * sizeof *index->setOf);
  index->members = malloc((n + 1) * sizeof *index->members);
  size_t *start = calloc(n + 2, sizeof *start);
  if (!start || !index->setOf || !index->members ||
      !cmTupleHashInit(&index->byOthers, n < kFirstSets ? n : kFirstSets, g->x,
                       g->dim, mask))
    goto fail;
  for (size_t p = 0; p < n; p++) {
    if (p > 0 &&
        cmTupleHashSameKey(&index->byOthers, (uint32_t)p - 1, (uint32_t)p)) {
      index->setOf[p] = index->setOf[p - 1]; /* a run: the hash agrees */
    } else {
      uint32_t first = cmTupleHashInsert(&index->byOthers, (uint32_t)p);
      if (first == CM_TUPLE_HASH_NO_MEMORY)
        goto fail;
      index->setOf[p] =
          first == p ? (uint32_t)index->numSets++ : index->setOf[first];
    }
    start[index->setOf[p] + 1]++;
  }
  index->sets = calloc(index->numSets + 1, sizeof *index->sets);
  if (!index->sets)
    goto fail;
  for (size_t s = 0; s < index->numSets; s++) {
    start[s + 1] += start[s];
    index->sets[s].points = index->members + start[s];
  }
  for (size_t p = 0; p < n; p++) {
    CmSubspaceSet *set = &index->sets[index->setOf[p]];
    set->points[set->count++] = (uint32_t)p;
  }
  free(start);
  return index;
fail:
  free(start);
  cmSubspaceIndexDestroy(index);
  return NULL;
}

const CmSubspaceIndex *cmGroupGetSubspaceIndex(CmGroup *g, unsigned mask) {
  CmSubspaceIndex *index =
      atomic_load_explicit(&g->subspaces[mask], memory_order_acquire);
  if (index)
    return index;
  pthread_mutex_lock(&g->lock);
  index = atomic_load_explicit(&g->subspaces[mask], memory_order_relaxed);
  if (!index) {
    index = g->cacheKey ? subspaceIndexFromEntry(g, mask) : NULL;
    if (!index && (index = subspaceIndexCreate(g, mask)) && g->cacheKey)
      storeSubspaceIndex(g, index);
    atomic_store_explicit(&g->subspaces[mask], index, memory_order_release);
  }
  pthread_mutex_unlock(&g->lock);
  return index;
}

const CmSubspaceSet *cmSubspaceIndexFind(const CmSubspaceIndex *index,
                                         const double *probe) {
  long first = cmTupleHashFind(&index->byOthers, probe);
  return first < 0 ? NULL : &index->sets[index->setOf[first]];
}

const char *cmSubspaceIndexGetName(const CmSubspaceIndex *index) {
  return index->name;
}

size_t cmSubspaceSetGetSize(const CmSubspaceSet *set) { return set->count; }

uint32_t cmSubspaceSetGetPoint(const CmSubspaceSet *set, size_t i) {
  return set->points[i];
}

/* Builds the triangulation of `set` in the transformed coordinates of the
 * index's axes; records the failure reason instead when impossible. */
static void buildTriangulation(const CmGroup *g, const CmSubspaceIndex *index,
                               CmSubspaceSet *set) {
  double *coords = malloc((set->count * index->dim + 1) * sizeof *coords);
  CmTriangulation *tri = NULL;
  if (coords) {
    for (size_t i = 0; i < set->count; i++)
      for (int j = 0; j < index->dim; j++)
        coords[i * index->dim + j] =
            g->tx[(size_t)set->points[i] * g->dim + index->axes[j]];
    tri = cmTriangulationCreateCached(coords, set->count, index->dim,
                                      set->reason, sizeof set->reason);
    free(coords);
  } else {
    snprintf(set->reason, sizeof set->reason, "out of memory");
  }
  if (tri)
    atomic_store_explicit(&set->tri, tri, memory_order_release);
  else
    atomic_store_explicit(&set->failed, true, memory_order_release);
}

const CmTriangulation *
cmSubspaceSetPeekTriangulation(const CmSubspaceSet *set) {
  return atomic_load_explicit(&((CmSubspaceSet *)set)->tri,
                              memory_order_acquire);
}

const CmTriangulation *
cmSubspaceSetGetTriangulation(CmGroup *g, const CmSubspaceIndex *index,
                              const CmSubspaceSet *constSet, char *reason,
                              size_t reasonSize) {
  CmSubspaceSet *set = (CmSubspaceSet *)constSet; /* lazy cache only */
  CmTriangulation *tri = atomic_load_explicit(&set->tri, memory_order_acquire);
  if (!tri && !atomic_load_explicit(&set->failed, memory_order_acquire)) {
    pthread_mutex_lock(&g->lock);
    if (!atomic_load_explicit(&set->tri, memory_order_relaxed) &&
        !atomic_load_explicit(&set->failed, memory_order_relaxed))
      buildTriangulation(g, index, set);
    pthread_mutex_unlock(&g->lock);
    tri = atomic_load_explicit(&set->tri, memory_order_acquire);
  }
  if (!tri)
    snprintf(reason, reasonSize, "%s", set->reason);
  return tri;
}
