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
#include "sweep.h"
#include "timing.h"

#include <math.h>
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

/* A shape and what it weighs in its models: its time by its uses. */
typedef struct {
  size_t index;
  double weight;
} Weighed;

static int heaviestFirst(const void *a, const void *b) {
  double x = ((const Weighed *)a)->weight, y = ((const Weighed *)b)->weight;
  return (x < y) - (x > y);
}

/* The measured shapes from `from` on, each drawn again in a process of its
 * own once all were drawn once, heaviest first (time by uses) while
 * `seconds` last (0: all of them), and a third time where the two draws
 * disagree; the time kept is what lpCombineDraws makes of them. A draw
 * that fails leaves the ones that ran. The later draws are timed short
 * (3 repetitions, at most a quarter second): each is one more draw of
 * where the process lands, which the first draw's long timing does not
 * make more certain. */
static void drawAgain(LpShapeSet *set, size_t from,
                      const LpMeasureConfig *config, const char *logDir,
                      double seconds) {
  size_t n = set->count - from;
  double(*us)[3] = calloc(n ? n : 1, sizeof *us);
  int *drawn = calloc(n ? n : 1, sizeof *drawn);
  Weighed *order = calloc(n ? n : 1, sizeof *order);
  size_t numOrder = 0;
  if (!us || !drawn || !order) {
    free(us);
    free(drawn);
    free(order);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    const LpShape *s = &set->items[from + i];
    if (!s->skipped && s->result.ok) {
      us[i][drawn[i]++] = s->result.us;
      order[numOrder++] =
          (Weighed){i, s->result.us * (s->uses > 1 ? s->uses : 1)};
    }
  }
  qsort(order, numOrder, sizeof *order, heaviestFirst);
  LpMeasureConfig shorter = *config;
  shorter.minReps = 3;
  shorter.maxSeconds = fmin(config->maxSeconds, 0.25);
  printf("a second draw of each shape, a process each, heaviest first%s:\n",
         seconds > 0 ? " while the time for them lasts" : "");
  fflush(stdout);
  double start = lpNow();
  size_t twice = 0, thrice = 0;
  for (size_t k = 0; k < numOrder; k++) {
    if (seconds > 0 && lpNow() - start > seconds)
      break;
    size_t i = order[k].index;
    drawShape(set, from + i, &shorter, logDir, us[i], &drawn[i]);
    twice += drawn[i] == 2;
  }
  for (size_t k = 0; k < numOrder; k++) {
    size_t i = order[k].index;
    if (drawn[i] != 2 || lpDrawsAgree(us[i][0], us[i][1], LP_DRAW_TOLERANCE))
      continue;
    const LpShape *s = &set->items[from + i];
    drawShape(set, from + i, &shorter, logDir, us[i], &drawn[i]);
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
  printf("drew %zu of %zu shapes twice (%.0f s); %zu came out over %.0f%% "
         "apart and were drawn a third time\n",
         twice, numOrder, lpNow() - start, thrice, 100 * LP_DRAW_TOLERANCE);
  free(us);
  free(drawn);
  free(order);
}

void lpMeasureShapes(LpShapeSet *set, size_t from,
                     const LpMeasureConfig *config, const char *logDir,
                     bool redraw, double redrawSeconds) {
  for (size_t i = from; i < set->count; i++) {
    LpShape *s = &set->items[i];
    if (!s->skipped && !s->result.ok)
      measureShape(set, i, config, logDir, &s->result);
    printShape(s, i, set->count);
  }
  if (redraw && set->count > from)
    drawAgain(set, from, config, logDir, redrawSeconds);
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
  /* the model shapes drawn again within 15% of the budget, heaviest
   * first: more took the sweep's time (session 23) */
  lpMeasureShapes(&set, 0, &config, logDir, true,
                  o->budget > 0 ? 0.15 * o->budget : 0);
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
