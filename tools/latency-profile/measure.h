/*===- measure.h - measure one function of one file in a child ------------===*/
#ifndef LATENCY_PROFILE_MEASURE_H
#define LATENCY_PROFILE_MEASURE_H

#include <stdbool.h>

/// How every measurement of one run of the tool is taken.
typedef struct {
  const char *pipeline;  /* "loops", "vectorized" or a pipeline string */
  double repSeconds;     /* one repetition lasts at least this         */
  double maxSeconds;     /* timing per function, after the warm-up     */
  int minReps;           /* repetitions at least                       */
  double targetCv;       /* stop once the CV is below (0.025 = 2.5%)   */
  double timeoutSeconds; /* the child is killed after this             */
  bool wallClock;        /* time the wall clock, not the thread's CPU  */
  bool freshMemory;      /* a kernel: memory as in a whole run (runner.h) */
} LpMeasureConfig;

/// The outcome of one measurement.
typedef struct {
  bool ok;
  double us;         /* median time of one call                     */
  double cvPct;      /* spread of the repetitions                   */
  int reps;          /* repetitions                                 */
  int draws;         /* processes the time stands for (draws.h)     */
  long calls;        /* calls per repetition                        */
  char lowering[32]; /* pipeline that lowered it (fallback-loops..) */
  int numOthers;     /* further entries timed interleaved with it   */
  double otherUs[2]; /* their medians                               */
  double otherCv[2]; /* and spreads                                 */
  bool hasDiff;      /* two or three entries: the paired difference */
  double diffUs;     /* median of first - second, or first + second
                        - third, repetition by repetition           */
  double diffSeUs;   /* standard error of its mean                  */
  char error[640];   /* why not, when !ok                           */
} LpMeasurement;

/// Measures function `entry` (NULL: the last one; `a,b,c`: up to three,
/// timed interleaved, the others into `otherUs`) of the MLIR file `file`
/// in a child process; the child's stderr goes to `logPath` (NULL:
/// discarded). `kernelType` only feeds the crash-test hook (runner.h).
void lpMeasureFile(const LpMeasureConfig *config, const char *file,
                   const char *entry, const char *kernelType,
                   const char *logPath, LpMeasurement *out);

#endif /* LATENCY_PROFILE_MEASURE_H */
