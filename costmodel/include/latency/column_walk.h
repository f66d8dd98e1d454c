/*===- latency/column_walk.h - a loop-lowered matmul's weight column -------===*
 *
 * A matmul lowered to plain loops (`latency-profile`'s `loops` pipeline)
 * runs k innermost: every output element walks one column of the weight, k
 * elements a row's width apart. The next output element walks the next
 * column, on the same cache lines, so the walk is as fast as the cache the
 * column stays in between the two. Whether it stays depends on the cache's
 * sets more than its size: a power-of-two row width maps every element of
 * the column to a few sets (n = 1024 f32: one set of L1's 64), where a
 * column of 13 lines already overflows a 12-way L1. Measured on the
 * project's EPYC VM through `loops`: 0.45-0.6 ns per multiply-add when the
 * column stays in L1, 0.5-1.5 in L2, 2-8 beyond, by the sets it crowds and
 * its length (docs/profiling.md, "The column walk"; the grid below).
 *
 * Also the other two things a loop nest's reduction does to its time: a
 * depthwise conv's accumulator walk (its output across the channels) and
 * a reduction short enough to be unrolled whole (no walk at all).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_COLUMN_WALK_H
#define LATENCY_COLUMN_WALK_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A host's data caches: size and ways of L1 and L2, line size, in bytes
/// (device.csv `l1d_bytes`, `l1d_ways`, `l2_bytes`, `l2_ways`,
/// `cache_line_bytes`).
typedef struct {
  double l1Bytes, l1Ways; /* L1 data cache: bytes, ways         */
  double l2Bytes, l2Ways; /* L2: bytes, ways                    */
  double lineBytes;       /* line size of both                  */
} CmCacheGeometry;

/// Returns the cache level a column of `k` elements `strideBytes` apart
/// stays in: 1 (L1), 2 (L2) or 3 (beyond), the first whose busiest set gets
/// no more of the column's lines than it has ways; 0 when the geometry or
/// the shape is not usable (ways not a whole number in [1, 64], a line not
/// one in [16, 4096], sets not one in [1, 16384], k < 1, a span k x stride
/// of 2^52 bytes or more). Counts at most sets x ways elements per cache;
/// allocates nothing.
int cmColumnWalkLevel(const CmCacheGeometry *geometry, double k,
                      double strideBytes);

/// Returns how many of L1's sets a column of `k` elements `strideBytes`
/// apart falls in (1 to the set count): once the column spills L1, the
/// fewer sets it crowds, the slower its walk from L2 (n = 512 f32, 2 sets:
/// 1.4 ns per multiply-add on the project's VM; n = 1000, every set: 0.6).
/// 0 under the same conditions as cmColumnWalkLevel. Counts at most sets x
/// ways elements; allocates nothing.
double cmColumnWalkL1Sets(const CmCacheGeometry *geometry, double k,
                          double strideBytes);

/// The column-walk grid: latency-profile times a matmul of a few rows on
/// every point of (L1 sets the column crowds) x (column length k), f32,
/// and device.csv keeps the time per multiply-add as
/// `column_walk_grid_ns.<dtype>.s<sets>.k<k>`. Where a column lives is
/// decided by caches indexed by physical addresses beyond L1, by the TLB
/// and by prefetchers, which no count of virtual sets follows; these two
/// numbers are what the measured rates line up on (docs/profiling.md, "The
/// column walk's grid"): on the project's VM 3.2 ns at one set and k = 768,
/// 7 at one set and k >= 2048, 2 at four sets and k = 2048-4096, 0.7 at 32
/// sets up to k = 4096.
enum { CM_WALK_GRID_SETS = 4, CM_WALK_GRID_KS = 10 };
extern const double cmWalkGridSets[CM_WALK_GRID_SETS]; /* 1, 4, 16, 64 */
extern const double cmWalkGridKs[CM_WALK_GRID_KS];     /* 32, 40, 64 ... 8192 */

/// Which side of a walk a grid measured: a matmul reading its weight's
/// column (`column_walk_grid_ns`), or a transpose writing its output's
/// (`column_write_walk_grid_ns`). Writes are buffered and reads wait:
/// through `loops` on the project's VM a transpose that writes a column of
/// 4096 elements 16 KiB apart took 5.4 ns an element where reading one took
/// 7.7 (and the matmul probe 7.5), over all 64 sets 0.8 against 0.95
/// (docs/profiling.md, "Transposes walk a column").
typedef enum { CM_WALK_READS, CM_WALK_WRITES } CmWalkSide;

/// Writes the device.csv key of grid point (sets index, k index) of the
/// `side` grid for `dtype` into `out`.
void cmWalkGridKey(char *out, size_t size, CmWalkSide side, const char *dtype,
                   int setsIndex, int kIndex);

/// A grid point's ns per step (a multiply-add of the read grid, an element
/// a transpose moves of the write grid); <= 0 or NAN when not measured
/// (infinite counts as not measured).
typedef double (*CmWalkGridFn)(const void *context, int setsIndex, int kIndex);

/// Returns the time per multiply-add of a column crowding `sets` of L1's
/// sets, `k` long: linear in log2 sets and log2 k between the four grid
/// points around it, at the grid's edge outside it (a longer column than
/// the last k is priced as that one, though by then the weight's size
/// starts to matter too). NAN when a point it needs is not measured (one
/// the query sits on a grid line beside is not needed).
double cmWalkGridNs(CmWalkGridFn at, const void *context, double sets,
                    double k);

/// Returns the time per step of a column walked on `side` (CmWalkSide):
/// cmWalkGridNs over the write grid (`writes` over `writesContext`) for a
/// written column, and over the read grid (`reads`) for a read one or a
/// written one the write grid has no rate for (a profile made before
/// session 18). NAN when neither has one. The cost model and
/// latency-profile's calibration both ask it, so that they price the same
/// transposes.
double cmWalkSideNs(CmWalkGridFn reads, const void *readsContext,
                    CmWalkGridFn writes, const void *writesContext,
                    CmWalkSide side, double sets, double k);

/// Returns whether every point of the grid's shortest column (k = 32, at
/// every sets) is measured: the rate of an unrolled reduction at whatever
/// sets its column crowds (CM_UNROLLED_REDUCTION). The cost model and
/// latency-profile's calibration both ask it, so that a shape the roofline
/// cannot price as unrolled stays in the efficiency fits.
bool cmWalkGridShortestMeasured(CmWalkGridFn at, const void *context);

/// The longest reduction per output (a matmul's k, a conv's channels x
/// window) that LLVM 22's `-O3` unrolled whole and vectorized along the row
/// in every shape measured through `loops`, so that it walks no column: 1 x
/// 1 convs with a batch norm after them over 8-24 channels ran 0.04-0.19 ns
/// a multiply-add at 28 x 28 to 64 x 64 pixels, where 40 channels ran
/// 0.35-2.1; 3 x 3 convs over 3 channels (an RGB image's first conv: 27)
/// 0.03-0.05 at stride 1, 0.07-0.15 at stride 2. At 28 and 32 channels it
/// did in some shapes and not in others (0.04-0.1 against 0.4-1.9): the
/// loop vectorizer's choice, which no shape field tells (docs/profiling.md,
/// "Unrolled reductions"). The roofline prices such a product at the grid's
/// shortest column (k = 32, unrolled when probed) and the calibration leaves
/// it out of the efficiencies.
enum { CM_UNROLLED_REDUCTION = 27 };

/// True when a reduction of `reduction` multiply-adds per output (k, or
/// channels x window) is unrolled whole and vectorized along an output row
/// of `row` elements of `elementBytes` each (a matmul's n, a conv's output
/// width) on a host whose vector registers are `vectorBits` wide (device.csv
/// `vector_bits`; 0 when unknown: any row): at most CM_UNROLLED_REDUCTION,
/// and a row of at least one register's lanes. A shorter row never enters
/// the vector loop: 1 x 1 convs over 16 channels ran 0.34-0.40 ns a
/// multiply-add at 8 x 8 and 12 x 12 pixels, 0.04-0.08 at 16 x 16 to 32 x 32
/// (AVX-512, 16 f32 lanes; docs/profiling.md, "Unrolled reductions").
/// latency-profile's calibration leaves every reduction this short out of
/// its efficiency fits, whatever the row (lpUnrolledReduction): the scalar
/// ones run at a rate of their own, which no efficiency fit should see.
bool cmUnrolledReductionVectorizes(double reduction, double row,
                                   double elementBytes, double vectorBits);

/// The accumulator walk: a depthwise conv lowered to plain loops (linalg's
/// nchw: loops n, oh, ow, c, kh, kw) loads and stores an output element per
/// multiply-add, and from one channel to the next that element is an output
/// plane further on. Where the plane is a whole number of L1 ways (4 KiB
/// here: a 32 x 32 f32 plane and every power-of-two side above), each
/// channel's load matches the previous channel's store in every address
/// bit below the way, and waits for it (4K aliasing). Measured on the
/// project's VM through `loops` (3 x 3, warm): 5 ns a multiply-add from 32
/// channels on, 2.4 at 16, 0.33 at 8; at 16 x 16, 48 x 48 and 32 x 16
/// planes 0.8-1.0 from 16 channels on, 0.32 at 8 (docs/profiling.md, "The
/// accumulator walk"). latency-profile times it at a few channel counts and
/// device.csv keeps the time per multiply-add as
/// `accumulator_walk_ns.<dtype>.k<channels>`.
enum { CM_ACCUMULATOR_WALK_POINTS = 5 };
/* 8, 16, 32, 64, 256 */
extern const double cmAccumulatorWalkChannels[CM_ACCUMULATOR_WALK_POINTS];

/// Writes the device.csv key of channel count `index` for `dtype`.
void cmAccumulatorWalkKey(char *out, size_t size, const char *dtype, int index);

/// Returns whether an output plane of `planeBytes` makes the accumulator
/// walk wait on its stores: a whole number (>= 1) of L1 ways. False when
/// the geometry has no usable L1.
bool cmAccumulatorWalkAliases(const CmCacheGeometry *geometry,
                              double planeBytes);

/// A probe point's ns per multiply-add; <= 0 or NAN when not measured.
typedef double (*CmAccumulatorWalkFn)(const void *context, int index);

/// Returns whether every point of the accumulator walk is measured; the
/// cost model and latency-profile's calibration both ask it.
bool cmAccumulatorWalkMeasured(CmAccumulatorWalkFn at, const void *context);

/// Returns the time per multiply-add of an accumulator walk over
/// `channels`: linear in log2 channels between the two points around it,
/// the edge point outside them; NAN when a point it needs is not measured.
double cmAccumulatorWalkNs(CmAccumulatorWalkFn at, const void *context,
                           double channels);

/// A whole run's written columns. A transpose's table rows and the write
/// grid time it writing into the same buffer call after call: the lines of
/// a column that stays in L1 or L2 are still cached from the previous call.
/// In a whole run the call moves the rest of the model's bytes in between,
/// and the written lines come from memory again. On the project's VM the
/// classifier weight's transpose of torch-mlir exports ([1000, 1280] ->
/// [1280, 1000], 0.66 ns an element alone) took 35-53% longer inside
/// MobileNet-V2 than alone, ResNet-34's [1000, 512] 65% (timed in place,
/// docs/profiling.md "Written columns in a whole run"); a walk that spills
/// L2 alone ([1024, 576] -> [576, 1024]: 3.8 ns an element) took 1% longer.
/// latency-profile probes it as a chain of such transposes, each on its own
/// weight and output, the others moving a share of the last-level cache
/// between two runs of each, against one transpose called over and over:
/// the extra time per byte written, `cold_column_write_ns_per_byte.llc<
/// share>`. Measured there (p37): see docs/profiling.md, "Written columns
/// in a whole run"; the rate rises from nearly nothing at a quarter of the
/// LLC to its full value at one: the LLC of a shared VM holds less than its
/// size says.
enum { CM_COLD_WRITE_POINTS = 5 };
extern const double cmColdWriteLlcShares[CM_COLD_WRITE_POINTS]; /* 0.25 .. 4 */

/// Writes the device.csv key of share `index` (0 to CM_COLD_WRITE_POINTS -
/// 1; "" for any other) into `out`.
void cmColdWriteKey(char *out, size_t size, int index);

/// A probed share's extra ns per byte written; < 0 or NAN when not
/// measured.
typedef double (*CmColdWriteFn)(const void *context, int index);

/// Returns the extra ns per byte a cached written column costs when
/// `movedBytes` move through a last-level cache of `llcBytes` between two
/// of its runs: linear in the share between the probed shares around it,
/// from 0 at no bytes to the first, the last beyond the last; shares not
/// measured are skipped. 0 without any measured share, cache size or bytes
/// (an infinite count of bytes is not a count).
double cmColdWriteNsPerByte(CmColdWriteFn at, const void *context,
                            double llcBytes, double movedBytes);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_COLUMN_WALK_H */
