/*===- roofline_fit.c - roofline parameters fitted to measured times ------===*
 *
 * Four numbers per kernel class (compute and memory efficiency, a launch
 * floor, a cost per wave of tiles), six for GEMMs under the tile model
 * (plus the tile bandwidth and the split-K cost, gemm_tiles.c), against
 * thousands of points: a coarse grid on a subsample finds the right basin
 * (the error is not convex: which bound, tile and split wins changes with
 * the parameters), then a pattern search refines it in (ln ce, ln me,
 * launch, wave, ln tile bandwidth, split), on a subsample first when the
 * tile model makes every evaluation dear. GEMM samples are fitted with and
 * without the tile model and the lower training error wins. Only strict
 * improvements move the answer, and a parameter whose start value does as
 * well is put back, so what the data cannot tell stays as device.csv had
 * it.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/roofline_fit.h"

#include "gemm_tiles.h"

#include <math.h>
#include <stdlib.h>

enum {
  kDims = 6,              /* ln ce, ln me, launch, wave, ln tb, split */
  kPlainDims = 4,         /* the first four: no tile model            */
  kGridEfficiencies = 16, /* log-spaced over [kMinEff, kMaxEff]       */
  kGridLaunches = 9,      /* 0 .. the median measured time            */
  kGridWaves = 7,         /* 0, then halvings of a tenth of it        */
  kTileGrid = 6,          /* per tile-model grid axis                 */
  kGridSamples = 1024,    /* subsample of the coarse grid             */
  kSearchSamples = 4096,  /* subsample of the tile model's search     */
  kMaxSweeps = 400,       /* pattern search sweeps                    */
  kPolishSweeps = 40      /* ...of the tile model on every sample     */
};
static const double kMinEff = 0.005, kMaxEff = 2;
static const double kMinTileBw = 0.25, kMaxTileBw = 64;

double cmRooflinePredict(const CmRooflineParams *params,
                         const CmRooflineSample *sample) {
  double memory = sample->memoryUs / params->memoryEfficiency;
  if (params->tileBandwidth > 0 && sample->gemm.m > 0)
    return cmGemmTilesOverlap(cmGemmTilesUs(&sample->gemm, params), memory) +
           params->launchUs;
  double compute = sample->computeUs / params->computeEfficiency;
  return fmax(compute, memory) + params->launchUs +
         params->waveUs * sample->waves;
}

/* Mean |pred / measured - 1| over every `stride`-th sample. */
static double errorStrided(const CmRooflineParams *params,
                           const CmRooflineSample *samples, size_t n,
                           size_t stride) {
  double sum = 0;
  size_t count = 0;
  for (size_t i = 0; i < n; i += stride, count++)
    sum += fabs(cmRooflinePredict(params, &samples[i]) / samples[i].measuredUs -
                1);
  return count ? sum / (double)count : 0;
}

double cmRooflineFitError(const CmRooflineParams *params,
                          const CmRooflineSample *samples, size_t n) {
  return errorStrided(params, samples, n, 1);
}

static double logSpaced(double lo, double hi, int i, int count) {
  return lo * pow(hi / lo, i / (double)(count - 1));
}

/* The parameters at index `i` of a four-axis grid whose launch axis spans
 * 0 .. `maxFloor`. */
typedef CmRooflineParams (*GridPoint)(const int i[4], double maxFloor);

/* The plain roofline's grid: both efficiencies, launch, wave. */
static CmRooflineParams plainPoint(const int i[4], double maxFloor) {
  return (CmRooflineParams){
      logSpaced(kMinEff, kMaxEff, i[0], kGridEfficiencies),
      logSpaced(kMinEff, kMaxEff, i[1], kGridEfficiencies),
      maxFloor * i[2] / (kGridLaunches - 1),
      i[3] ? 0.1 * maxFloor * ldexp(1, 1 - i[3]) : 0,
      0,
      0};
}

/* The tile model's grid: efficiencies near the peaks (a GEMM reaches a
 * good share of both), launch, tile bandwidth. */
static CmRooflineParams tilePoint(const int i[4], double maxFloor) {
  return (CmRooflineParams){
      logSpaced(0.3, 1.5, i[0], kTileGrid), logSpaced(0.3, 2, i[1], kTileGrid),
      maxFloor * i[2] / (kTileGrid - 1),    0,
      logSpaced(1, 32, i[3], kTileGrid),    0};
}

/* The first grid point, in index order, with the least error on a
 * subsample, when it is below `bestError`; else `best`. */
static CmRooflineParams bestOnGrid(GridPoint point, const int counts[4],
                                   const CmRooflineSample *samples, size_t n,
                                   double maxFloor, CmRooflineParams best,
                                   double bestError) {
  size_t stride = n > kGridSamples ? n / kGridSamples : 1;
  int i[4];
  for (i[0] = 0; i[0] < counts[0]; i[0]++)
    for (i[1] = 0; i[1] < counts[1]; i[1]++)
      for (i[2] = 0; i[2] < counts[2]; i[2]++)
        for (i[3] = 0; i[3] < counts[3]; i[3]++) {
          CmRooflineParams p = point(i, maxFloor);
          double error = errorStrided(&p, samples, n, stride);
          if (error < bestError) {
            best = p;
            bestError = error;
          }
        }
  return best;
}

/* The best plain grid point on a subsample, or `start` when none beats it. */
static CmRooflineParams coarseGrid(const CmRooflineSample *samples, size_t n,
                                   CmRooflineParams start, double maxFloor) {
  static const int counts[4] = {kGridEfficiencies, kGridEfficiencies,
                                kGridLaunches, kGridWaves};
  size_t stride = n > kGridSamples ? n / kGridSamples : 1;
  return bestOnGrid(plainPoint, counts, samples, n, maxFloor, start,
                    errorStrided(&start, samples, n, stride));
}

/* The best tile-model grid point on a subsample. */
static CmRooflineParams tileGrid(const CmRooflineSample *samples, size_t n,
                                 double maxFloor) {
  static const int counts[4] = {kTileGrid, kTileGrid, kTileGrid, kTileGrid};
  return bestOnGrid(tilePoint, counts, samples, n, maxFloor,
                    (CmRooflineParams){1, 1, 0, 0, 1, 0}, INFINITY);
}

static CmRooflineParams fromVector(const double x[kDims], bool tiled) {
  return (CmRooflineParams){
      exp(x[0]), exp(x[1]), x[2], x[3], tiled ? exp(x[4]) : 0, x[5]};
}

/* Hooke-Jeeves without the pattern move over the first `dims` coordinates
 * (the tile model's two only when `tiled`) on every `stride`-th sample:
 * try +-step on each, keep strict improvements, halve the steps when none
 * helps; `scale` x the usual first steps, at most `sweeps` sweeps. */
static CmRooflineParams patternSearch(const CmRooflineSample *samples, size_t n,
                                      CmRooflineParams from, double maxFloor,
                                      bool tiled, size_t stride, double scale,
                                      int sweeps) {
  int dims = tiled ? kDims : kPlainDims;
  double x[kDims] = {log(from.computeEfficiency),
                     log(from.memoryEfficiency),
                     from.launchUs,
                     from.waveUs,
                     tiled ? log(from.tileBandwidth) : 0,
                     from.splitUs};
  const double lo[kDims] = {
      log(kMinEff), log(kMinEff), 0, 0, log(kMinTileBw), 0};
  const double hi[kDims] = {log(kMaxEff), log(kMaxEff),    maxFloor,
                            maxFloor,     log(kMaxTileBw), maxFloor};
  double step[kDims] = {0.25,          0.25, maxFloor / 16,
                        maxFloor / 64, 0.25, maxFloor / 16};
  double floorTolerance = 1e-5 * fmax(maxFloor, 1e-3);
  const double tolerance[kDims] = {1e-4,           1e-4, floorTolerance,
                                   floorTolerance, 1e-4, floorTolerance};
  for (int d = 0; d < kDims; d++)
    step[d] *= scale;
  CmRooflineParams p = fromVector(x, tiled);
  double best = errorStrided(&p, samples, n, stride);
  for (int sweep = 0; sweep < sweeps; sweep++) {
    bool improved = false, moving = false;
    for (int d = 0; d < dims; d++) {
      moving |= step[d] > tolerance[d];
      for (int sign = -1; sign <= 1 && step[d] > tolerance[d]; sign += 2) {
        double y[kDims];
        for (int e = 0; e < kDims; e++)
          y[e] = x[e];
        y[d] = fmin(fmax(x[d] + sign * step[d], lo[d]), hi[d]);
        p = fromVector(y, tiled);
        double error = errorStrided(&p, samples, n, stride);
        if (error < best) {
          best = error;
          x[d] = y[d];
          improved = true;
        }
      }
    }
    if (!moving)
      break;
    if (!improved)
      for (int d = 0; d < dims; d++)
        step[d] /= 2;
  }
  return fromVector(x, tiled);
}

/* Puts the start value of one parameter back when the fit does as well
 * with it; returns whether the fitted value stays. */
static bool keepIfTold(const CmRooflineSample *samples, size_t n,
                       CmRooflineParams *fitted, double *field,
                       double startValue) {
  double error = cmRooflineFitError(fitted, samples, n), value = *field;
  *field = startValue;
  if (cmRooflineFitError(fitted, samples, n) <= error)
    return false;
  *field = value;
  return true;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median measured time: launch and wave stay below it (a floor above
 * most of the kernel's times is no floor). */
static double medianMeasured(const CmRooflineSample *samples, size_t n) {
  double *times = malloc(n * sizeof *times), median = INFINITY;
  if (!times) /* no bound: the search still works, only less guided */
    return median;
  for (size_t i = 0; i < n; i++)
    times[i] = samples[i].measuredUs;
  qsort(times, n, sizeof *times, compareDoubles);
  median = times[n / 2];
  free(times);
  return median;
}

/* Whether any sample is a GEMM the tile model can take. */
static bool anyGemm(const CmRooflineSample *samples, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (samples[i].gemm.m > 0)
      return true;
  return false;
}

/* The tile model's fit: grid, search on a subsample, polish on all. */
static CmRooflineParams fitTiles(const CmRooflineSample *samples, size_t n,
                                 double maxFloor) {
  size_t stride = n > kSearchSamples ? n / kSearchSamples : 1;
  CmRooflineParams p = tileGrid(samples, n, maxFloor);
  p = patternSearch(samples, n, p, maxFloor, true, stride, 1, kMaxSweeps);
  return patternSearch(samples, n, p, maxFloor, true, 1, 1.0 / 16,
                       kPolishSweeps);
}

CmRooflineParams cmRooflineFit(const CmRooflineSample *samples, size_t n,
                               CmRooflineParams start,
                               CmRooflineFitted *fitted) {
  CmRooflineFitted told = {false, false, false, false};
  CmRooflineParams p = start;
  if (n > 0) {
    double maxFloor = fmin(medianMeasured(samples, n), 1e6);
    start.launchUs = fmin(fmax(start.launchUs, 0), maxFloor);
    start.waveUs = fmin(fmax(start.waveUs, 0), maxFloor);
    CmRooflineParams plainStart = start;
    plainStart.tileBandwidth = plainStart.splitUs = 0;
    p = coarseGrid(samples, n, plainStart, maxFloor);
    p = patternSearch(samples, n, p, maxFloor, false, 1, 1, kMaxSweeps);
    if (anyGemm(samples, n)) {
      CmRooflineParams tiled = fitTiles(samples, n, maxFloor);
      if (cmRooflineFitError(&tiled, samples, n) <
          cmRooflineFitError(&p, samples, n)) {
        p = tiled;
        told.tiles = true;
      }
    }
    told.compute = keepIfTold(samples, n, &p, &p.computeEfficiency,
                              start.computeEfficiency);
    told.memory =
        keepIfTold(samples, n, &p, &p.memoryEfficiency, start.memoryEfficiency);
    told.wave = keepIfTold(samples, n, &p, &p.waveUs, start.waveUs);
  }
  if (fitted)
    *fitted = told;
  return p;
}
