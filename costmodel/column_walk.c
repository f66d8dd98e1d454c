/*===- column_walk.c - where a loop-lowered matmul's weight column lives ---===*
 *
 * The busiest set is counted, not estimated: element i of the column is on
 * line floor(i x stride / line), in set (that line mod sets). A stride that
 * is not a multiple of the line (n = 1000 f32: 62.5 lines) spreads the
 * column over every set, one that is a multiple of a power of two crowds
 * it into a few, and the count gets both right. A stride under a line
 * touches consecutive lines, spread evenly: no count needed. A column of
 * more lines than the cache holds overflows it whatever the sets, so at
 * most sets x ways elements are counted (16384 for a 1 MiB 8-way L2; the
 * geometry is bounded, so a hand-made device.csv cannot make it long).
 * Sets are those of virtual addresses: exact for an L1 indexed by them, an
 * approximation for an L2 indexed by physical addresses.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/column_walk.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Bounds on the geometry (a 4 MiB 16-way L2 has 4096 sets): at most
 * kMaxSets x kMaxWays = 1M elements counted per cache, in a count array on
 * the stack (a set never holds more than kMaxWays + 1 before the count
 * stops), so a query allocates nothing, as cmPreparedEstimate promises. */
enum { kMaxSets = 1 << 14, kMaxWays = 64, kMinLine = 16, kMaxLine = 4096 };

/* k x stride must stay exact in a double for the line arithmetic */
static const double kMaxSpanBytes = 0x1p52;

static bool wholeIn(double x, double lo, double hi) {
  return x >= lo && x <= hi && x == floor(x);
}

/* True when `k` elements `stride` bytes apart are a column the line
 * arithmetic can follow. */
static bool isColumn(double k, double stride) {
  return k >= 1 && stride > 0 && k * stride < kMaxSpanBytes;
}

/* The sets of a cache of `bytes`, `ways` and `line`; 0 when that is no
 * geometry within the bounds. */
static double setsOf(double bytes, double ways, double line) {
  double sets = line > 0 && ways > 0 ? bytes / (ways * line) : 0;
  return wholeIn(ways, 1, kMaxWays) && wholeIn(line, kMinLine, kMaxLine) &&
                 wholeIn(sets, 1, kMaxSets)
             ? sets
             : 0;
}

/* True when a column of `k` elements `stride` bytes apart keeps all its
 * lines in a cache of `bytes` and `ways`; *usable false when the geometry
 * is not one. */
static bool columnFits(double k, double stride, double bytes, double ways,
                       double line, bool *usable) {
  double sets = setsOf(bytes, ways, line);
  *usable = sets > 0;
  if (!*usable)
    return false;
  if (stride < line) /* consecutive lines, ceil(lines / sets) per set */
    return ceil(k * stride / line) <= sets * ways;
  if (k > sets * ways) /* a line per element */
    return false;
  uint8_t count[kMaxSets];
  uint64_t numSets = (uint64_t)sets;
  memset(count, 0, numSets);
  bool fits = true;
  for (double i = 0; fits && i < k; i++)
    fits = ++count[(uint64_t)floor(i * stride / line) % numSets] <= ways;
  return fits;
}

int cmColumnWalkLevel(const CmCacheGeometry *g, double k, double strideBytes) {
  bool usable;
  if (!g || !isColumn(k, strideBytes))
    return 0;
  if (columnFits(k, strideBytes, g->l1Bytes, g->l1Ways, g->lineBytes, &usable))
    return 1;
  if (!usable)
    return 0;
  if (columnFits(k, strideBytes, g->l2Bytes, g->l2Ways, g->lineBytes, &usable))
    return 2;
  return usable ? 3 : 0;
}

double cmColumnWalkL1Sets(const CmCacheGeometry *g, double k,
                          double strideBytes) {
  if (!g || !isColumn(k, strideBytes))
    return 0;
  double line = g->lineBytes, ways = g->l1Ways;
  double sets = setsOf(g->l1Bytes, ways, line);
  if (!sets)
    return 0;
  if (strideBytes < line) /* consecutive lines */
    return fmin(ceil(k * strideBytes / line), sets);
  /* the sets repeat with the lines' period; sets x ways elements show
     every set the column reaches before it would overflow them all */
  uint8_t seen[kMaxSets];
  uint64_t numSets = (uint64_t)sets;
  memset(seen, 0, numSets);
  double used = 0, limit = fmin(k, sets * ways);
  for (double i = 0; i < limit && used < sets; i++) {
    uint8_t *at = &seen[(uint64_t)floor(i * strideBytes / line) % numSets];
    used += !*at;
    *at = 1;
  }
  return used;
}

const double cmWalkGridSets[CM_WALK_GRID_SETS] = {1, 4, 16, 64};
/* 32: short enough that `-O3` unrolls the column and vectorizes along the
 * row (0.06 ns a multiply-add at n = 1024); 40: the walk again (1.3) */
const double cmWalkGridKs[CM_WALK_GRID_KS] = {32,  40,   64,   128,  256,
                                              512, 1024, 2048, 4096, 8192};

void cmWalkGridKey(char *out, size_t size, CmWalkSide side, const char *dtype,
                   int setsIndex, int kIndex) {
  snprintf(out, size, "%s.%s.s%.0f.k%.0f",
           side == CM_WALK_WRITES ? "column_write_walk_grid_ns"
                                  : "column_walk_grid_ns",
           dtype, cmWalkGridSets[setsIndex], cmWalkGridKs[kIndex]);
}

/* True for a probe point's time per multiply-add: positive and finite
 * (<= 0 or NAN: not measured; infinite: a hand-made device.csv). */
static bool measured(double ns) { return ns > 0 && !isinf(ns); }

bool cmUnrolledReductionVectorizes(double reduction, double row,
                                   double elementBytes, double vectorBits) {
  if (!(reduction >= 1) || !(reduction <= CM_UNROLLED_REDUCTION))
    return false;
  double lanes =
      vectorBits > 0 && elementBytes > 0 ? vectorBits / (8 * elementBytes) : 0;
  return !(lanes > 0) || row >= lanes;
}

double cmWalkSideNs(CmWalkGridFn reads, const void *readsContext,
                    CmWalkGridFn writes, const void *writesContext,
                    CmWalkSide side, double sets, double k) {
  double ns = side == CM_WALK_WRITES
                  ? cmWalkGridNs(writes, writesContext, sets, k)
                  : NAN;
  return ns > 0 ? ns : cmWalkGridNs(reads, readsContext, sets, k);
}

bool cmWalkGridShortestMeasured(CmWalkGridFn at, const void *context) {
  for (int s = 0; at && s < CM_WALK_GRID_SETS; s++)
    if (!measured(at(context, s, 0)))
      return false;
  return at != NULL;
}

/* The grid interval [at, at + 1] holding `x`, and x's place in it along
 * log2, 0 or 1 outside the grid. */
static int bracket(const double *grid, int count, double x, double *t) {
  int at = 0;
  while (at < count - 2 && x > grid[at + 1])
    at++;
  double lo = log2(grid[at]), hi = log2(grid[at + 1]);
  *t = x > 0 ? fmin(fmax((log2(x) - lo) / (hi - lo), 0), 1) : 0;
  return at;
}

double cmWalkGridNs(CmWalkGridFn at, const void *context, double sets,
                    double k) {
  if (!at || !(sets > 0) || !(k > 0))
    return NAN;
  double ts, tk;
  int s = bracket(cmWalkGridSets, CM_WALK_GRID_SETS, sets, &ts);
  int j = bracket(cmWalkGridKs, CM_WALK_GRID_KS, k, &tk);
  double ns = 0;
  for (int ds = 0; ds < 2; ds++)
    for (int dk = 0; dk < 2; dk++) {
      double weight = (ds ? ts : 1 - ts) * (dk ? tk : 1 - tk);
      if (weight == 0) /* on a grid line: its neighbour need not exist */
        continue;
      double corner = at(context, s + ds, j + dk);
      if (!measured(corner))
        return NAN;
      ns += corner * weight;
    }
  return ns;
}

const double cmAccumulatorWalkChannels[CM_ACCUMULATOR_WALK_POINTS] = {8, 16, 32,
                                                                      64, 256};

void cmAccumulatorWalkKey(char *out, size_t size, const char *dtype,
                          int index) {
  snprintf(out, size, "accumulator_walk_ns.%s.k%.0f", dtype,
           cmAccumulatorWalkChannels[index]);
}

bool cmAccumulatorWalkAliases(const CmCacheGeometry *g, double planeBytes) {
  if (!g || !setsOf(g->l1Bytes, g->l1Ways, g->lineBytes) || !(planeBytes > 0))
    return false;
  double way = g->l1Bytes / g->l1Ways;
  return planeBytes >= way && fmod(planeBytes, way) == 0;
}

double cmAccumulatorWalkNs(CmAccumulatorWalkFn at, const void *context,
                           double channels) {
  if (!at || !(channels > 0))
    return NAN;
  double t;
  int j = bracket(cmAccumulatorWalkChannels, CM_ACCUMULATOR_WALK_POINTS,
                  channels, &t);
  double ns = 0;
  for (int dk = 0; dk < 2; dk++) {
    double weight = dk ? t : 1 - t;
    if (weight == 0) /* on a point: its neighbour need not exist */
      continue;
    double point = at(context, j + dk);
    if (!measured(point))
      return NAN;
    ns += point * weight;
  }
  return ns;
}

bool cmAccumulatorWalkMeasured(CmAccumulatorWalkFn at, const void *context) {
  for (int i = 0; at && i < CM_ACCUMULATOR_WALK_POINTS; i++)
    if (!measured(at(context, i)))
      return false;
  return at != NULL;
}

const double cmColdWriteLlcShares[CM_COLD_WRITE_POINTS] = {0.25, 0.5, 1, 2, 4};

void cmColdWriteKey(char *out, size_t size, int index) {
  if (index < 0 || index >= CM_COLD_WRITE_POINTS)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "cold_column_write_ns_per_byte.llc%g",
             cmColdWriteLlcShares[index]);
}

double cmColdWriteNsPerByte(CmColdWriteFn at, const void *context,
                            double llcBytes, double movedBytes) {
  if (!at || !(llcBytes > 0) || !(movedBytes > 0) || isinf(movedBytes))
    return 0;
  double share = movedBytes / llcBytes;
  double lastShare = 0, lastNs = 0; /* no bytes moved: nothing lost */
  for (int i = 0; i < CM_COLD_WRITE_POINTS; i++) {
    double ns = at(context, i);
    if (!(ns >= 0) || isinf(ns))
      continue;
    double x = cmColdWriteLlcShares[i];
    if (share <= x)
      return lastNs + (ns - lastNs) * (share - lastShare) / (x - lastShare);
    lastShare = x, lastNs = ns;
  }
  return lastNs;
}
