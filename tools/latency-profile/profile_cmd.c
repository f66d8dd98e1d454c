/*===- profile_cmd.c - latency-profile --out DIR MODEL... -----------------===*
 *
 * Detect the kernels of the models as the pass would, cut each distinct
 * shape out, measure it in a child of its own (watching the host for slow
 * spells, canary.h), probe the host's roofline numbers through the same
 * pipeline, and write the profile. A kernel that
 * cannot be cut out, lowered or run is reported and left out; the others
 * are kept.
 *
 *===----------------------------------------------------------------------===*/
#include "commands.h"

#include "device_probe.h"
#include "files.h"
#include "fusion_rules.h"
#include "measure_shapes.h"
#include "pipelines.h"
#include "profile_writer.h"
#include "sweep.h"
#include "timing.h"

#include <stdio.h>
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
