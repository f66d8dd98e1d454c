/*===- transfer_ranks.c - axis values as ranks among the candidates --------===*
 *
 * Suggestions measure coverage where the candidates are, not where the axes
 * have room: each axis value maps to the candidates' empirical CDF at it
 * (ties at their middle), per kernel and regime, so a grid of 74 m values
 * becomes 74 evenly spaced ranks in [0, 1] however they are spaced in m,
 * and a point covers the same share of candidates wherever it sits.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include <stdlib.h>
#include <string.h>

struct CmRankSpace {
  size_t n;         /* shapes                                     */
  size_t numGroups; /* groups of the transfer                     */
  size_t *first;    /* per group: first slot; numGroups + 1       */
  int *varying;     /* per group: axes with more than one value   */
  double *sorted;   /* CM_MAX_AXES x n: per axis, group blocks    */
};

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Fills the sorted blocks and counts the varying axes. */
static void fillBlocks(CmRankSpace *r, const struct CmTransferImpl *t,
                       const CmShape *shapes) {
  size_t *next = r->first + r->numGroups + 1; /* scratch after first[] */
  for (size_t g = 0; g < r->numGroups; g++)
    next[g] = r->first[g];
  for (size_t i = 0; i < r->n; i++) {
    size_t slot = next[shapes[i].group]++;
    for (int a = 0; a < CM_MAX_AXES; a++)
      r->sorted[a * r->n + slot] = shapes[i].axes[a];
  }
  for (size_t g = 0; g < r->numGroups; g++) {
    size_t count = r->first[g + 1] - r->first[g];
    r->varying[g] = 0;
    for (int a = 0; a < t->groups[g].policy->numAxes && count; a++) {
      double *block = r->sorted + a * r->n + r->first[g];
      qsort(block, count, sizeof *block, compareDoubles);
      r->varying[g] += block[0] != block[count - 1];
    }
  }
}

CmRankSpace *cmRankSpaceCreate(const struct CmTransferImpl *t,
                               const CmShape *shapes, size_t n) {
  CmRankSpace *r = calloc(1, sizeof *r);
  if (!r)
    return NULL;
  r->n = n;
  r->numGroups = t->numGroups;
  r->first = calloc(2 * (r->numGroups + 1), sizeof *r->first);
  r->varying = calloc(r->numGroups + 1, sizeof *r->varying);
  r->sorted = malloc((CM_MAX_AXES * n + 1) * sizeof *r->sorted);
  if (!r->first || !r->varying || !r->sorted) {
    cmRankSpaceDestroy(r);
    return NULL;
  }
  for (size_t i = 0; i < n; i++)
    r->first[shapes[i].group + 1]++;
  for (size_t g = 0; g < r->numGroups; g++)
    r->first[g + 1] += r->first[g];
  fillBlocks(r, t, shapes);
  return r;
}

void cmRankSpaceDestroy(CmRankSpace *r) {
  if (!r)
    return;
  free(r->first);
  free(r->varying);
  free(r->sorted);
  free(r);
}

/* How many of block[0..n) are < x (strict) or <= x. */
static size_t countBelow(const double *block, size_t n, double x,
                         bool orEqual) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (block[mid] < x || (orEqual && block[mid] == x))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

void cmRankSpaceMap(const CmRankSpace *r, int group, const double *axes,
                    double *out) {
  size_t first = r->first[group], count = r->first[group + 1] - first;
  for (int a = 0; a < CM_MAX_AXES; a++) {
    const double *block = r->sorted + a * r->n + first;
    if (count == 0) {
      out[a] = 0.5;
      continue;
    }
    size_t below = countBelow(block, count, axes[a], false);
    size_t upTo = countBelow(block, count, axes[a], true);
    out[a] = (below + upTo) / (2.0 * count);
  }
}

size_t cmRankSpaceGroupSize(const CmRankSpace *r, int group, int *varying) {
  *varying = r->varying[group];
  return r->first[group + 1] - r->first[group];
}
