/*===- profile_writer.h - a measured profile directory --------------------===*
 *
 * Writes DIR in the format the cost model reads (docs/profile-format.md):
 * device.csv with the host's numbers measured through the pipeline,
 * fusion.csv (the rules the kernels were detected with), policy.csv (axes
 * and regime keys of every kernel type measured) and one table per kernel
 * type under tables/, each row with its provenance columns.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_PROFILE_WRITER_H
#define LATENCY_PROFILE_PROFILE_WRITER_H

#include "shapes.h"

#include "latency/column_walk.h"
#include "latency/epilogue.h"
#include "latency/integer_mac.h"

enum { LP_MAX_DTYPES = 6, LP_MAX_FITTED = 512 };

/// The accumulators a half-precision product is probed with: its own type,
/// f32 (converted_chain_probe.c).
enum { LP_ACC_OWN, LP_ACC_F32, LP_ACCUMULATORS };

/// The element type the column-walk grid is probed in (4-byte f32).
#define LP_WALK_GRID_DTYPE "f32"

/// The element type the integer rates are probed in (integer_mac_probe.c).
#define LP_INTEGER_PROBE_DTYPE "i8"

/// The host and how it was measured: written into device.csv and into
/// every row.
typedef struct {
  char cpu[128];        /* /proc/cpuinfo model name                  */
  char mlirVersion[32]; /* the MLIR the pipeline ran on              */
  int threads;          /* threads the generated code runs on        */
  const char *pipeline; /* pipeline name (loops, vectorized, custom) */
  const char *passes;   /* the pipeline string                       */
  const char *clock;    /* "thread-cpu" or "wall"                    */
  const char *schedule; /* transform library of the passes, or NULL */
} LpHostInfo;

/// The roofline numbers of the host, measured through the pipeline; a
/// value <= 0 was not measured and is not written (the cold* rates: < 0).
typedef struct {
  int numDtypes;
  /* MLIR spelling, copied: the shapes' fields it came from move when the
   * sweep grows the shape set. */
  char dtypes[LP_MAX_DTYPES][16];
  double peakFlops[LP_MAX_DTYPES]; /* FLOP/s of a large matmul  */
  /* ns per multiply-add of a half type's conv chain, per accumulator
     (LP_ACC_OWN, LP_ACC_F32: converted_chain_probe.c); 0: not measured */
  double convertedMacNs[LP_MAX_DTYPES][LP_ACCUMULATORS];
  /* ns per multiply-add of an int8 channels-last conv over the grid's
     windows and channels (integer_mac_probe.c); 0: not measured */
  double integerMacNs[CM_INTEGER_MAC_WINDOWS][CM_INTEGER_MAC_CHANNELS];
  double integerDepthwiseNs;     /* an int8 depthwise conv's, the same way */
  double padCopyNs;              /* ns an element a pad copies (same probe) */
  double memBw;                  /* bytes/s of a streaming op */
  double launchUs;               /* an empty call, us         */
  double scratchNsPerByte;       /* fresh scratch pages, ns/B */
  double sigmoidEfficiency;      /* f32 sigmoid's, at 4 flops/elem */
  double llcBytes;               /* last-level cache (sysfs)  */
  double coldNsPerByte;          /* streaming: memory over cache, ns/B */
  double coldMatmulNsPerByte;    /* a matmul's weight read cold, ns/B  */
  double coldTransposeNsPerByte; /* read through a transpose, ns/B     */
  double coldWeightMinBytes; /* weights beyond it are read cold; 0: unknown */
  /* extra ns per byte a transpose writing a cached column costs when the
   * call moves each share of the LLC (cold_write_probe.c); < 0: not
   * measured */
  double coldWriteNs[CM_COLD_WRITE_POINTS];
  CmCacheGeometry caches; /* L1 / L2 (sysconf); 0 when unknown  */
  double vectorBits;      /* widest SIMD registers; 0: unknown  */
  /* LP_WALK_GRID_DTYPE ns per multiply-add on the column-walk grid
   * (column_walk_probe.c); 0 where not measured */
  double walkGridNs[CM_WALK_GRID_SETS][CM_WALK_GRID_KS];
  /* LP_WALK_GRID_DTYPE ns per element a transpose moves writing a column,
   * at the same points (column_walk_probe.c); 0 where not measured */
  double writeWalkGridNs[CM_WALK_GRID_SETS][CM_WALK_GRID_KS];
  /* f32 ns per multiply-add of the accumulator walk at each channel count
   * (accumulator_walk_probe.c); 0 where not measured */
  double accumulatorWalkNs[CM_ACCUMULATOR_WALK_POINTS];
  /* f32 ns per element of one more pass over a buffer at each of the
   * epilogue curve's sizes, each pass into a warm buffer (no fresh pages:
   * epilogue_probe.c); 0 where not measured */
  double epilogueNs[CM_EPILOGUE_POINTS];
  int numFitted;                       /* fitted efficiencies below */
  char fittedKeys[LP_MAX_FITTED][224]; /* compute_efficiency.<type>... */
  double fittedValues[LP_MAX_FITTED];
} LpDeviceNumbers;

/// Fits the roofline's efficiencies to the measured shapes of `set`
/// (calibrate.c): per kernel type, and device-wide, so that a kernel the
/// tables cannot answer gets the speed this pipeline reaches on its kind;
/// then their slopes along the axes (lpFitEfficiencySlopes), then the
/// matmuls' column walk (lpFitColumnWalk), what a weight transposed on
/// every call costs (lpFitWeightCopy) and channels-last convs' own
/// efficiency (lpFitChannelsLast).
void lpFitEfficiencies(const LpShapeSet *set, LpDeviceNumbers *device);

/// Per kernel type, the efficiency as a power law of the shape's numeric
/// fields, where it predicts the type's shapes left out one at a time
/// better than the median (calibrate_slopes.c): `efficiency_slope`,
/// `efficiency_lo` and `efficiency_hi.<type>.<field>`, and the type's
/// efficiency at the centre of its range.
void lpFitEfficiencySlopes(const LpShapeSet *set, LpDeviceNumbers *device);

/// From the plain matmuls of `set` whose weight column does not stay in L1
/// through `loops` (lpColumnWalkLevel >= 2), the median time per
/// multiply-add per level, kernel type and dtype and per level and dtype:
/// `column_walk_ns_l2|mem.[<type>.]<dtype>` (calibrate_column_walk.c).
void lpFitColumnWalk(const LpShapeSet *set, LpDeviceNumbers *device);

/// The cache level matmul shape `s`'s weight column stays in under
/// `device`'s caches (latency/column_walk.h): 1, 2 or 3; 0 when `s` is no
/// matmul or the caches are unknown.
int lpColumnWalkLevel(const LpDeviceNumbers *device, const LpShape *s);

/// True when transpose shape `s` walks a column (walk_k elements
/// walk_stride apart, passes/transpose_walk.h) that spills L1 under
/// `device`'s caches and the cost model prices that walk: f32, at a
/// measured rate of its side's grid at its L1 sets and length (a written
/// column without the write grid: the read one's). Such a shape is no
/// sample of the transpose's efficiency.
bool lpTransposeWalkSpills(const LpDeviceNumbers *device, const LpShape *s);

/// Returns whether shape `s` is an f32 matmul or channels-first conv whose
/// reduction per output (k, or channels x window) is at most
/// CM_UNROLLED_REDUCTION, on a profile with the column-walk grid's
/// shortest column (`loops`): unrolled and vectorized, it walks no column
/// and its time says nothing about its type's efficiency
/// (latency/column_walk.h).
bool lpUnrolledReduction(const LpDeviceNumbers *device, const LpShape *s);

/// Returns whether shape `s` is an f32 channels-first depthwise conv whose
/// output plane makes its accumulator walk wait on its stores under
/// `device`'s L1 (cmAccumulatorWalkAliases), on a profile with the walk's
/// probe: its time says nothing about its type's efficiency.
bool lpAliasesAccumulator(const LpDeviceNumbers *device, const LpShape *s);

/// What the roofline adds for the walk of shape `s`'s weight columns, us:
/// its multiply-adds at the measured grid's rate (f32), else the fitted
/// `column_walk_ns_*` of its level, as the cost model looks them up; 0 when
/// its column stays in L1 or no rate fits.
double lpColumnWalkUs(const LpDeviceNumbers *device, const LpShape *s);

/// From the matmuls of `set` that transpose a weight of at least
/// LP_FRESH_MAPPING_BYTES on every call, the time they took beyond the
/// calibrated roofline per weight byte: the median per kernel type and
/// over all of them, `weight_copy_ns_per_byte[.<type>]` in ns/B
/// (calibrate_weight_copy.c). Needs the efficiencies fitted first.
void lpFitWeightCopy(const LpShapeSet *set, LpDeviceNumbers *device);

/// From the measured channels-last convs of `set`, the median compute
/// efficiency per anchor (conv2d, depthwise_conv2d) over all its fused
/// types, `channels_last_efficiency.<anchor>`, and, for an anchor measured
/// at two reductions per output or more, its curve over the reduction,
/// `channels_last_efficiency.<anchor>.k<2^i>` (calibrate_channels_last.c).
void lpFitChannelsLast(const LpShapeSet *set, LpDeviceNumbers *device);

/// The bytes of matmul shape `s`'s weight (n x k x batch elements of its
/// dtype); 0 when the shape does not say.
double lpWeightBytes(const LpShape *s);

/// The device's peak FLOP/s for `dtype`: the first dtype's when it has
/// none for it, f32's for a half type whose converted chain was probed
/// (latency/converted_chain.h), 0 when it has none at all.
double lpDevicePeak(const LpDeviceNumbers *device, const char *dtype);

/// The time, us, shape `s`'s multiply-adds take on the converted chain of
/// its half dtype at the probed rate for its accumulator (the roofline's
/// floor, latency/converted_chain.h); 0 when its dtype was not found
/// converted or its product is no such chain. Such a shape is no sample of
/// its type's efficiency.
double lpConvertedChainUs(const LpDeviceNumbers *device, const LpShape *s);

/// The time, us, shape `s`'s multiply-adds take at the probed integer grid
/// (latency/integer_mac.h): an i8 channels-last conv2d's at the grid's rate,
/// a depthwise one's at its own; 0 for any other shape or without them. Such a
/// shape is no sample of its type's efficiency.
double lpIntegerMacUs(const LpDeviceNumbers *device, const LpShape *s);

/// Shape `s`'s measured time less what its scratch buffers' fresh pages
/// cost at the probed `scratchNsPerByte` and, for a channels-last conv,
/// what its epilogue costs (lpEpilogueUs), at least a tenth of it, us; 0
/// when it was not measured. What the roofline's efficiencies, column walk
/// and copy are fitted to: the roofline adds both back.
double lpWorkUs(const LpDeviceNumbers *device, const LpShape *s);

/// What shape `s`'s epilogue passes cost at the probed curve, us, as the
/// cost model prices them (latency/epilogue.h); 0 when it has none or the
/// curve was not probed.
double lpEpilogueUs(const LpDeviceNumbers *device, const LpShape *s);

/// The share of the roofline's time at full peak that shape `s` took
/// (its efficiency), and whether it is compute-bound at peak; false when
/// the shape says nothing (not measured, no work, a weight transposed on
/// every call, a matmul whose weight column spills L1, or a channels-last
/// conv: calibrate.c).
bool lpEfficiencyOf(const LpDeviceNumbers *device, const LpShape *s,
                    double *efficiency, bool *compute);

/// A power law y = c x ^ slope fitted over x in [lo, hi].
typedef struct {
  double slope, lo, hi;
} LpLogLaw;

/// The Theil-Sen slope of ln y over ln x across the medians of y at each
/// distinct x, from the pairs of the `n` `x`, `y` where both are finite
/// and > 0; false when fewer than four pairs or three distinct x, or x
/// spans less than `minSpan` times.
bool lpFitLogLaw(const double *x, const double *y, size_t n, double minSpan,
                 LpLogLaw *law);

/// A sample of y at x.
typedef struct {
  double x, y;
} LpPoint;

/// Keeps the `n` `points` whose x and y are finite and > 0, sorts them by
/// x, and overwrites the front of `points` with the median y at each
/// distinct x, in x order; returns how many distinct x there are, and in
/// `*kept` (NULL allowed) how many points were kept.
size_t lpMedianPerX(LpPoint *points, size_t n, size_t *kept);

/// Returns the median of the `n` (> 0) `values`, sorting them in place.
double lpMedian(double *values, size_t n);

/// Returns the median of those of the `n` `values` that are > 0 (0 when
/// none is, or out of memory), leaving `values` as they are; how many were
/// goes to `*numPositive` (NULL allowed).
double lpMedianOfPositive(const double *values, size_t n, size_t *numPositive);

/// Returns the fitted device.csv number `key.<scope>` (`scope` NULL:
/// `key`), or NAN when none was fitted.
double lpDeviceFitted(const LpDeviceNumbers *device, const char *key,
                      const char *scope);

/// Sets the fitted device.csv number `key.<type>` (`type` NULL: `key`),
/// replacing an earlier value; false when full or `value` is not finite.
bool lpDeviceSetFitted(LpDeviceNumbers *device, const char *key,
                       const char *type, double value);

/// Fills `info` with this host's CPU model, the MLIR version and the
/// pipeline's name and passes.
void lpHostInfoGet(LpHostInfo *info, const char *pipelineName,
                   const char *passes, int threads, bool wallClock);

/// Writes the profile of the measured shapes of `shapes` to `dir` (its
/// tables/ is rewritten), with the fusion rules copied from `rulesPath` and
/// the roofline's efficiencies fitted to the shapes (lpFitEfficiencies);
/// false with the reason in `err`. `*rows` receives the rows written.
bool lpWriteProfile(const char *dir, const LpShapeSet *shapes,
                    const LpHostInfo *info, const LpDeviceNumbers *device,
                    const char *rulesPath, size_t *rows, char *err,
                    size_t size);

#endif /* LATENCY_PROFILE_PROFILE_WRITER_H */
