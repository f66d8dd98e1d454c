/*===- group.c - measured points of one kernel and regime ------------------===*
 *
 * Rows arrive in file order; sealing averages rows with identical axis
 * values into one point (the measured value of an exact hit) and records how
 * many rows were merged. After the seal, x/y/tx never change.
 *
 *===----------------------------------------------------------------------===*/
#include "group.h"

#include "cm_error.h"
#include "index_cache.h"
#include "line_index.h"
#include "subspace_index.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hashString(uint64_t h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t hashGroupKey(const char *kernel, const char *regimeKey) {
  return hashString(hashString(0xcbf29ce484222325ull, kernel) ^ 0x1f,
                    regimeKey);
}

static bool growSlots(CmGroupSet *set) {
  size_t numSlots = set->numSlots ? set->numSlots * 2 : 64;
  uint32_t *slots = calloc(numSlots, sizeof *slots);
  if (!slots)
    return false;
  for (size_t i = 0; i < set->count; i++) {
    CmGroup *g = set->items[i];
    size_t s = hashGroupKey(g->kernel, g->regimeKey) & (numSlots - 1);
    while (slots[s])
      s = (s + 1) & (numSlots - 1);
    slots[s] = (uint32_t)i + 1;
  }
  free(set->slots);
  set->slots = slots;
  set->numSlots = numSlots;
  return true;
}

static void groupDestroy(CmGroup *g) {
  if (!g)
    return;
  for (int a = 0; a < CM_MAX_AXES; a++)
    cmLineIndexDestroy(atomic_load(&g->lines[a]));
  for (int m = 0; m < CM_MAX_SUBSPACES; m++)
    cmSubspaceIndexDestroy(atomic_load(&g->subspaces[m]));
  cmTupleHashFree(&g->exact);
  pthread_mutex_destroy(&g->lock);
  free(g->kernel);
  free(g->regimeKey);
  if (g->sealMap) {
    cmIndexMapRelease(g->sealMap, g->sealMapSize);
  } else {
    free(g->x);
    free(g->y);
    free(g->tx);
  }
  free(g);
}

static CmGroup *groupCreate(const char *kernel, const char *regimeKey,
                            const CmPolicy *policy) {
  CmGroup *g = calloc(1, sizeof *g);
  if (!g)
    return NULL;
  pthread_mutex_init(&g->lock, NULL);
  g->policy = policy;
  g->dim = policy->numAxes;
  g->kernel = cmStrDup(kernel);
  g->regimeKey = cmStrDup(regimeKey);
  if (!g->kernel || !g->regimeKey) {
    groupDestroy(g);
    return NULL;
  }
  return g;
}

CmGroup *cmGroupSetFind(CmGroupSet *set, const char *kernel,
                        const char *regimeKey, const CmPolicy *policy,
                        bool create) {
  if (set->numSlots) {
    size_t s = hashGroupKey(kernel, regimeKey) & (set->numSlots - 1);
    for (; set->slots[s]; s = (s + 1) & (set->numSlots - 1)) {
      CmGroup *g = set->items[set->slots[s] - 1];
      if (!strcmp(g->kernel, kernel) && !strcmp(g->regimeKey, regimeKey))
        return g;
    }
  }
  if (!create)
    return NULL;
  if (2 * (set->count + 1) > set->numSlots && !growSlots(set))
    return NULL;
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? 2 * set->capacity : 16;
    CmGroup **items = realloc(set->items, capacity * sizeof *items);
    if (!items)
      return NULL;
    set->items = items;
    set->capacity = capacity;
  }
  CmGroup *g = groupCreate(kernel, regimeKey, policy);
  if (!g)
    return NULL;
  set->items[set->count++] = g;
  size_t s = hashGroupKey(kernel, regimeKey) & (set->numSlots - 1);
  while (set->slots[s])
    s = (s + 1) & (set->numSlots - 1);
  set->slots[s] = (uint32_t)set->count;
  return g;
}

void cmGroupSetFree(CmGroupSet *set) {
  for (size_t i = 0; i < set->count; i++)
    groupDestroy(set->items[i]);
  free(set->items);
  free(set->slots);
  memset(set, 0, sizeof *set);
}

/* Makes room for `more` rows; false when out of memory. */
static bool reserveRows(CmGroup *g, size_t more) {
  if (g->numRows + more <= g->capacity)
    return true;
  size_t capacity = g->capacity ? 2 * g->capacity : 64;
  while (capacity < g->numRows + more)
    capacity *= 2;
  double *nx = realloc(g->x, capacity * g->dim * sizeof *nx);
  if (!nx)
    return false;
  g->x = nx;
  double *ny = realloc(g->y, capacity * sizeof *ny);
  if (!ny)
    return false;
  g->y = ny;
  g->capacity = capacity;
  return true;
}

CmStatus cmGroupAppendRows(CmGroup *g, const void *x, const void *y,
                           size_t numRows) {
  if (numRows == 0) /* g->x may still be NULL: no offset from it */
    return CM_OK;
  if (!reserveRows(g, numRows))
    return CM_ERR_NOMEM;
  memcpy(g->x + g->numRows * g->dim, x, numRows * g->dim * sizeof *g->x);
  memcpy(g->y + g->numRows, y, numRows * sizeof *g->y);
  g->numRows += numRows;
  return CM_OK;
}

CmStatus cmGroupAppend(CmGroup *g, const double *x, double y) {
  if (g->numRows == g->capacity) {
    size_t capacity = g->capacity ? 2 * g->capacity : 64;
    double *nx = realloc(g->x, capacity * g->dim * sizeof *nx);
    if (!nx)
      return CM_ERR_NOMEM;
    g->x = nx;
    double *ny = realloc(g->y, capacity * sizeof *ny);
    if (!ny)
      return CM_ERR_NOMEM;
    g->y = ny;
    g->capacity = capacity;
  }
  memcpy(g->x + g->numRows * g->dim, x, g->dim * sizeof *x);
  g->y[g->numRows++] = y;
  return CM_OK;
}

/* Merges rows with equal axes into their mean, in first-seen order, into
 * fresh arrays (the row hash reads keys from the old ones until the end),
 * and keeps that hash as the exact index of the points: same keys, so it is
 * only rebased onto the new arrays, not built again. */
static bool aggregateDuplicates(CmGroup *g) {
  size_t rows = g->numRows, dim = (size_t)g->dim;
  CmTupleHash byRow = {0};
  size_t *pointOf = malloc((rows + 1) * sizeof *pointOf);
  size_t *rowsIn = calloc(rows + 1, sizeof *rowsIn);
  double *x = malloc((rows * dim + 1) * sizeof *x);
  double *y = malloc((rows + 1) * sizeof *y);
  bool ok = pointOf && rowsIn && x && y &&
            cmTupleHashInit(&byRow, rows, g->x, g->dim, 0);
  size_t n = 0;
  for (size_t r = 0; ok && r < rows; r++) {
    uint32_t first = cmTupleHashInsert(&byRow, (uint32_t)r);
    if (first == CM_TUPLE_HASH_NO_MEMORY) { /* presized: cannot happen */
      ok = false;
    } else if (first == r) {
      pointOf[r] = n;
      memcpy(x + n * dim, g->x + r * dim, dim * sizeof *x);
      y[n] = g->y[r];
      rowsIn[n++] = 1;
    } else {
      size_t p = pointOf[first];
      y[p] += g->y[r];
      rowsIn[p]++;
    }
  }
  if (ok) {
    for (size_t p = 0; p < n; p++)
      y[p] /= (double)rowsIn[p];
    cmTupleHashRebase(&byRow, x, pointOf);
    g->exact = byRow;
    free(g->x);
    free(g->y);
    g->x = x;
    g->y = y;
    g->numPoints = n;
    g->numAggregated = rows - n;
  } else {
    free(x);
    free(y);
    cmTupleHashFree(&byRow);
  }
  free(pointOf);
  free(rowsIn);
  return ok;
}

/* The sections of a seal entry: counts (numPoints, numAggregated), points,
 * means, transformed points, exact-index slots. */
enum { kSealCounts, kSealX, kSealY, kSealTx, kSealSlots, kSealSections };
static const uint64_t kSealSizes[kSealSections] = {
    sizeof(uint64_t), sizeof(double), sizeof(double), sizeof(double),
    sizeof(uint32_t)};

/* Seals `g` from its cache entry when there is a sound one; false when not
 * (a corrupt one is noted). */
static bool sealFromEntry(CmGroup *g) {
  CmIndexEntry e;
  if (!cmIndexEntryOpen(g->cacheKey, CM_INDEX_SEAL, 0, kSealSections,
                        kSealSizes, &e))
    return false;
  const CmIndexSection *s = e.sections;
  uint64_t counts[2] = {0, 0};
  if (s[kSealCounts].count == 2)
    memcpy(counts, s[kSealCounts].data, sizeof counts);
  uint64_t n = counts[0], dim = (uint64_t)g->dim;
  if (s[kSealCounts].count != 2 || n == 0 || n > g->numRows ||
      counts[1] != g->numRows - n || s[kSealX].count != n * dim ||
      s[kSealY].count != n || s[kSealTx].count != n * dim ||
      !cmIndexSlotsValid(s[kSealSlots].data, s[kSealSlots].count, n, n)) {
    cmIndexEntryReject(&e, "a seal's sizes or slots are out of range");
    return false;
  }
  free(g->x);
  free(g->y);
  g->x = (double *)s[kSealX].data; /* read-only map: never written */
  g->y = (double *)s[kSealY].data;
  g->tx = (double *)s[kSealTx].data;
  cmTupleHashInitBorrowed(&g->exact, s[kSealSlots].data, s[kSealSlots].count, n,
                          g->x, g->dim, 0);
  g->numPoints = n;
  g->numAggregated = counts[1];
  g->sealMap = e.map;
  g->sealMapSize = e.mapSize;
  return true;
}

/* Writes the seal of `g` to its cache entry. */
static void storeSeal(const CmGroup *g) {
  uint64_t counts[2] = {g->numPoints, g->numAggregated};
  size_t values = g->numPoints * g->dim;
  CmIndexSection s[kSealSections] = {
      {counts, 2, sizeof(uint64_t)},
      {g->x, values, sizeof(double)},
      {g->y, g->numPoints, sizeof(double)},
      {g->tx, values, sizeof(double)},
      {g->exact.slots, g->exact.mask + 1, sizeof(uint32_t)}};
  cmIndexEntryStore(g->cacheKey, CM_INDEX_SEAL, 0, s, kSealSections);
}

/* Seals `g` by averaging its rows; false when out of memory. */
static bool sealByBuilding(CmGroup *g) {
  if (!aggregateDuplicates(g) ||
      !(g->tx = malloc((g->numPoints + 1) * g->dim * sizeof *g->tx)))
    return false;
  for (size_t i = 0; i < g->numPoints * g->dim; i++)
    g->tx[i] = cmTransformApply(g->policy->transforms[i % g->dim], g->x[i]);
  if (g->cacheKey)
    storeSeal(g);
  return true;
}

bool cmGroupSeal(CmGroup *g) {
  if (atomic_load_explicit(&g->sealed, memory_order_acquire))
    return true;
  pthread_mutex_lock(&g->lock);
  bool ok = atomic_load_explicit(&g->sealed, memory_order_relaxed);
  if (!ok) {
    g->cacheKey = g->uncached ? 0
                              : cmIndexCacheKey(g->x, g->y, g->numRows, g->dim,
                                                g->policy->transforms);
    ok = (g->cacheKey && sealFromEntry(g)) || sealByBuilding(g);
    if (ok)
      atomic_store_explicit(&g->sealed, true, memory_order_release);
  }
  pthread_mutex_unlock(&g->lock);
  return ok;
}

long cmGroupFindExact(const CmGroup *g, const double *x) {
  return cmTupleHashFind(&g->exact, x);
}
