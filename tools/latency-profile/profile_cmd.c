/*===- profile_cmd.c - latency-profile --out DIR MODEL... -----------------===*
 *
 * Detect the kernels of the models as the pass would, cut each distinct
 * shape out, measure it in a child of its own, probe the host's roofline
 * numbers through the same pipeline, and write the profile. A kernel that
 * cannot be cut out, lowered or run is reported and left out; the others
 * are kept.
 *
 *===----------------------------------------------------------------------===*/
#include "commands.h"

#include "device_probe.h"
#include "draws.h"
#include "files.h"
#include "fusion_rules.h"
#include "pipelines.h"
#include "profile_writer.h"
#include "slow_window.h"
#include "sweep.h"
#include "timing.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lpKernelConfig(LpMeasureConfig *config, const LpOptions *o,
                    size_t numShapes) {
  double perShape = 1.0;
  if (o->budget > 0 && numShapes > 0)
    perShape = o->budget * 0.4 / (double)numShapes;
  perShape = perShape < 0.1 ? 0.1 : perShape > 2.0 ? 2.0 : perShape;
  config->pipeline = o->pipeline;
  config->wallClock = o->wallClock;
  config->freshMemory = true; /* a kernel pays for pages as in a whole run */
  config->maxSeconds = perShape;
  config->repSeconds = perShape / 5 < 0.05 ? perShape / 5 : 0.05;
  config->minReps = 5;
  config->targetCv = 0.025;
  config->timeoutSeconds = o->timeout > 0 ? o->timeout : 300;
}

static void printShape(const LpShape *s, size_t i, size_t n) {
  printf("[%3zu/%zu] %-36s %-48s ", i + 1, n, s->type, s->axes);
  if (s->skipped)
    printf("skipped: %s\n", s->result.error);
  else if (!s->result.ok)
    printf("FAILED: %s\n", s->result.error);
  else
    printf("%12.3f us  cv %4.1f%%  %3d reps%s%s\n", s->result.us,
           s->result.cvPct, s->result.reps,
           strcmp(s->result.lowering, "fallback-loops") ? "" : "  (fallback)",
           "");
  fflush(stdout);
}

/* Measures shape `i` of `set` into `*out`; a failure's message names the
 * child's log, which is kept. */
static void measureShape(const LpShapeSet *set, size_t i,
                         const LpMeasureConfig *config, const char *logDir,
                         LpMeasurement *out) {
  const LpShape *s = &set->items[i];
  char log[4400];
  snprintf(log, sizeof log, "%s/%03zu.log", logDir, i);
  lpMeasureFile(config, s->file, "kernel", s->type, log, out);
  if (out->ok)
    unlink(log);
  else {
    size_t used = strlen(out->error);
    snprintf(out->error + used, sizeof out->error - used, " (log: %.400s)",
             log);
  }
}

/* Draws shape `i` of `set` again, into `us[*drawn]` when it runs. */
static void drawShape(const LpShapeSet *set, size_t i,
                      const LpMeasureConfig *config, const char *logDir,
                      double *us, int *drawn) {
  LpMeasurement again;
  measureShape(set, i, config, logDir, &again);
  if (again.ok)
    us[(*drawn)++] = again.us;
}

/* Later draws, of a shape or of the canary, are timed short: each is one
 * more draw of the process, which long timing does not make more
 * certain. */
static LpMeasureConfig shortConfig(const LpMeasureConfig *config) {
  LpMeasureConfig shorter = *config;
  shorter.minReps = 3;
  shorter.maxSeconds = fmin(config->maxSeconds, 0.25);
  return shorter;
}

/* Measures again every kCanaryEvery shapes a fixed one, the canary, to see
 * the host's slow spells (slow_window.h). */
enum { kCanaryEvery = 8, kCanaryWaitSeconds = 60 };

typedef struct {
  const LpShapeSet *set;
  const LpMeasureConfig *config;
  const char *logDir;
  size_t index;     /* the canary's shape; SIZE_MAX: none chosen yet */
  double *readings; /* before measurement i - from, [n] after the last */
  size_t from, n;
} Canary;

/* A shape the canary can be: measured, and long enough that its timing is
 * not the clock's (10 us) but short enough to cost little (1 ms). */
static bool canBeCanary(const LpShape *s) {
  return !s->skipped && s->result.ok && s->result.us >= 10 &&
         s->result.us <= 1000;
}

/* One reading of the canary; a slow one is read again in a new process and
 * the lower kept, since a slow spell holds both while a single process
 * that drew badly (session 23: 7% of them over 1.1x) does not. */
static double readCanary(const Canary *c) {
  LpMeasureConfig shorter = shortConfig(c->config);
  double us[2];
  int drawn = 0;
  drawShape(c->set, c->index, &shorter, c->logDir, us, &drawn);
  double typical = lpTypicalReading(c->readings, c->n + 1);
  if (drawn == 1 && lpReadingIsSlow(us[0], typical, LP_SLOW_TOLERANCE))
    drawShape(c->set, c->index, &shorter, c->logDir, us, &drawn);
  return drawn == 2 ? fmin(us[0], us[1]) : drawn == 1 ? us[0] : 0;
}

/* Waits, up to kCanaryWaitSeconds, for a canary reading that is not slow. */
static void waitForTypicalHost(const Canary *c) {
  double typical = lpTypicalReading(c->readings, c->n + 1);
  double start = lpNow();
  while (lpReadingIsSlow(readCanary(c), typical, LP_SLOW_TOLERANCE) &&
         lpNow() - start < kCanaryWaitSeconds)
    sleep(5);
}

/* Draws again, each in a process of its own, the shapes `suspect` marks
 * (index from `from`), and a third time where the two draws disagree; the
 * time kept is what lpCombineDraws makes of them. A draw that fails leaves
 * the ones that ran. */
static void drawAgain(LpShapeSet *set, size_t from, const bool *suspect,
                      const Canary *canary) {
  size_t n = set->count - from;
  double(*us)[3] = calloc(n ? n : 1, sizeof *us);
  int *drawn = calloc(n ? n : 1, sizeof *drawn);
  if (!us || !drawn) {
    free(us);
    free(drawn);
    return;
  }
  waitForTypicalHost(canary);
  LpMeasureConfig shorter = shortConfig(canary->config);
  size_t twice = 0, thrice = 0;
  for (size_t i = 0; i < n; i++)
    if (suspect[i]) {
      us[i][drawn[i]++] = set->items[from + i].result.us;
      drawShape(set, from + i, &shorter, canary->logDir, us[i], &drawn[i]);
      twice += drawn[i] == 2;
    }
  for (size_t i = 0; i < n; i++) {
    if (drawn[i] != 2 || lpDrawsAgree(us[i][0], us[i][1], LP_DRAW_TOLERANCE))
      continue;
    const LpShape *s = &set->items[from + i];
    drawShape(set, from + i, &shorter, canary->logDir, us[i], &drawn[i]);
    thrice += drawn[i] == 3;
    printf("  [%3zu] %-36s %-40s %.3f and %.3f us apart", from + i + 1, s->type,
           s->axes, us[i][0], us[i][1]);
    if (drawn[i] == 3)
      printf(", third %.3f: %.3f kept\n", us[i][2], lpCombineDraws(us[i], 3));
    else
      printf(", the third failed: the first kept\n");
  }
  for (size_t i = 0; i < n; i++) {
    LpMeasurement *r = &set->items[from + i].result;
    if (drawn[i] == 3 || (drawn[i] == 2 && lpDrawsAgree(us[i][0], us[i][1],
                                                        LP_DRAW_TOLERANCE))) {
      r->us = lpCombineDraws(us[i], drawn[i]);
      r->draws = drawn[i];
    }
  }
  printf("drew %zu shapes again; %zu came out over %.0f%% apart and were "
         "drawn a third time\n",
         twice, thrice, 100 * LP_DRAW_TOLERANCE);
  free(us);
  free(drawn);
}

/* The shapes measured in this pass (`measured`) that a slow reading of the
 * canary touched are drawn again; those that failed stay failed. */
static void redrawSlowWindows(LpShapeSet *set, const Canary *c,
                              const bool *measured) {
  bool *suspect = calloc(c->n ? c->n : 1, sizeof *suspect);
  if (!suspect)
    return;
  size_t marked =
      lpMarkSlowWindows(c->readings, c->n, LP_SLOW_TOLERANCE, suspect);
  for (size_t i = 0; i < c->n; i++)
    if (suspect[i] && !(measured[i] && set->items[c->from + i].result.ok)) {
      suspect[i] = false;
      marked--;
    }
  size_t numReadings = 0, numSlow = 0;
  double typical = lpTypicalReading(c->readings, c->n + 1);
  for (size_t i = 0; i <= c->n; i++) {
    numReadings += c->readings[i] > 0;
    numSlow += lpReadingIsSlow(c->readings[i], typical, LP_SLOW_TOLERANCE);
  }
  printf("canary %s: %zu readings, median %.3f us, %zu slow (over %.0f%% "
         "above)%s\n",
         set->items[c->index].type, numReadings, typical, numSlow,
         100 * LP_SLOW_TOLERANCE,
         marked ? "; drawing the shapes around them again:" : "");
  if (marked)
    drawAgain(set, c->from, suspect, c);
  free(suspect);
}

/* Measures the shapes from `from` on that are neither skipped nor
 * measured, reading the canary `c` (NULL: none) every kCanaryEvery of them
 * and choosing it from the first that can be, when none is yet. */
static void measureEach(LpShapeSet *set, size_t from,
                        const LpMeasureConfig *config, const char *logDir,
                        Canary *c, bool *measured) {
  int sinceReading = 0;
  for (size_t i = from; i < set->count; i++) {
    LpShape *s = &set->items[i];
    if (!s->skipped && !s->result.ok) {
      if (c && c->index != SIZE_MAX && ++sinceReading > kCanaryEvery) {
        c->readings[i - from] = readCanary(c);
        sinceReading = 1;
      }
      measureShape(set, i, config, logDir, &s->result);
      if (measured)
        measured[i - from] = true;
      if (c && c->index == SIZE_MAX && canBeCanary(s))
        c->index = i;
    }
    printShape(s, i, set->count);
  }
}

void lpMeasureShapes(LpShapeSet *set, size_t from,
                     const LpMeasureConfig *config, const char *logDir) {
  measureEach(set, from, config, logDir, NULL, NULL);
}

void lpMeasureShapesWithCanary(LpShapeSet *set, size_t from,
                               const LpMeasureConfig *config,
                               const char *logDir) {
  size_t n = set->count > from ? set->count - from : 0;
  Canary c = {set,  config, logDir, SIZE_MAX, calloc(n + 1, sizeof(double)),
              from, n};
  bool *measured = calloc(n ? n : 1, sizeof *measured);
  if (!c.readings || !measured) {
    measureEach(set, from, config, logDir, NULL, NULL);
  } else {
    for (size_t i = 0; i < from && c.index == SIZE_MAX; i++)
      if (canBeCanary(&set->items[i]))
        c.index = i; /* one measured before */
    measureEach(set, from, config, logDir, &c, measured);
    if (c.index != SIZE_MAX) {
      c.readings[n] = readCanary(&c);
      redrawSlowWindows(set, &c, measured);
    }
  }
  free(c.readings);
  free(measured);
}

/* The profile fusion rules come from: `rules`, else the shipped CPU
 * profile's. Loads them into `*out` for detection and names the file. */
static bool loadRules(const char *rules, CmProfile *out, char *path,
                      size_t size) {
  char dir[4096];
  CmError e;
  if (!cmProfileFindDir("epyc-9654", dir, sizeof dir, &e) ||
      cmProfileCreateFromDirWithoutTables(dir, out, &e) != CM_OK ||
      (rules && cmProfileLoadFusionRules(*out, rules, &e) != CM_OK)) {
    fprintf(stderr, "latency-profile: fusion rules: %s\n", e.message);
    return false;
  }
  snprintf(path, size, rules ? "%s" : "%s/fusion.csv", rules ? rules : dir);
  return true;
}

/* Learns the fusion rules (--fusion-rules) into `path`, within 40% of the
 * budget; the kernels are then detected with them. */
static bool learnRules(const LpOptions *o, const char *path, double start) {
  char dir[4300], err[1200];
  snprintf(dir, sizeof dir, "%s/kernels/fusion", o->outDir);
  if (!lpMakeDirs(dir, err, sizeof err)) {
    fprintf(stderr, "latency-profile: %s\n", err);
    return false;
  }
  double deadline = o->budget > 0 ? start + 0.4 * o->budget : 0;
  return lpLearnFusionRules(o, dir, path, deadline);
}

/* Collects the shapes of every model; returns how many models failed. */
static int collect(const LpOptions *o, CmProfile rules, const char *kernelDir,
                   LpShapeSet *set) {
  LpHost host;
  lpHostCreate(&host);
  int failed = 0;
  for (int i = 0; i < o->numModels; i++) {
    char err[1200];
    if (!lpShapeSetAddModel(set, &host, rules,
                            lpPipelineResolve(o->pipeline).passes, o->models[i],
                            kernelDir, err, sizeof err)) {
      fprintf(stderr, "latency-profile: %s: %s\n", o->models[i], err);
      failed++;
    }
  }
  lpHostDestroy(&host);
  return failed;
}

/* The distinct dtypes the shapes are queried with. */
static int shapeDtypes(const LpShapeSet *set, const char **out, int max) {
  int n = 0;
  for (size_t i = 0; i < set->count; i++) {
    const char *d = lpShapeField(&set->items[i], "dtype");
    bool seen = !d;
    for (int j = 0; j < n && !seen; j++)
      seen = !strcmp(out[j], d);
    if (!seen && n < max)
      out[n++] = d;
  }
  return n;
}

static void summarize(const LpShapeSet *set, size_t rows, const char *dir,
                      double seconds) {
  size_t ok = 0, skipped = 0, failed = 0;
  for (size_t i = 0; i < set->count; i++) {
    const LpShape *s = &set->items[i];
    ok += s->result.ok;
    skipped += s->skipped;
    failed += !s->skipped && !s->result.ok;
  }
  printf("wrote %s: %zu rows; %zu shapes measured, %zu failed, %zu skipped "
         "(%.0f s)\n",
         dir, rows, ok, failed, skipped, seconds);
  for (size_t i = 0; i < set->count; i++)
    if (!set->items[i].skipped && !set->items[i].result.ok)
      printf("  failed: %s %s: %s\n", set->items[i].type, set->items[i].axes,
             set->items[i].result.error);
}

/* Measures the host's roofline numbers through the pipeline. */
static void probe(const LpOptions *o, const LpShapeSet *set,
                  const char *kernelDir, const char *name,
                  LpDeviceNumbers *device) {
  LpMeasureConfig config;
  lpKernelConfig(&config, o, 1);
  bool quick = o->budget > 0 && o->budget < 30;
  config.maxSeconds = quick ? 0.2 : 1.0;
  const char *dtypes[LP_MAX_DTYPES];
  int numDtypes = shapeDtypes(set, dtypes, LP_MAX_DTYPES);
  printf("host roofline through the %s pipeline:\n", name);
  lpProbeDevice(&config, quick, kernelDir, dtypes, numDtypes, device, stdout);
}

/* The sweep, until the budget (default 10 minutes) is spent. */
static void sweep(const LpOptions *o, LpShapeSet *set, const char *kernelDir,
                  const char *logDir, const char *rulesPath, CmProfile rules,
                  const LpHostInfo *info, const LpDeviceNumbers *device,
                  double start) {
  LpMeasureConfig config;
  lpKernelConfig(&config, o, set->count);
  LpSweep sw = {
      o->outDir, kernelDir, logDir,
      rulesPath, rules,     &config,
      info,      device,    start + (o->budget > 0 ? o->budget : 600)};
  lpSweepRun(set, &sw);
}

int lpProfileMain(const LpOptions *o) {
  double start = lpNow();
  LpPipeline pipeline = lpPipelineResolve(o->pipeline);
  char kernelDir[4200], logDir[4200], rulesPath[4200], err[1200];
  snprintf(kernelDir, sizeof kernelDir, "%s/kernels", o->outDir);
  snprintf(logDir, sizeof logDir, "%s/logs", o->outDir);
  CmProfile rules;
  if (!lpMakeDirs(kernelDir, err, sizeof err) ||
      !lpMakeDirs(logDir, err, sizeof err)) {
    fprintf(stderr, "latency-profile: %s\n", err);
    return 1;
  }
  char learned[4200];
  snprintf(learned, sizeof learned, "%s/fusion-learned.csv", o->outDir);
  if (o->fusionRules && !learnRules(o, learned, start))
    return 1;
  if (!loadRules(o->fusionRules ? learned : o->rules, &rules, rulesPath,
                 sizeof rulesPath))
    return 1;
  LpShapeSet set = {0};
  collect(o, rules, kernelDir, &set);
  printf("%zu distinct kernel shapes in %d model%s; pipeline %s\n", set.count,
         o->numModels, o->numModels == 1 ? "" : "s", pipeline.name);
  LpMeasureConfig config;
  lpKernelConfig(&config, o, set.count);
  lpMeasureShapesWithCanary(&set, 0, &config, logDir);
  LpDeviceNumbers device;
  probe(o, &set, kernelDir, pipeline.name, &device);
  LpHostInfo info;
  lpHostInfoGet(&info, pipeline.name, pipeline.passes, o->threads,
                o->wallClock);
  info.schedule = pipeline.schedule;
  if (o->sweep)
    sweep(o, &set, kernelDir, logDir, rulesPath, rules, &info, &device, start);
  size_t rows = 0;
  if (!lpWriteProfile(o->outDir, &set, &info, &device, rulesPath, &rows, err,
                      sizeof err))
    fprintf(stderr, "latency-profile: %s\n", err);
  summarize(&set, rows, o->outDir, lpNow() - start);
  if (o->fusionRules)
    unlink(learned); /* copied into fusion.csv */
  cmProfileDestroy(rules);
  lpShapeSetFree(&set);
  if (rows == 0)
    fprintf(stderr, "latency-profile: no kernel was measured, so the profile "
                    "has no tables (failures and skips are listed above)\n");
  return rows > 0 ? 0 : 1;
}
