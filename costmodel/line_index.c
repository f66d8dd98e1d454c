/*===- line_index.c - 1D lines of a group along one axis -------------------===*
 *
 * Built in three passes over the group's points: assign each point to its
 * line through a hash of its other-axis values, count, then fill and sort
 * each line by the axis value. A point whose other-axis values equal its
 * predecessor's joins the predecessor's line without a probe (the hash
 * would answer the same): along a table's last axis every line is a run.
 * A large group's index is kept in the on-disk cache and mapped in place
 * (index_cache.h): its arrays are then checked and borrowed from the map.
 *
 *===----------------------------------------------------------------------===*/
#include "line_index.h"

#include "index_cache.h"

#include <stdlib.h>
#include <string.h>

/* Lines the hash is first sized for; it grows. A group has far fewer lines
 * than points (1,000 along each axis of the 35,700 GEMM points), and slots
 * sized for every point were 512 KB of fresh pages per axis. */
enum { kFirstLines = 1024 };

struct CmLineIndex {
  int axis;             /* the axis lines run along           */
  CmTupleHash byOthers; /* other-axis values -> first point   */
  uint32_t *lineOf;     /* point -> line number               */
  size_t *lineStart;    /* line -> first entry; numLines + 1  */
  size_t numLines;      /* lines in the group                 */
  CmLinePoint *entries; /* every point, grouped by line       */
  void *map;            /* mapped entry the arrays borrow from */
  size_t mapSize;       /*   (NULL: they are owned)            */
};

/* The sections of a line index entry. */
enum {
  kLineCount,
  kLineOf,
  kLineStart,
  kLineEntries,
  kLineSlots,
  kLineSections
};
static const uint64_t kLineSizes[kLineSections] = {
    sizeof(uint64_t), sizeof(uint32_t), sizeof(size_t), sizeof(CmLinePoint),
    sizeof(uint32_t)};

static int compareByX(const void *a, const void *b) {
  double xa = ((const CmLinePoint *)a)->x, xb = ((const CmLinePoint *)b)->x;
  return (xa > xb) - (xa < xb);
}

/* Sorts a line by its axis value. Tables list their rows in axis order, so
 * most lines come in sorted and skip qsort; a line's values are distinct
 * (its points differ only on this axis), so either way the order is the
 * same. */
static void sortLine(CmLinePoint *points, size_t count) {
  for (size_t i = 1; i < count; i++)
    if (!(points[i - 1].x < points[i].x)) {
      qsort(points, count, sizeof *points, compareByX);
      return;
    }
}

void cmLineIndexDestroy(CmLineIndex *index) {
  if (!index)
    return;
  cmTupleHashFree(&index->byOthers);
  if (index->map) {
    cmIndexMapRelease(index->map, index->mapSize);
  } else {
    free(index->lineOf);
    free(index->lineStart);
    free(index->entries);
  }
  free(index);
}

/* Returns whether the mapped arrays of a line index over `n` points are
 * safe to use: every line number, entry range and point in range. */
static bool lineArraysValid(const CmIndexSection *s, size_t n) {
  uint64_t numLines = 0;
  if (s[kLineCount].count == 1)
    memcpy(&numLines, s[kLineCount].data, sizeof numLines);
  if (s[kLineCount].count != 1 || numLines == 0 || numLines > n ||
      s[kLineOf].count != n || s[kLineStart].count != numLines + 1 ||
      s[kLineEntries].count != n ||
      !cmIndexSlotsValid(s[kLineSlots].data, s[kLineSlots].count, numLines, n))
    return false;
  const uint32_t *lineOf = s[kLineOf].data;
  const size_t *start = s[kLineStart].data;
  const CmLinePoint *entries = s[kLineEntries].data;
  for (size_t p = 0; p < n; p++)
    if (lineOf[p] >= numLines || entries[p].point >= n)
      return false;
  for (size_t l = 0; l < numLines; l++)
    if (start[l] > start[l + 1])
      return false;
  return start[0] == 0 && start[numLines] == n;
}

/* Returns the index of `g` along `axis` from its cache entry, or NULL when
 * there is no sound one (a corrupt one is noted). */
static CmLineIndex *lineIndexFromEntry(const CmGroup *g, int axis) {
  CmIndexEntry e;
  if (!cmIndexEntryOpen(g->cacheKey, CM_INDEX_LINES, (unsigned)axis,
                        kLineSections, kLineSizes, &e))
    return NULL;
  const CmIndexSection *s = e.sections;
  if (!lineArraysValid(s, g->numPoints)) {
    cmIndexEntryReject(&e, "a line index out of range");
    return NULL;
  }
  CmLineIndex *index = calloc(1, sizeof *index);
  if (!index) {
    cmIndexMapRelease(e.map, e.mapSize);
    return NULL;
  }
  index->axis = axis;
  index->numLines = s[kLineStart].count - 1;
  index->lineOf = (uint32_t *)s[kLineOf].data; /* read-only map */
  index->lineStart = (size_t *)s[kLineStart].data;
  index->entries = (CmLinePoint *)s[kLineEntries].data;
  cmTupleHashInitBorrowed(&index->byOthers, s[kLineSlots].data,
                          s[kLineSlots].count, index->numLines, g->x, g->dim,
                          1u << axis);
  index->map = e.map;
  index->mapSize = e.mapSize;
  return index;
}

/* Writes `index` of `g` to its cache entry. */
static void storeLineIndex(const CmGroup *g, const CmLineIndex *index) {
  uint64_t numLines = index->numLines;
  CmIndexSection s[kLineSections] = {
      {&numLines, 1, sizeof numLines},
      {index->lineOf, g->numPoints, sizeof *index->lineOf},
      {index->lineStart, numLines + 1, sizeof *index->lineStart},
      {index->entries, g->numPoints, sizeof *index->entries},
      {index->byOthers.slots, index->byOthers.mask + 1, sizeof(uint32_t)}};
  cmIndexEntryStore(g->cacheKey, CM_INDEX_LINES, (unsigned)index->axis, s,
                    kLineSections);
}

static CmLineIndex *lineIndexCreate(const CmGroup *g, int axis) {
  size_t n = g->numPoints;
  CmLineIndex *index = calloc(1, sizeof *index);
  if (!index)
    return NULL;
  index->axis = axis;
  index->lineOf = malloc((n + 1) * sizeof *index->lineOf);
  index->lineStart = calloc(n + 2, sizeof *index->lineStart);
  /* zeroed: the padding of each entry is written to the cache */
  index->entries = calloc(n + 1, sizeof *index->entries);
  if (!index->lineOf || !index->lineStart || !index->entries ||
      !cmTupleHashInit(&index->byOthers, n < kFirstLines ? n : kFirstLines,
                       g->x, g->dim, 1u << axis)) {
    cmLineIndexDestroy(index);
    return NULL;
  }
  for (size_t p = 0; p < n; p++) {
    if (p > 0 &&
        cmTupleHashSameKey(&index->byOthers, (uint32_t)p - 1, (uint32_t)p)) {
      index->lineOf[p] = index->lineOf[p - 1]; /* a run: no probe */
    } else {
      uint32_t first = cmTupleHashInsert(&index->byOthers, (uint32_t)p);
      if (first == CM_TUPLE_HASH_NO_MEMORY) {
        cmLineIndexDestroy(index);
        return NULL;
      }
      index->lineOf[p] =
          first == p ? (uint32_t)index->numLines++ : index->lineOf[first];
    }
    index->lineStart[index->lineOf[p] + 1]++;
  }
  for (size_t l = 0; l < index->numLines; l++)
    index->lineStart[l + 1] += index->lineStart[l];
  size_t *fill = malloc((index->numLines + 1) * sizeof *fill);
  if (!fill) {
    cmLineIndexDestroy(index);
    return NULL;
  }
  for (size_t l = 0; l < index->numLines; l++)
    fill[l] = index->lineStart[l];
  for (size_t p = 0; p < n; p++) {
    CmLinePoint *e = &index->entries[fill[index->lineOf[p]]++];
    e->x = g->x[p * g->dim + axis];
    e->t = g->tx[p * g->dim + axis];
    e->y = g->y[p];
    e->point = (uint32_t)p;
  }
  free(fill);
  for (size_t l = 0; l < index->numLines; l++)
    sortLine(index->entries + index->lineStart[l],
             index->lineStart[l + 1] - index->lineStart[l]);
  return index;
}

const CmLineIndex *cmGroupGetLineIndex(CmGroup *g, int axis) {
  CmLineIndex *index =
      atomic_load_explicit(&g->lines[axis], memory_order_acquire);
  if (index)
    return index;
  pthread_mutex_lock(&g->lock);
  index = atomic_load_explicit(&g->lines[axis], memory_order_relaxed);
  if (!index) {
    index = g->cacheKey ? lineIndexFromEntry(g, axis) : NULL;
    if (!index && (index = lineIndexCreate(g, axis)) && g->cacheKey)
      storeLineIndex(g, index);
    atomic_store_explicit(&g->lines[axis], index, memory_order_release);
  }
  pthread_mutex_unlock(&g->lock);
  return index;
}

CmLine1D cmLineIndexFind(const CmLineIndex *index, const double *probe) {
  CmLine1D line = {NULL, 0};
  long first = cmTupleHashFind(&index->byOthers, probe);
  if (first < 0)
    return line;
  uint32_t l = index->lineOf[first];
  line.points = index->entries + index->lineStart[l];
  line.count = index->lineStart[l + 1] - index->lineStart[l];
  return line;
}

void cmLineNeighbours(CmLine1D line, double x, const CmLinePoint **below,
                      const CmLinePoint **above) {
  size_t lo = 0, hi = line.count; /* first entry with value >= x */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (line.points[mid].x < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  *below = lo > 0 ? &line.points[lo - 1] : NULL;
  while (lo < line.count && line.points[lo].x == x)
    lo++;
  *above = lo < line.count ? &line.points[lo] : NULL;
}

bool cmLineBracket(CmLine1D line, double x, const CmLinePoint **below,
                   const CmLinePoint **above) {
  cmLineNeighbours(line, x, below, above);
  return *below && *above;
}
