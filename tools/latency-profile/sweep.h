/*===- sweep.h - more points where the tables need them (nn-Meter's sampler)
 *
 * After the models' own kernels, `--sweep` measures generated kernels of the
 * same types (generate.h): first along each axis around every measured
 * shape, log-spaced over the range the models showed; then, round by round,
 * between a point and its neighbours wherever leave-one-out prediction from
 * the current tables is off by more than 10%; until the time budget ends.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_SWEEP_H
#define LATENCY_PROFILE_SWEEP_H

#include "measure.h"
#include "profile_writer.h"
#include "shapes.h"

/// Everything a sweep writes and measures with.
typedef struct {
  const char *outDir;            /* the profile, rewritten every round   */
  const char *kernelDir;         /* where generated cut-outs go          */
  const char *logDir;            /* child logs                           */
  const char *rulesPath;         /* fusion.csv of the profile            */
  CmProfile rules;               /* the same rules, for detection        */
  const LpMeasureConfig *config; /* how each point is measured           */
  const LpHostInfo *info;        /* for the profile rewritten each round */
  const LpDeviceNumbers *device;
  double deadline; /* lpNow() at which to stop */
} LpSweep;

/// Per-table leave-one-out accuracy of one round.
typedef struct {
  char type[192];   /* kernel type of the table             */
  int points;       /* measured points                      */
  int answered;     /* predicted by interpolation           */
  int within10;     /* of those, within 10% of the measured */
  double sumAbsPct; /* sum of |error| in percent, answered */
} LpLooTable;

/// Runs the sweep over `set` (adding the generated shapes to it).
void lpSweepRun(LpShapeSet *set, const LpSweep *sweep);

/// Predicts every measured shape of `set` from the profile in `dir` with
/// that point left out; fills up to `max` tables and returns how many, and
/// sets `bad[i]` for shapes whose interpolated prediction is off by more
/// than 10%. `bad` has one entry per shape.
size_t lpLeaveOneOut(const char *dir, const LpShapeSet *set, LpLooTable *out,
                     size_t max, bool *bad);

#endif /* LATENCY_PROFILE_SWEEP_H */
