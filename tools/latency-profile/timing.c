/*===- timing.c - repeat a call until its median time is stable -----------===*
 *
 * One repetition is a batch of calls lasting at least `repSeconds` (about
 * 50 ms), so clock resolution and the cost of reading the clock vanish;
 * the answer is the median over repetitions of the time per call, and the
 * coefficient of variation says how noisy the host was.
 *
 *===----------------------------------------------------------------------===*/
#include "timing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMaxReps = 400 };

double lpNow(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(const double *values, int n) {
  double sorted[kMaxReps];
  memcpy(sorted, values, (size_t)n * sizeof *values);
  qsort(sorted, (size_t)n, sizeof *sorted, compareDoubles);
  return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

static double cvPercent(const double *values, int n) {
  double mean = 0, var = 0;
  for (int i = 0; i < n; i++)
    mean += values[i] / n;
  for (int i = 0; i < n; i++)
    var += (values[i] - mean) * (values[i] - mean) / (n > 1 ? n - 1 : 1);
  return mean > 0 ? 100 * sqrt(var) / mean : 0;
}

/* Seconds of the wall clock or of this thread's CPU time. */
static double clockSeconds(bool wall) {
  struct timespec t;
  clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds per call of one batch of `calls` calls. */
static double timeBatch(void (*call)(void *), void *context, long calls,
                        bool wall) {
  double start = clockSeconds(wall);
  for (long i = 0; i < calls; i++)
    call(context);
  return (clockSeconds(wall) - start) / (double)calls;
}

/* Warms up (first call: page faults, lazy binding), then times batches of
 * growing size until one lasts `repSeconds` / 8; returns how many calls
 * make one repetition last `repSeconds`. A function that alone lasts a
 * whole repetition has its one timed call kept as the first sample. */
static long warmUp(void (*call)(void *), void *context, double repSeconds,
                   bool wall, double *firstSample) {
  call(context);
  long calls = 1;
  double perCall = timeBatch(call, context, calls, wall);
  *firstSample = perCall >= repSeconds ? perCall * 1e6 : -1;
  while (perCall * (double)calls < repSeconds / 8 && calls < (1L << 30)) {
    calls *= 8;
    perCall = timeBatch(call, context, calls, wall);
  }
  double wanted = perCall > 0 ? ceil(repSeconds / perCall) : 1;
  return wanted < 1 ? 1 : wanted > 1e9 ? 1000000000L : (long)wanted;
}

/* True when repetitions can stop: enough of them and a stable CV, or the
 * time is up (with at least three, for a median and a spread). */
static bool done(const double *samples, int n, double elapsed,
                 const LpTimingOptions *o) {
  if (n < 3 || (n < o->minReps && elapsed < o->maxSeconds))
    return false;
  return cvPercent(samples, n) <= o->targetCv * 100 || elapsed >= o->maxSeconds;
}

void lpMeasure(void (*call)(void *), void *context,
               const LpTimingOptions *options, LpTiming *out) {
  double samples[kMaxReps], first;
  long calls =
      warmUp(call, context, options->repSeconds, options->wallClock, &first);
  double start = lpNow();
  int n = 0;
  if (first > 0)
    samples[n++] = first;
  while (n < kMaxReps) {
    samples[n++] = timeBatch(call, context, calls, options->wallClock) * 1e6;
    if (done(samples, n, lpNow() - start, options))
      break;
  }
  out->medianUs = median(samples, n);
  out->cvPct = cvPercent(samples, n);
  out->reps = n;
  out->calls = calls;
}

/* True when every function's repetitions are done (see done()). */
static bool allDone(double (*samples)[kMaxReps], int numFunctions, int n,
                    double elapsed, const LpTimingOptions *o) {
  for (int i = 0; i < numFunctions; i++)
    if (!done(samples[i], n, elapsed, o))
      return false;
  return true;
}

/* The paired difference of the sample rows: a - b of two, a + b - c of
 * three. */
static LpDifference pairedDifference(double (*samples)[kMaxReps], int n,
                                     int reps) {
  double d[kMaxReps], mean = 0, var = 0;
  for (int r = 0; r < reps; r++) {
    d[r] = n == 2 ? samples[0][r] - samples[1][r]
                  : samples[0][r] + samples[1][r] - samples[2][r];
    mean += d[r] / reps;
  }
  for (int r = 0; r < reps; r++)
    var += (d[r] - mean) * (d[r] - mean) / (reps > 1 ? reps - 1 : 1);
  return (LpDifference){median(d, reps), sqrt(var / reps)};
}

void lpMeasureInterleaved(void (*const calls[])(void *), void *const contexts[],
                          int n, const LpTimingOptions *options, LpTiming out[],
                          LpDifference *difference) {
  if (n == 1) {
    lpMeasure(calls[0], contexts[0], options, &out[0]);
    return;
  }
  static double samples[LP_MAX_ENTRIES][kMaxReps];
  long batch[LP_MAX_ENTRIES];
  double first;
  for (int i = 0; i < n; i++) /* a first sample would not be interleaved */
    batch[i] = warmUp(calls[i], contexts[i], options->repSeconds,
                      options->wallClock, &first);
  double start = lpNow();
  int reps = 0;
  while (reps < kMaxReps) {
    for (int i = 0; i < n; i++)
      samples[i][reps] =
          timeBatch(calls[i], contexts[i], batch[i], options->wallClock) * 1e6;
    reps++;
    if (allDone(samples, n, reps, lpNow() - start, options))
      break;
  }
  for (int i = 0; i < n; i++)
    out[i] = (LpTiming){median(samples[i], reps), cvPercent(samples[i], reps),
                        reps, batch[i]};
  if (difference)
    *difference = pairedDifference(samples, n, reps);
}
