/*===- measure_shapes.c - measure the shapes of a set, a child each -------===*/
#include "measure_shapes.h"

#include "canary.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void lpMeasureShape(const LpShapeSet *set, size_t i,
                    const LpMeasureConfig *config, const char *logDir,
                    const char *logSuffix, LpMeasurement *out) {
  const LpShape *s = &set->items[i];
  char log[4400];
  snprintf(log, sizeof log, "%s/%03zu%s.log", logDir, i, logSuffix);
  lpMeasureFile(config, s->file, "kernel", s->type, log, out);
  if (out->ok)
    unlink(log);
  else {
    size_t used = strlen(out->error);
    snprintf(out->error + used, sizeof out->error - used, " (log: %.400s)",
             log);
  }
}

/* Prints shape `i` of `n` and its measurement as one line. */
static void printShape(const LpShape *s, size_t i, size_t n) {
  printf("[%3zu/%zu] %-36s %-48s ", i + 1, n, s->type, s->axes);
  if (s->skipped)
    printf("skipped: %s\n", s->result.error);
  else if (!s->result.ok)
    printf("FAILED: %s\n", s->result.error);
  else
    printf("%12.3f us  cv %4.1f%%  %3d reps%s\n", s->result.us, s->result.cvPct,
           s->result.reps,
           strcmp(s->result.lowering, "fallback-loops") ? "" : "  (fallback)");
  fflush(stdout);
}

/* The measuring loop; `watch` (NULL: none) reads its canary before the
 * shapes it should and learns which were measured. */
static void measureEach(LpShapeSet *set, size_t from,
                        const LpMeasureConfig *config, const char *logDir,
                        LpCanaryWatch *watch) {
  for (size_t i = from; i < set->count; i++) {
    LpShape *s = &set->items[i];
    if (!s->skipped && !s->result.ok) {
      if (watch)
        lpCanaryBeforeMeasuring(watch, i);
      lpMeasureShape(set, i, config, logDir, "", &s->result);
      if (watch)
        lpCanaryAfterMeasuring(watch, i);
    }
    printShape(s, i, set->count);
  }
}

void lpMeasureShapes(LpShapeSet *set, size_t from,
                     const LpMeasureConfig *config, const char *logDir) {
  measureEach(set, from, config, logDir, NULL);
}

void lpMeasureShapesWithCanary(LpShapeSet *set, size_t from,
                               const LpMeasureConfig *config,
                               const char *logDir) {
  LpCanaryWatch watch;
  bool watching = lpCanaryWatchCreate(&watch, set, from, config, logDir);
  measureEach(set, from, config, logDir, watching ? &watch : NULL);
  if (watching)
    lpCanaryWatchFinishAndDestroy(&watch);
}
