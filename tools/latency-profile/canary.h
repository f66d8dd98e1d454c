/*===- canary.h - watch the host for slow spells while shapes are measured ===*/
#ifndef LATENCY_PROFILE_CANARY_H
#define LATENCY_PROFILE_CANARY_H

#include "measure.h"
#include "shapes.h"

#include <stdbool.h>
#include <stddef.h>

/// A pass over the shapes of a set from `from` on, watched: every
/// LP_CANARY_EVERY measured shapes the canary (the first measured shape of
/// 10 us to 1 ms) is measured again in a process of its own.
typedef struct {
  LpShapeSet *set;
  const LpMeasureConfig *config;
  const char *logDir;
  size_t from, n;   /* the pass: shapes from..from+n-1               */
  size_t canary;    /* the canary's shape; SIZE_MAX: none chosen yet */
  double *readings; /* [i - from] before shape i, [n] after the last */
  bool *measured;   /* [i - from]: shape i was measured in the pass  */
  int sinceReading; /* shapes since the last reading, the next included */
  int numReadings;  /* readings that ran, the last one included       */
} LpCanaryWatch;

enum { LP_CANARY_EVERY = 8 };

/// Sets up a watch over the shapes of `set` from `from` on; false when out
/// of memory (the pass then goes unwatched).
bool lpCanaryWatchCreate(LpCanaryWatch *w, LpShapeSet *set, size_t from,
                         const LpMeasureConfig *config, const char *logDir);

/// Before shape `i` is measured: reads the canary when LP_CANARY_EVERY
/// shapes were measured since the last reading (or the pass began).
void lpCanaryBeforeMeasuring(LpCanaryWatch *w, size_t i);

/// After shape `i` was measured: notes it, and takes it as the canary when
/// there is none yet and it can be one.
void lpCanaryAfterMeasuring(LpCanaryWatch *w, size_t i);

/// After the pass: with two readings or more taken in it, reads the canary
/// once more, prints its median and slow readings, draws the shapes next
/// to a slow reading again (slow_window.h) and prices them from their
/// draws (draws.h); with fewer, says so. Then frees the watch.
void lpCanaryWatchFinishAndDestroy(LpCanaryWatch *w);

#endif /* LATENCY_PROFILE_CANARY_H */
