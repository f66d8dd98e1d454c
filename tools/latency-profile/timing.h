/*===- timing.h - repeat a call until its median time is stable -----------===*/
#ifndef LATENCY_PROFILE_TIMING_H
#define LATENCY_PROFILE_TIMING_H

#include <stdbool.h>

/// How long and how often to measure.
typedef struct {
  double repSeconds; /* a repetition calls the function for at least this  */
  double maxSeconds; /* stop adding repetitions after this much timing     */
  int minReps;       /* at least this many repetitions                     */
  double targetCv;   /* stop once the coefficient of variation is below it */
  bool wallClock;    /* false: the calling thread's CPU time              */
} LpTimingOptions;

/// What a measurement found: the median time of one call over the
/// repetitions, and their spread.
typedef struct {
  double medianUs; /* median over repetitions of (repetition time / calls) */
  double cvPct;    /* standard deviation / mean of those, in percent       */
  int reps;        /* repetitions taken                                    */
  long calls;      /* calls per repetition                                 */
} LpTiming;

/// Returns the seconds of the monotonic (wall) clock.
double lpNow(void);

/// Measures `call(context)` on the wall clock or (by default) the calling
/// thread's CPU time, which other processes on a busy host do not inflate:
/// a warm-up, then repetitions of `calls` calls
/// each (enough to last `repSeconds`) until at least `minReps` were taken
/// and their CV is below `targetCv`, or `maxSeconds` of timing have passed.
void lpMeasure(void (*call)(void *context), void *context,
               const LpTimingOptions *options, LpTiming *out);

enum { LP_MAX_ENTRIES = 3 };

/// A difference of interleaved timings, repetition by repetition.
typedef struct {
  double medianUs; /* median over repetitions              */
  double stderrUs; /* standard error of the mean difference */
} LpDifference;    /* functions lpMeasureInterleaved times */

/// Measures `n` (at most LP_MAX_ENTRIES) functions as lpMeasure does, but
/// interleaved: each repetition times a batch of each in turn, so what the
/// host does meanwhile (other processes, frequency) weighs on all alike
/// and their difference is measured, not the host's drift. Stops when
/// every CV is below the target, or at `maxSeconds`; `out[i]` is function
/// i's timing. One function is measured exactly as lpMeasure does.
/// `*difference` (when not NULL) receives the paired difference, first -
/// second of two functions, first + second - third of three: its median
/// over the repetitions and the standard error of its mean. A difference
/// taken repetition by repetition leaves out what drifts between them,
/// which a difference of two medians keeps.
void lpMeasureInterleaved(void (*const calls[])(void *context),
                          void *const contexts[], int n,
                          const LpTimingOptions *options, LpTiming out[],
                          LpDifference *difference);

#endif /* LATENCY_PROFILE_TIMING_H */
