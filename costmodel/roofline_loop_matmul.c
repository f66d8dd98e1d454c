/*===- roofline_loop_matmul.c - what a loop-lowered matmul adds -----------===*
 *
 * What a matmul, a conv or attention lowered to plain loops (latency-
 * profile's `loops` pipeline) costs that flops and boundary bytes do not
 * show, each from latency-profile's own measurements, fitted or probed
 * (docs/profiling.md):
 *
 * - The transposed copy. A query with weight_transposed=1 writes a
 *   transposed copy of its weight on every call, to freshly mapped pages
 *   once the weight reaches `weight_copy_min_bytes`: weight bytes (n x k x
 *   batch elements) x `weight_copy_ns_per_byte` (per kernel and dtype as
 *   every roofline key), scaled along the weight's size by
 *   `weight_copy_slope` within [`weight_copy_lo_bytes`, `_hi_bytes`],
 *   part of launch_us since it does not overlap the multiply
 *   (calibrate_weight_copy.c).
 * - The column walk. k innermost, each output element walks a column of
 *   the weight (of K^T and V in attention's two products); where the
 *   column does not stay in L1 (latency/column_walk.h,
 *   with device.csv's cache geometry), the time per multiply-add is the
 *   grid's rate at the L1 sets the column crowds and its length
 *   (`column_walk_grid_ns`, measured by latency-profile's probes:
 *   latency/column_walk.h), else the level's `column_walk_ns_l2|mem` (per
 *   kernel and dtype, else per dtype: no dtype-free value, bf16 computes
 *   through conversions on a CPU), in L2 scaled along the L1 sets the
 *   column crowds; a floor under the memory side
 *   (calibrate_column_walk.c). A channels-first conv walks a column of
 *   its input across the channels, a plane apart (loopProductsOf), and is
 *   charged per channel and window row, its kw taps sharing a line.
 * - A transpose's column. Its innermost loop walks a column of the side
 *   it strides on (`walk_k`, `walk_stride`, `walk_writes`:
 *   passes/transpose_walk.h), one element a step; where the column spills
 *   L1, every element costs the grid's rate for that side
 *   (`column_write_walk_grid_ns` for a written column), a floor under the
 *   memory side as a matmul's walk.
 * - The accumulator walk. A channels-first depthwise conv walks its output
 *   across the channels, loading and storing it per multiply-add; over a
 *   plane of a whole number of L1 ways each load waits on the store
 *   before it, at the rate latency-profile probed for the channels
 *   (`accumulator_walk_ns`, latency/column_walk.h).
 * - Unrolled reductions. A matmul's or conv's reduction of at most
 *   CM_UNROLLED_REDUCTION multiply-adds per output is unrolled whole and
 *   vectorized along the output row when that row fills a vector register
 *   (device.csv `vector_bits`): its compute side is its multiply-adds at the
 *   grid's shortest column, whatever the efficiency says, and it walks no
 *   column.
 *
 * All read the query's fields through its policy (a kernel without one,
 * attention without a table, gets neither; a conv type without a table
 * reads its family's: estimate.c), weight_transposed whatever the
 * policy (a matmul type without a table of its own is answered through its
 * anchor's or the built-in policy, which need not key on it: estimate.c).
 *
 *===----------------------------------------------------------------------===*/
#include "roofline_loop_matmul.h"

#include "answer.h"
#include "efficiency_slopes.h"
#include "roofline.h"
#include "work.h"

#include "latency/column_walk.h"
#include "latency/costmodel_util.h"
#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>

/* device.csv's `key.<kernel>.<dtype>`, else `key.<dtype>`, else NAN. */
static double perDtypeNumber(CmProfile profile, const char *key,
                             const char *kernel, const char *dtype) {
  char name[256];
  snprintf(name, sizeof name, "%s.%s.%s", key, kernel, dtype);
  double value = cmProfileGetDeviceNumber(profile, name, NAN);
  snprintf(name, sizeof name, "%s.%s", key, dtype);
  return isnan(value) ? cmProfileGetDeviceNumber(profile, name, NAN) : value;
}

/* A law latency-profile fitted (lpFitLogLaw) at `x`; 1 where a hand-made
 * device.csv gives a slope beyond +-1 or an infinite range, which would
 * make a copy or a walk infinite. */
static double lawFactor(double x, double slope, double lo, double hi) {
  return fabs(slope) <= 1 && isfinite(hi) ? cmClampedLawFactor(x, slope, lo, hi)
                                          : 1;
}

static double batchOf(CmValueFn value, const void *context) {
  double batch = value(context, "batch");
  return isnan(batch) ? 1 : batch;
}

/* The transposed copy, us; 0 when the query makes none or the profile has
 * no rate. */
static double weightCopyUs(CmProfile profile, const char *kernel,
                           const char *dtype, CmValueFn value,
                           const void *context) {
  if (value(context, "weight_transposed") != 1)
    return 0;
  /* a profile that measured no transposed weight still knows what fresh
     pages cost: the copy is at least that */
  double rate = cmRooflineDeviceNumber(
      profile, "weight_copy_ns_per_byte", kernel, dtype,
      cmRooflineDeviceNumber(profile, "scratch_ns_per_byte", kernel, dtype, 0));
  double bytes = value(context, "n") * value(context, "k") *
                 batchOf(value, context) * cmDtypeGetSize(dtype);
  if (!(rate > 0) || !(bytes > 0) ||
      bytes < cmProfileGetDeviceNumber(profile, "weight_copy_min_bytes", 0))
    return 0;
  /* the rate along the weight's size, within the range it was fitted */
  rate *= lawFactor(
      bytes, cmProfileGetDeviceNumber(profile, "weight_copy_slope", 0),
      cmProfileGetDeviceNumber(profile, "weight_copy_lo_bytes", 0),
      cmProfileGetDeviceNumber(profile, "weight_copy_hi_bytes", 0));
  return bytes * rate * 1e-3;
}

/* A product as `loops` runs it: batch x m x n outputs, each walking
 * `steps` columns of k elements `row` elements apart (a matmul: one column
 * of its right operand, n apart), `taps` multiply-adds per element of the
 * column (a conv's window, 1 otherwise). */
typedef struct {
  double batch, m, n, k, row, steps, taps;
  double outRow;   /* output elements along the vectorized loop: n, ow */
  bool moves;      /* a transpose: each element moved once, no reduction */
  CmWalkSide side; /* which side walks (CM_WALK_READS unless a transpose
                      writes its column) */
} LoopProduct;

static double orOne(double v) { return isnan(v) ? 1 : v; }

/* The products kernel `kernel` runs through loops: a matmul's one;
 * attention's two, per batch and head, as an export spells them: scores
 * Q K^T (columns of head_dim over a K^T kv_len wide) and P V (columns of
 * kv_len over a V head_dim wide), the full score matrix even when causal.
 * Returns how many (0: none). */
static int loopProductsOf(const char *kernel, CmValueFn value,
                          const void *context, LoopProduct out[2]) {
  if (cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul")) {
    double n = value(context, "n");
    out[0] = (LoopProduct){.batch = batchOf(value, context),
                           .m = value(context, "m"),
                           .n = n,
                           .k = value(context, "k"),
                           .row = n,
                           .steps = 1,
                           .taps = 1,
                           .outRow = n};
    return 1;
  }
  /* A transpose walks one column per pass of its innermost loop, walk_k
   * elements walk_stride apart (passes/transpose_walk.h): its elements
   * are walk_k x the columns, each element one step. */
  if (cmKernelIs(kernel, "transpose")) {
    double k = value(context, "walk_k"), elements = value(context, "elements");
    if (!(k > 1) || !(value(context, "walk_stride") > 1) || !(elements >= k))
      return 0;
    out[0] = (LoopProduct){.batch = 1,
                           .m = 1,
                           .n = elements / k,
                           .k = k,
                           .row = value(context, "walk_stride"),
                           .steps = 1,
                           .taps = 1,
                           .outRow = k,
                           .moves = true,
                           .side = value(context, "walk_writes") == 1
                                       ? CM_WALK_WRITES
                                       : CM_WALK_READS};
    return 1;
  }
  /* A channels-first conv (linalg's nchw: loops n, f, oh, ow, c, kh, kw)
   * walks, for every output, a column of its input across the channels, a
   * plane apart, once per row of its window, the row's kw taps on one line:
   * a matmul's walk whose row is the padded input plane, side oh x stride +
   * kh - 1 (exact for PyTorch's even inputs and `same` padding; a square
   * output and window assumed, no dilation). Each output keeps kh columns
   * live, only one of which the level counts. EfficientNet's 1 x 1
   * projections at 32 x 32 pixels (a 4 KiB plane: one L1 set) ran 2.3-2.4
   * ns a multiply-add, its 1 x 1 convs at 8 x 8 0.6. A conv whose stride
   * or window is unknown walks nothing. */
  if (cmKernelIs(kernel, "conv2d") && value(context, "channels_last") == 0) {
    double stride = value(context, "stride");
    double kh = sqrt(value(context, "window"));
    if (!(stride >= 1) || !(kh >= 1))
      return 0;
    double hw = value(context, "hw"), side = sqrt(hw) * stride + kh - 1;
    out[0] = (LoopProduct){.batch = batchOf(value, context),
                           .m = value(context, "cout"),
                           .n = hw,
                           .k = value(context, "cin"),
                           .row = side * side,
                           .steps = kh,
                           .taps = value(context, "window"),
                           .outRow = sqrt(hw)};
    return 1;
  }
  if (!cmKernelIs(kernel, "attention") &&
      !cmKernelIs(kernel, "cross_attention") &&
      !cmKernelIs(kernel, "attention_decode"))
    return 0;
  double seq = orOne(value(context, "seq"));
  double len = value(context, "kv_len");
  len = isnan(len) ? seq : len;
  double d = value(context, "head_dim");
  double heads = batchOf(value, context) * value(context, "heads");
  out[0] = (LoopProduct){.batch = heads,
                         .m = seq,
                         .n = len,
                         .k = d,
                         .row = len,
                         .steps = 1,
                         .taps = 1,
                         .outRow = len};
  out[1] = (LoopProduct){.batch = heads,
                         .m = seq,
                         .n = d,
                         .k = len,
                         .row = d,
                         .steps = 1,
                         .taps = 1,
                         .outRow = d};
  return 2;
}

/* The L2 walk's rate along the `sets` of L1 the column crowds
 * (`column_walk_l2_sets_slope|lo|hi`, fitted with the rates at the centre
 * of [lo, hi]): (sets / centre) ^ slope, sets clamped to the range; 1
 * without a law. */
static double l2SetsFactor(CmProfile profile, const char *kernel,
                           const char *dtype, double sets) {
  double slope =
      perDtypeNumber(profile, "column_walk_l2_sets_slope", kernel, dtype);
  double lo = perDtypeNumber(profile, "column_walk_l2_sets_lo", kernel, dtype);
  double hi = perDtypeNumber(profile, "column_walk_l2_sets_hi", kernel, dtype);
  if (!(fabs(slope) <= 1) || !(lo >= 1))
    return 1;
  return lawFactor(sets, slope, lo, hi);
}

/* A profile and a dtype, for the probed points' device.csv keys, and the
 * side of the walk whose grid is read. */
typedef struct {
  CmProfile profile;
  const char *dtype;
  CmWalkSide side;
} DtypeContext;

/* The column-walk grid's point for the dtype and side, from device.csv. */
static double gridPoint(const void *context, int setsIndex, int kIndex) {
  const DtypeContext *c = context;
  char key[160];
  cmWalkGridKey(key, sizeof key, c->side, c->dtype, setsIndex, kIndex);
  return cmProfileGetDeviceNumber(c->profile, key, NAN);
}

/* The time per step (multiply-add, or element moved) of a column of `k`
 * elements `stride` bytes apart that spills L1 (`level` 2 or 3), ns: from
 * the profile's measured grid of the walk's side when it has one for the
 * dtype (a written column without its own grid: the read one, which a
 * profile made before session 18 has alone), else, for a product
 * (`moves` false: the rates were fitted over matmuls), the level's fitted
 * rate, in L2 along the L1 sets; 0 when none. latency-profile leaves a
 * transpose out of its efficiency only where a grid prices it
 * (lpTransposeWalkSpills). */
static double walkNs(CmProfile profile, const char *kernel, const char *dtype,
                     const CmCacheGeometry *g, const double levelNs[2],
                     int level, double k, double stride, CmWalkSide side,
                     bool moves) {
  DtypeContext reads = {profile, dtype, CM_WALK_READS};
  DtypeContext writes = {profile, dtype, CM_WALK_WRITES};
  double sets = cmColumnWalkL1Sets(g, k, stride); /* counted once for all */
  double ns =
      cmWalkSideNs(gridPoint, &reads, gridPoint, &writes, side, sets, k);
  if (ns > 0 || moves)
    return ns > 0 ? ns : 0;
  ns = levelNs[level - 2] > 0 ? levelNs[level - 2] : 0;
  if (level == 2)
    ns *= l2SetsFactor(profile, kernel, dtype, sets);
  return ns;
}

CmCacheGeometry cmProfileGetCacheGeometry(CmProfile profile) {
  CmCacheGeometry g = {cmProfileGetDeviceNumber(profile, "l1d_bytes", 0), 0, 0,
                       0, 0};
  if (!(g.l1Bytes > 0))
    return (CmCacheGeometry){0, 0, 0, 0, 0};
  g.l1Ways = cmProfileGetDeviceNumber(profile, "l1d_ways", 0);
  g.l2Bytes = cmProfileGetDeviceNumber(profile, "l2_bytes", 0);
  g.l2Ways = cmProfileGetDeviceNumber(profile, "l2_ways", 0);
  g.lineBytes = cmProfileGetDeviceNumber(profile, "cache_line_bytes", 0);
  return g;
}

/* The column walk of `count` products, us, and the highest level one was
 * priced at; 0 when every column stays in L1 or the profile has no rate. */
static double columnWalkUs(CmProfile profile, const char *kernel,
                           const char *dtype, const CmCacheGeometry *g,
                           const LoopProduct *products, int count, int *level) {
  double ns[2] = {perDtypeNumber(profile, "column_walk_ns_l2", kernel, dtype),
                  perDtypeNumber(profile, "column_walk_ns_mem", kernel, dtype)};
  double us = 0;
  for (int i = 0; i < count; i++) {
    const LoopProduct *p = &products[i];
    double stride = p->row * cmDtypeGetSize(dtype);
    int at = cmColumnWalkLevel(g, p->k, stride);
    double rate = at >= 2 ? walkNs(profile, kernel, dtype, g, ns, at, p->k,
                                   stride, p->side, p->moves)
                          : 0;
    double walk = p->batch * p->m * p->n * p->k * p->steps * rate * 1e-3;
    if (rate > 0 && walk > 0 && isfinite(walk)) { /* a hand-made rate */
      us += walk;
      *level = at > *level ? at : *level;
    }
  }
  return us;
}

/* The accumulator walk's probe point for the dtype, from device.csv. */
static double accumulatorWalkPoint(const void *context, int index) {
  const DtypeContext *c = context;
  char key[160];
  cmAccumulatorWalkKey(key, sizeof key, c->dtype, index);
  return cmProfileGetDeviceNumber(c->profile, key, NAN);
}

/* The accumulator walk of a channels-first depthwise conv whose output
 * plane is a whole number of L1 ways, us (latency/column_walk.h): every
 * multiply-add, batch x hw x channels x window, at the probed rate for its
 * channels; 0 for any other kernel or plane, or without the probe. */
static double accumulatorWalkUs(CmProfile profile, const char *kernel,
                                const char *dtype, const CmCacheGeometry *g,
                                CmValueFn value, const void *context) {
  if (!cmKernelIs(kernel, "depthwise_conv2d") ||
      value(context, "channels_last") != 0)
    return 0;
  double hw = value(context, "hw"), channels = value(context, "cin");
  if (!cmAccumulatorWalkAliases(g, hw * cmDtypeGetSize(dtype)))
    return 0;
  /* every point, as latency-profile's calibration asks before it leaves
     such a shape out of the efficiencies (lpAliasesAccumulator) */
  DtypeContext points = {profile, dtype, CM_WALK_READS};
  if (!cmAccumulatorWalkMeasured(accumulatorWalkPoint, &points))
    return 0;
  double ns = cmAccumulatorWalkNs(accumulatorWalkPoint, &points, channels);
  double us = batchOf(value, context) * hw * channels *
              value(context, "window") * ns * 1e-3;
  return us > 0 && isfinite(us) ? us : 0;
}

/* A product whose whole reduction per output (k x taps multiply-adds) is
 * at most CM_UNROLLED_REDUCTION long (latency/column_walk.h): its
 * multiply-adds at the grid's point for the shortest column (k = 32:
 * unrolled and vectorized when probed) and the L1 sets its column crowds,
 * us, and that rate in `*ns`; 0 for a longer reduction or without the
 * grid. */
static double unrolledUs(CmProfile profile, const char *dtype,
                         const CmCacheGeometry *g, const LoopProduct *product,
                         double *ns) {
  *ns = 0;
  if (!cmUnrolledReductionVectorizes(
          product->k * product->taps, product->outRow, cmDtypeGetSize(dtype),
          cmProfileGetDeviceNumber(profile, "vector_bits", 0)))
    return 0;
  /* the grid's whole shortest column, as latency-profile's calibration asks
     before it leaves such a shape out of the efficiencies
     (lpUnrolledReduction) */
  DtypeContext grid = {profile, dtype, CM_WALK_READS};
  if (!cmWalkGridShortestMeasured(gridPoint, &grid))
    return 0;
  double sets =
      cmColumnWalkL1Sets(g, product->k, product->row * cmDtypeGetSize(dtype));
  if (sets >= 1)
    *ns = cmWalkGridNs(gridPoint, &grid, sets, cmWalkGridKs[0]);
  double us = product->batch * product->m * product->n * product->k *
              product->taps * *ns * 1e-3;
  return us > 0 && isfinite(us) ? us : 0;
}

/* What the column walked belongs to, for the reason. */
static const char *walkedOperand(const char *kernel,
                                 const LoopProduct *products) {
  if (products[0].moves)
    return products[0].side == CM_WALK_WRITES ? "output" : "input";
  return cmKernelIs(kernel, "conv2d") ? "input" : "weight";
}

void cmRooflineAddLoopMatmul(CmProfile profile, const char *kernel,
                             const char *dtype, CmValueFn value,
                             const void *context, CmEstimate *out,
                             double *launchUs) {
  if (!kernel || !dtype || !value)
    return;
  /* the geometry only for a kernel that walks (five device.csv lookups) */
  LoopProduct products[2];
  int count = loopProductsOf(kernel, value, context, products);
  CmCacheGeometry g = {0, 0, 0, 0, 0};
  if (count || cmKernelIs(kernel, "depthwise_conv2d"))
    g = cmProfileGetCacheGeometry(profile);
  count = g.l1Bytes > 0 ? count : 0;
  /* one product unrolled walks no column: its multiply-adds are its time */
  double ns = 0;
  double unrolled = count == 1 && !products[0].moves
                        ? unrolledUs(profile, dtype, &g, &products[0], &ns)
                        : 0;
  if (unrolled > 0) {
    out->computeUs = unrolled;
    cmEstimateAddReason(out,
                        "roofline: reduction unrolled and vectorized, %.3g ns "
                        "a multiply-add",
                        ns);
  }
  int level = 0;
  double walk =
      count && !(unrolled > 0)
          ? columnWalkUs(profile, kernel, dtype, &g, products, count, &level)
          : 0;
  if (walk > out->memoryUs) {
    out->memoryUs = walk;
    cmEstimateAddReason(out, "roofline: %s column in %s",
                        walkedOperand(kernel, products),
                        level == 2 ? "L2" : "memory");
  }
  double accumulator = g.l1Bytes > 0 ? accumulatorWalkUs(profile, kernel, dtype,
                                                         &g, value, context)
                                     : 0;
  if (accumulator > out->memoryUs) {
    out->memoryUs = accumulator;
    cmEstimateAddReason(out, "roofline: output column a cache way apart");
  }
  double copy = weightCopyUs(profile, kernel, dtype, value, context);
  if (copy > 0) {
    *launchUs += copy;
    cmEstimateAddReason(out, "roofline: + %.4g us transposed weight copy",
                        copy);
  }
}
