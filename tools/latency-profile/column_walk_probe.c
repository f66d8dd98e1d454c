/*===- column_walk_probe.c - the column walk's grid, measured --------------===*
 *
 * Fitting the walk's rate from the profiled models' own matmuls left it to
 * the few shapes those models have: two samples beyond L2 for the bundled
 * BERT-base, whose median (2.4 ns per multiply-add) was 0.55-1.45x what
 * BERT at another length, BERT-large or a Llama layer walk. Measured on the
 * project's VM (m = 2, 54 shapes of n in 768..11008 and k in
 * 768..8192; docs/profiling.md, "The column walk's grid"), the rate follows
 * two numbers and not the virtual L2 sets the level count uses:
 *
 * - the L1 sets the column crowds, which are its lines' offsets within a
 *   page: the part of every physically indexed cache (L2, L3) a column can
 *   use is proportional to them, as the page's frame is random. n = 1024,
 *   3072 and 5120 (one set each) walk at the same rate, though they crowd
 *   32 virtual L2 sets and n = 4096 crowds 8;
 * - the column's length k: at one set, 3.2 ns at k = 768, 4.5 at 1024,
 *   6.4-7.5 from 2048 on; at four sets (n = 768, 2304, 11008), 1.1-1.7 up
 *   to k = 1024, 1.8-2.1 to 4096; at 32 sets (n = 1056), 0.66-0.9 up to
 *   4096 and 4.6 at 8192.
 *
 * So the probes are a grid over those two, and the cost model interpolates
 * between its points (latency/column_walk.h). Each probe's row is one L1
 * way (a page on x86) plus a way / sets wide, so that its column steps
 * through `sets` of L1's sets, one element per way, as a transformer's
 * weights (n >= 1024 f32) have. Narrower rows were measured within 10-15%
 * of these at the same sets up to k = 4096 (n = 768 against 2304, both
 * four sets), so the grid prices them too.
 *
 * A transpose walks a column too, of whichever side its innermost loop
 * strides on (passes/transpose_walk.h). Reading one ran within 15% of the
 * matmul's grid (a [4096, 4096] transpose read 16 KiB apart: 7.7 ns an
 * element, the grid 7.5; over four sets 1.24 against 1.19); writing one
 * did not (5.4 ns at one set and k = 4096, 0.8 against 0.95 over every
 * set, 1.4 against 2.4 over two): the stores drain behind the loop. So a
 * second grid times a transpose that writes its column, at the same
 * points (`column_write_walk_grid_ns`).
 *
 *===----------------------------------------------------------------------===*/
#include "column_walk_probe.h"
#include "device_probe.h"

#include "latency/column_walk.h"

#include <stdbool.h>

/* Every probe multiplies a few rows (tokens) by several weights: the pages
 * the C library gets for a weight decide which sets of the physically
 * indexed caches its column can use, so one weight is one draw. At one set
 * and k = 1024, the edge of what L3 holds, one weight per process walked
 * at 3.7-4.3 ns a multiply-add, four per process at 4.3-4.7, and BERT-base
 * at seq 64 runs its n = 3072, k = 768 matmuls at 3.5 where one weight
 * says 3.0-3.1 and four 3.35-3.45 (docs/profiling.md). */
enum { kRows = 2, kWeights = 4 };

/* The f32 row width whose column crowds `sets` of L1's sets, one element per
 * page-sized way; 0 when the geometry cannot place it. */
static long rowWidthFor(const CmCacheGeometry *g, double sets) {
  double way = g->l1Ways > 0 ? g->l1Bytes / g->l1Ways : 0;
  double stride = sets == 1 ? way : way + way / sets;
  long n = (long)(stride / 4);
  /* the longest column: a short one (k = 32 of 64 sets) reaches fewer */
  bool placed =
      way > 0 && n * 4.0 == stride &&
      cmColumnWalkL1Sets(g, cmWalkGridKs[CM_WALK_GRID_KS - 1], stride) == sets;
  return placed ? n : 0;
}

/* A transpose of [n, k] into [k, n] as torch-mlir exports a linear
 * layer's weight (a generic writing through the permuted output map): its
 * innermost loop writes a column of k elements n apart. */
static bool transposeProbeText(long n, long k, char *out, size_t size) {
  const char *T = LP_WALK_GRID_DTYPE;
  char in[64], result[64];
  snprintf(in, sizeof in, "tensor<%ldx%ldx%s>", n, k, T);
  snprintf(result, sizeof result, "tensor<%ldx%ldx%s>", k, n, T);
  int used = snprintf(
      out, size,
      "#in = affine_map<(d0, d1) -> (d0, d1)>\n"
      "#out = affine_map<(d0, d1) -> (d1, d0)>\n"
      "func.func @probe(%%a: %s) -> %s {\n"
      "  %%e = tensor.empty() : %s\n"
      "  %%t = linalg.generic {indexing_maps = [#in, #out], iterator_types = "
      "[\"parallel\", \"parallel\"]} ins(%%a : %s) outs(%%e : %s) {\n"
      "  ^bb0(%%x: %s, %%o: %s):\n    linalg.yield %%x : %s\n"
      "  } -> %s\n"
      "  return %%t : %s\n}\n",
      in, result, result, in, result, T, T, T, result, result);
  return used > 0 && (size_t)used < size;
}

/* One grid point of `side`: its probe's text (false: none fits) and the
 * steps one call takes (multiply-adds, or elements moved). */
static bool gridProbe(CmWalkSide side, long n, long k, char *text, size_t size,
                      double *steps) {
  *steps =
      side == CM_WALK_WRITES ? (double)n * k : (double)kRows * kWeights * n * k;
  return side == CM_WALK_WRITES
             ? transposeProbeText(n, k, text, size)
             : lpMatmulProbeText(kRows, n, k, kWeights, LP_WALK_GRID_DTYPE,
                                 text, size);
}

/* Times every point of the `side` grid into `grid`. */
static void probeGrid(const LpMeasureConfig *config, const char *kernelDir,
                      const CmCacheGeometry *caches, CmWalkSide side,
                      double grid[CM_WALK_GRID_SETS][CM_WALK_GRID_KS],
                      FILE *log) {
  char text[4096], name[48];
  const char *prefix = side == CM_WALK_WRITES ? "write-walk" : "walk";
  for (int i = 0; i < CM_WALK_GRID_SETS; i++) {
    long n = rowWidthFor(caches, cmWalkGridSets[i]);
    if (!n) {
      fprintf(log, "  probe %s over %.0f sets: no such width\n", prefix,
              cmWalkGridSets[i]);
      continue;
    }
    for (int j = 0; j < CM_WALK_GRID_KS; j++) {
      long k = (long)cmWalkGridKs[j];
      double steps;
      snprintf(name, sizeof name, "%s-s%.0f-k%ld", prefix, cmWalkGridSets[i],
               k);
      double us =
          lpProbeBuiltText(config, kernelDir, name,
                           gridProbe(side, n, k, text, sizeof text, &steps),
                           text, sizeof text, log);
      grid[i][j] = us * 1e3 / steps;
    }
  }
}

void lpProbeColumnWalk(const LpMeasureConfig *config, const char *kernelDir,
                       LpDeviceNumbers *out, FILE *log) {
  probeGrid(config, kernelDir, &out->caches, CM_WALK_READS, out->walkGridNs,
            log);
  probeGrid(config, kernelDir, &out->caches, CM_WALK_WRITES,
            out->writeWalkGridNs, log);
}
