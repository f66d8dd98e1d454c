/*===- column_walk.c - where a loop-lowered matmul's weight column lives
 *----===*
 *
 * The busiest set is counted, not estimated: element i of the column is on
 * line floor(i x stride / line), in set (that line mod sets). A stride that
 * is not a multiple of the line (n = 1000 f32: 62.5 lines) spreads the
 * column over every set, one that is a multiple of a power of two crowds
 * it into a few, and the count gets both right. At most ways x sets + 1
 * distinct lines are counted: a column of more lines than the cache holds
 * overflows it whatever the sets.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/column_walk.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

enum { kMaxSets = 1 << 16 };

/* True when a column of `k` elements `stride` bytes apart keeps all its
 * lines in a cache of `bytes` and `ways`; *usable false when the geometry
 * is not one. */
static bool columnFits(double k, double stride, double bytes, double ways,
                       double line, bool *usable) {
  double sets = bytes / (ways * line);
  *usable = bytes > 0 && ways >= 1 && line > 0 && sets >= 1 &&
            sets <= kMaxSets && sets == floor(sets);
  if (!*usable)
    return false;
  double lines = stride >= line ? k : ceil(k * stride / line);
  if (lines > sets * ways)
    return false;
  unsigned *count = calloc((size_t)sets, sizeof *count);
  if (!count) {
    *usable = false;
    return false;
  }
  bool fits = true;
  double last = -1;
  for (double i = 0; fits && i < k; i++) {
    double at = floor(i * stride / line);
    if (at == last)
      continue;
    last = at;
    fits = ++count[(size_t)fmod(at, sets)] <= ways;
  }
  free(count);
  return fits;
}

int cmColumnWalkLevel(const CmCacheGeometry *g, double k, double strideBytes) {
  bool usable;
  if (!g || !(k >= 1) || !(strideBytes > 0) || !isfinite(k) ||
      !isfinite(strideBytes))
    return 0;
  if (columnFits(k, strideBytes, g->l1Bytes, g->l1Ways, g->lineBytes, &usable))
    return 1;
  if (!usable)
    return 0;
  if (columnFits(k, strideBytes, g->l2Bytes, g->l2Ways, g->lineBytes, &usable))
    return 2;
  return usable ? 3 : 0;
}
