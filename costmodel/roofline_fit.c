/*===- roofline_fit.c - roofline parameters fitted to measured times ------===*
 *
 * Four numbers per kernel class (compute and memory efficiency, a launch
 * floor, a cost per wave of tiles) against thousands of points: a coarse
 * grid over all four on a subsample finds the right basin (the error is
 * not convex: which bound wins changes with the efficiencies), then a
 * pattern search on every sample refines it in (ln ce, ln me, launch,
 * wave). Only strict improvements move the answer, and a parameter whose
 * start value does as well is put back, so what the data cannot tell stays
 * as device.csv had it.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/roofline_fit.h"

#include <math.h>
#include <stdlib.h>

enum {
  kDims = 4,              /* ln ce, ln me, launch, wave               */
  kGridEfficiencies = 16, /* log-spaced over [kMinEff, kMaxEff]       */
  kGridLaunches = 9,      /* 0 .. the median measured time            */
  kGridWaves = 7,         /* 0, then halvings of a tenth of it        */
  kGridSamples = 1024,    /* subsample of the coarse grid             */
  kMaxSweeps = 400        /* pattern search sweeps                    */
};
static const double kMinEff = 0.005, kMaxEff = 2;

double cmRooflinePredict(const CmRooflineParams *params,
                         const CmRooflineSample *sample) {
  double compute = sample->computeUs / params->computeEfficiency;
  double memory = sample->memoryUs / params->memoryEfficiency;
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

static double gridEfficiency(int i) {
  return kMinEff * pow(kMaxEff / kMinEff, i / (double)(kGridEfficiencies - 1));
}

/* The best grid point on a subsample, or `start` when none beats it. */
static CmRooflineParams coarseGrid(const CmRooflineSample *samples, size_t n,
                                   CmRooflineParams start, double maxFloor) {
  size_t stride = n > kGridSamples ? n / kGridSamples : 1;
  CmRooflineParams best = start;
  double bestError = errorStrided(&start, samples, n, stride);
  for (int c = 0; c < kGridEfficiencies; c++)
    for (int m = 0; m < kGridEfficiencies; m++)
      for (int l = 0; l < kGridLaunches; l++)
        for (int w = 0; w < kGridWaves; w++) {
          CmRooflineParams p = {gridEfficiency(c), gridEfficiency(m),
                                maxFloor * l / (kGridLaunches - 1),
                                w ? 0.1 * maxFloor * ldexp(1, 1 - w) : 0};
          double error = errorStrided(&p, samples, n, stride);
          if (error < bestError) {
            best = p;
            bestError = error;
          }
        }
  return best;
}

static CmRooflineParams fromVector(const double x[kDims]) {
  return (CmRooflineParams){exp(x[0]), exp(x[1]), x[2], x[3]};
}

/* Hooke-Jeeves without the pattern move: try +-step on each coordinate,
 * keep strict improvements, halve the steps when none helps. */
static CmRooflineParams patternSearch(const CmRooflineSample *samples, size_t n,
                                      CmRooflineParams from, double maxFloor) {
  double x[kDims] = {log(from.computeEfficiency), log(from.memoryEfficiency),
                     from.launchUs, from.waveUs};
  const double lo[kDims] = {log(kMinEff), log(kMinEff), 0, 0};
  const double hi[kDims] = {log(kMaxEff), log(kMaxEff), maxFloor, maxFloor};
  double step[kDims] = {0.25, 0.25, maxFloor / 16, maxFloor / 64};
  double floorTolerance = 1e-5 * fmax(maxFloor, 1e-3);
  const double tolerance[kDims] = {1e-4, 1e-4, floorTolerance, floorTolerance};
  CmRooflineParams p = fromVector(x);
  double best = cmRooflineFitError(&p, samples, n);
  for (int sweep = 0; sweep < kMaxSweeps; sweep++) {
    bool improved = false, moving = false;
    for (int d = 0; d < kDims; d++) {
      moving |= step[d] > tolerance[d];
      for (int sign = -1; sign <= 1 && step[d] > tolerance[d]; sign += 2) {
        double y[kDims] = {x[0], x[1], x[2], x[3]};
        y[d] = fmin(fmax(x[d] + sign * step[d], lo[d]), hi[d]);
        p = fromVector(y);
        double error = cmRooflineFitError(&p, samples, n);
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
      for (int d = 0; d < kDims; d++)
        step[d] /= 2;
  }
  return fromVector(x);
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

CmRooflineParams cmRooflineFit(const CmRooflineSample *samples, size_t n,
                               CmRooflineParams start,
                               CmRooflineFitted *fitted) {
  CmRooflineFitted told = {false, false, false};
  CmRooflineParams p = start;
  if (n > 0) {
    double maxFloor = fmin(medianMeasured(samples, n), 1e6);
    start.launchUs = fmin(fmax(start.launchUs, 0), maxFloor);
    start.waveUs = fmin(fmax(start.waveUs, 0), maxFloor);
    p = coarseGrid(samples, n, start, maxFloor);
    p = patternSearch(samples, n, p, maxFloor);
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
