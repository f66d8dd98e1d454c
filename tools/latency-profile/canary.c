/*===- canary.c - watch the host for slow spells while shapes are measured ===*
 *
 * The project's VM has spells of half a minute to a minute in which every
 * kernel process runs 1.3-1.6x slower at an unchanged CV (p45 and p47,
 * docs/accuracy.md session 23). A fixed piece of arithmetic timed in the
 * driver did not move while single kernel processes drew 1.4-1.7x, so the
 * canary is a kernel measured in a process of its own, as the shapes are.
 * Its readings are short (at least 3 repetitions, at most a quarter of a
 * second): each is one more draw of a process, which long timing does not
 * make more certain. A reading slow against the median of those before it
 * is read again at once and the lower kept: a spell holds both, a single
 * process that drew badly (7% of them over 1.1x) not.
 *
 *===----------------------------------------------------------------------===*/
#include "canary.h"

#include "draws.h"
#include "measure_shapes.h"
#include "slow_window.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { kWaitSeconds = 60, kWaitStepSeconds = 5 };

bool lpCanaryWatchCreate(LpCanaryWatch *w, LpShapeSet *set, size_t from,
                         const LpMeasureConfig *config, const char *logDir) {
  size_t n = set->count > from ? set->count - from : 0;
  *w = (LpCanaryWatch){.set = set,
                       .config = config,
                       .logDir = logDir,
                       .from = from,
                       .n = n,
                       .canary = SIZE_MAX,
                       .readings = calloc(n + 1, sizeof(double)),
                       .measured = calloc(n ? n : 1, sizeof(bool))};
  if (!w->readings || !w->measured) {
    free(w->readings);
    free(w->measured);
    return false;
  }
  return true;
}

static bool canBeCanary(const LpShape *s) {
  return !s->skipped && s->result.ok && s->result.us >= 10 &&
         s->result.us <= 1000;
}

static LpMeasureConfig shortConfig(const LpMeasureConfig *config) {
  LpMeasureConfig shorter = *config;
  shorter.minReps = 3;
  shorter.maxSeconds = fmin(config->maxSeconds, 0.25);
  return shorter;
}

/* The two kinds of draw: a canary reading and a shape drawn again, each
 * with its child's log suffix and what a failure is called. */
typedef struct {
  const char *logSuffix, *what;
} DrawKind;
static const DrawKind kCanaryReading = {"-canary", "a canary reading"};
static const DrawKind kDrawAgain = {"-draw", "drawing again"};

/* Draws shape `i` again, into `us[*drawn]` when it runs; says why not. */
static void drawShape(const LpCanaryWatch *w, size_t i, DrawKind kind,
                      double *us, int *drawn) {
  LpMeasureConfig shorter = shortConfig(w->config);
  LpMeasurement again;
  lpMeasureShape(w->set, i, &shorter, w->logDir, kind.logSuffix, &again);
  if (again.ok)
    us[(*drawn)++] = again.us;
  else
    printf("  [%3zu] %s: %s failed: %s\n", i + 1, w->set->items[i].type,
           kind.what, again.error);
}

/* One reading of the canary (0 when it failed). */
static double readCanary(const LpCanaryWatch *w) {
  double us[2];
  int drawn = 0;
  drawShape(w, w->canary, kCanaryReading, us, &drawn);
  double typical = lpTypicalReading(w->readings, w->n + 1);
  if (drawn == 1 && lpReadingIsSlow(us[0], typical, LP_SLOW_TOLERANCE))
    drawShape(w, w->canary, kCanaryReading, us, &drawn);
  return drawn == 2 ? fmin(us[0], us[1]) : drawn == 1 ? us[0] : 0;
}

void lpCanaryBeforeMeasuring(LpCanaryWatch *w, size_t i) {
  /* every shape counts, the canary chosen or not, so that the readings
   * fall every LP_CANARY_EVERY shapes from the start of the pass */
  if (++w->sinceReading <= LP_CANARY_EVERY || w->canary == SIZE_MAX)
    return;
  w->readings[i - w->from] = readCanary(w);
  w->numReadings += w->readings[i - w->from] > 0;
  w->sinceReading = 1;
}

void lpCanaryAfterMeasuring(LpCanaryWatch *w, size_t i) {
  w->measured[i - w->from] = true;
  if (w->canary == SIZE_MAX && canBeCanary(&w->set->items[i]))
    w->canary = i;
}

/* Reads the canary, every kWaitStepSeconds up to kWaitSeconds, until it
 * reads typical; false if it never did (a failed reading is not typical).
 * The last reading of the pass counts when it was typical. */
static bool waitForTypicalHost(const LpCanaryWatch *w) {
  double typical = lpTypicalReading(w->readings, w->n + 1);
  double last = w->readings[w->n];
  if (last > 0 && !lpReadingIsSlow(last, typical, LP_SLOW_TOLERANCE))
    return true;
  double start = lpNow();
  for (;;) {
    sleep(kWaitStepSeconds);
    double reading = readCanary(w);
    if (reading > 0 && !lpReadingIsSlow(reading, typical, LP_SLOW_TOLERANCE))
      return true;
    if (lpNow() - start >= kWaitSeconds)
      return false;
  }
}

/* Draws the shapes `suspect` marks again, each in a process of its own,
 * and a third time where two draws disagree; prices them from their draws
 * (lpPriceDraws). A shape whose second draw failed keeps its first, with
 * `draws` 0: suspect, not drawn again. */
static void drawAgain(const LpCanaryWatch *w, const bool *suspect) {
  double(*us)[3] = calloc(w->n ? w->n : 1, sizeof *us);
  int *drawn = calloc(w->n ? w->n : 1, sizeof *drawn);
  if (!us || !drawn) {
    printf("drawing again: out of memory; the shapes keep their first draw\n");
    free(us);
    free(drawn);
    return;
  }
  size_t numRedrawn = 0, numApart = 0;
  for (size_t i = 0; i < w->n; i++)
    if (suspect[i]) {
      us[i][drawn[i]++] = w->set->items[w->from + i].result.us;
      drawShape(w, w->from + i, kDrawAgain, us[i], &drawn[i]);
      numRedrawn += drawn[i] == 2;
    }
  for (size_t i = 0; i < w->n; i++) {
    if (drawn[i] != 2 || lpDrawsAgree(us[i][0], us[i][1], LP_DRAW_TOLERANCE))
      continue;
    const LpShape *s = &w->set->items[w->from + i];
    numApart++;
    drawShape(w, w->from + i, kDrawAgain, us[i], &drawn[i]);
    double price;
    lpPriceDraws(us[i], drawn[i], &price);
    printf("  [%3zu] %-36s %-40s %.3f and %.3f us apart", w->from + i + 1,
           s->type, s->axes, us[i][0], us[i][1]);
    if (drawn[i] == 3)
      printf(", third %.3f: %.3f kept\n", us[i][2], price);
    else
      printf(", the third failed: %.3f kept\n", price);
  }
  for (size_t i = 0; i < w->n; i++)
    if (suspect[i]) {
      LpMeasurement *r = &w->set->items[w->from + i].result;
      r->draws = drawn[i] >= 2 ? lpPriceDraws(us[i], drawn[i], &r->us) : 0;
    }
  printf("drew %zu shapes again; %zu came out over %.0f%% apart and were "
         "drawn a third time\n",
         numRedrawn, numApart, 100 * LP_DRAW_TOLERANCE);
  free(us);
  free(drawn);
}

/* Prints the canary's median and slow readings, and draws again the
 * measured shapes a slow reading touched; those that failed stay failed.
 * When the host reads slow for a minute, the suspects keep their first
 * draw, with `draws` 0. */
static void redrawSlowWindows(const LpCanaryWatch *w) {
  bool *suspect = calloc(w->n ? w->n : 1, sizeof *suspect);
  if (!suspect) {
    printf("canary: out of memory; nothing drawn again\n");
    return;
  }
  size_t marked =
      lpMarkSlowWindows(w->readings, w->n, LP_SLOW_TOLERANCE, suspect);
  for (size_t i = 0; i < w->n; i++)
    if (suspect[i] &&
        !(w->measured[i] && w->set->items[w->from + i].result.ok)) {
      suspect[i] = false;
      marked--;
    }
  double typical = lpTypicalReading(w->readings, w->n + 1);
  printf("canary %s (shape %zu): %d readings, median %.3f us; slow (%.0f%% "
         "or more above):",
         w->set->items[w->canary].type, w->canary + 1, w->numReadings, typical,
         100 * LP_SLOW_TOLERANCE);
  size_t numSlow = 0;
  for (size_t i = 0; i <= w->n; i++)
    if (lpReadingIsSlow(w->readings[i], typical, LP_SLOW_TOLERANCE)) {
      numSlow++;
      if (i < w->n)
        printf(" %.3f us before shape %zu", w->readings[i], w->from + i + 1);
      else
        printf(" %.3f us after the last", w->readings[i]);
    }
  printf("%s\n", numSlow ? "" : " none");
  if (marked && !waitForTypicalHost(w)) {
    printf("the host still reads slow after %d s: %zu shapes keep their "
           "first draw (draws 0)\n",
           kWaitSeconds, marked);
    for (size_t i = 0; i < w->n; i++)
      if (suspect[i])
        w->set->items[w->from + i].result.draws = 0;
  } else if (marked) {
    printf("drawing the %zu shapes around them again:\n", marked);
    drawAgain(w, suspect);
  }
  free(suspect);
}

void lpCanaryWatchFinishAndDestroy(LpCanaryWatch *w) {
  size_t numMeasured = 0;
  for (size_t i = 0; i < w->n; i++)
    numMeasured += w->measured[i];
  /* two readings in the pass and a last one make the three a median needs
   * (lpMarkSlowWindows); with fewer the last one is not taken */
  if (numMeasured == 0)
    ; /* nothing was measured: nothing to say */
  else if (w->canary == SIZE_MAX)
    printf("canary: none (no shape of 10 us to 1 ms was measured)\n");
  else if (w->numReadings < 2)
    printf("canary %s (shape %zu): %d readings in %zu shapes, too few to "
           "judge\n",
           w->set->items[w->canary].type, w->canary + 1, w->numReadings,
           numMeasured);
  else {
    w->readings[w->n] = readCanary(w);
    w->numReadings += w->readings[w->n] > 0;
    redrawSlowWindows(w);
  }
  free(w->readings);
  free(w->measured);
}
