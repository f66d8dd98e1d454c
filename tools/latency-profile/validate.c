/*===- validate.c - latency-profile --validate --profile DIR MODEL... -----===*
 *
 * For each model: the pass predicts it (Debian's mlir-opt with the plugin
 * and `profile=DIR`, so what is checked is exactly what users run), the
 * annotated IR is read back (latency.total_us, latency.estimate per kernel
 * root), the whole model is measured in a child through the profile's
 * pipeline, and each distinct kernel is measured in isolation as
 * `--out` would measure it. A model that fails at any step gets its
 * reason and the others go on.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include "commands.h"

#include "files.h"
#include "measure_shapes.h"
#include "pipelines.h"
#include "spawn.h"
#include "timing.h"
#include "validate.h"
#include "validate_session.h"

#include "mlir-c/BuiltinAttributes.h"

#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LP_MLIR_OPT
#define LP_MLIR_OPT "/usr/lib/llvm-22/bin/mlir-opt"
#endif

typedef struct {
  const LpOptions *o;
  LpValidateSession session;
  LpShapeSet shapes; /* kernels of every model, shared            */
} Validation;

bool lpFindPlugin(char *out, size_t size) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return false;
  self[n] = '\0';
  snprintf(out, size, "%s/../lib/LatencyPlugin.so", dirname(self));
  return access(out, R_OK) == 0;
}

void lpProfilePipeline(const char *dir, char *out, size_t size) {
  char path[4200], name[64];
  snprintf(path, sizeof path, "%s/device.csv", dir);
  if (!lpReadKeyValue(path, "pipeline", name, sizeof name))
    snprintf(name, sizeof name, "loops");
  if ((strcmp(name, "loops") && strcmp(name, "vectorized")) &&
      lpReadKeyValue(path, "pipeline_passes", out, size))
    return;
  snprintf(out, size, "%s", name);
}

/* In an ASan build the plugin needs the ASan runtime this binary loaded
 * (gcc links it as libasan.so); Debian's mlir-opt is not instrumented, so
 * the runtime is preloaded into it, as the lit suite does. */
static bool asanRuntime(char *out, size_t size) {
  void *init = dlsym(RTLD_DEFAULT, "__asan_init");
  Dl_info info;
  if (!init || !dladdr(init, &info) || !info.dli_fname ||
      !strstr(info.dli_fname, "libasan"))
    return false;
  snprintf(out, size, "LD_PRELOAD=%s", info.dli_fname);
  return true;
}

bool lpPredictWithPass(const char *pluginPath, const char *profileDir,
                       bool freshMemory, double timeout, const char *model,
                       const char *annotated, const char *log, char *err,
                       size_t size) {
  char pipeline[4400], plugin[4300];
  snprintf(pipeline, sizeof pipeline,
           "--pass-pipeline=builtin.module(annotate-latency{profile=%s%s})",
           profileDir, freshMemory ? " fresh-memory=true" : "");
  snprintf(plugin, sizeof plugin, "--load-pass-plugin=%s", pluginPath);
  char preload[600];
  char *argv[] = {"env",         preload, "ASAN_OPTIONS=detect_leaks=0",
                  LP_MLIR_OPT,   plugin,  pipeline,
                  (char *)model, "-o",    (char *)annotated,
                  NULL};
  bool asan = asanRuntime(preload, sizeof preload);
  LpChild child;
  if (!lpSpawn(asan ? "/usr/bin/env" : LP_MLIR_OPT, asan ? argv : argv + 3, log,
               timeout, &child, err, size))
    return false;
  if (child.exitStatus == 0)
    return true;
  FILE *in = fopen(log, "r");
  char line[600] = "";
  if (in) {
    if (!fgets(line, sizeof line, in))
      line[0] = '\0';
    fclose(in);
  }
  line[strcspn(line, "\n")] = '\0';
  snprintf(err, size, "the pass failed: %s", line[0] ? line : "no output");
  return false;
}

static double dictNumber(MlirAttribute dict, const char *name, double dflt) {
  MlirAttribute a = mlirDictionaryAttrGetElementByName(
      dict, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a)
             ? mlirFloatAttrGetValueDouble(a)
             : dflt;
}

/* Reads kernel `k`'s estimate off its root op in the annotated IR. */
static void readKernel(const LatGraph *g, int k, LpValidatedKernel *out) {
  const LatKernel *kk = &g->kernels[k];
  MlirOperation root = g->nodes[kk->root].op;
  MlirAttribute est = mlirOperationGetDiscardableAttributeByName(
      root, mlirStringRefCreateFromCString("latency.estimate"));
  memset(out, 0, sizeof *out);
  out->id = k;
  out->shape = -1;
  snprintf(out->type, sizeof out->type, "%s", kk->type);
  snprintf(out->axes, sizeof out->axes, "%s", kk->axes);
  snprintf(out->source, sizeof out->source, "unknown");
  out->count = 1;
  if (mlirAttributeIsNull(est) || !mlirAttributeIsADictionary(est))
    return;
  out->predictedUs = dictNumber(est, "us", 0);
  out->count = dictNumber(est, "count", 1);
  MlirAttribute source = mlirDictionaryAttrGetElementByName(
      est, mlirStringRefCreateFromCString("source"));
  if (!mlirAttributeIsNull(source) && mlirAttributeIsAString(source)) {
    MlirStringRef s = mlirStringAttrGetValue(source);
    snprintf(out->source, sizeof out->source, "%.*s", (int)s.length, s.data);
  }
}

/* Reads the prediction of the annotated model and adds its kernels'
 * shapes to v->shapes (cut-outs under the scratch directory). */
static bool readPrediction(Validation *v, const char *annotated,
                           LpValidatedModel *m, char *err, size_t size) {
  MlirModule module = lpHostParseFile(&v->session.host, annotated, err, size);
  if (mlirModuleIsNull(module))
    return false;
  MlirOperation func = lpFindFunction(module, v->o->entry);
  LatGraph graph;
  bool ok = !mlirOperationIsNull(func);
  if (!ok)
    snprintf(err, size, "no function%s%s with a body",
             v->o->entry && *v->o->entry ? " " : "",
             v->o->entry ? v->o->entry : "");
  ok = ok &&
       lpDetectKernels(func, v->session.rules,
                       lpPipelineResolve(v->session.pipeline).passes, &graph);
  if (ok) {
    MlirAttribute total = mlirOperationGetDiscardableAttributeByName(
        func, mlirStringRefCreateFromCString("latency.total_us"));
    m->predictedUs = !mlirAttributeIsNull(total) && mlirAttributeIsAFloat(total)
                         ? mlirFloatAttrGetValueDouble(total)
                         : 0;
    m->kernels = calloc(graph.numKernels + 1, sizeof *m->kernels);
    for (size_t k = 0; m->kernels && k < graph.numKernels; k++) {
      readKernel(&graph, (int)k, &m->kernels[k]);
      m->kernels[k].shape =
          lpShapeSetAdd(&v->shapes, &v->session.host, &graph, (int)k,
                        lpBaseName(m->path), v->session.work);
    }
    m->numKernels = m->kernels ? graph.numKernels : 0;
    latGraphFree(&graph);
  }
  mlirModuleDestroy(module);
  return ok;
}

static int byUs(const void *a, const void *b) {
  const LpMeasurement *x = a, *y = b;
  return (x->us > y->us) - (x->us < y->us);
}

/* A whole model is measured in kWholeProcesses children and the median one
 * kept. Within a process the repetitions agree to 1-2%, but between
 * processes the same model differed by 13% on one VM (ResNet-18: 22.2 and
 * 25.1 ms, docs/accuracy.md): where the pages of its buffers land decides
 * how its power-of-two strides meet the caches, and a process draws once.
 * The processes of a model are taken in rounds over all the models, not
 * back to back: the host has slow spells of half a minute to a minute
 * (canary.c) that held all three of a small model's processes (session 23:
 * the nelli MobileNets, EfficientNet-B0 and MnasNet 9-12% slower in one
 * measurement than in the next). */
enum { kWholeProcesses = 3 };

/* How a whole model is measured: the profile's pipeline, the allocator as
 * the options say. */
static LpMeasureConfig wholeConfig(const Validation *v) {
  LpMeasureConfig config;
  lpKernelConfig(&config, v->o, 1);
  config.pipeline = v->session.pipeline;
  config.maxSeconds = v->o->budget > 0 ? v->o->budget / 4 : 10;
  /* By default the allocator as any program leaves it, as an independent
     mlir-runner run has it; --fresh-memory maps every buffer of 128 KiB or
     more anew on each call, as the kernels' scratch is measured: one mode,
     where glibc's own thresholds keep a model's buffers warm in one process
     and give them back in the next (docs/profiling.md). */
  config.freshMemory = v->o->freshMemory;
  return config;
}

/* One more process of model `index` into `runs[*numRuns]`. A failure in
 * the first process is the model's (lowering, JIT): its error; a later one
 * leaves the processes that succeeded. */
static void measureWholeOnce(Validation *v, size_t index, LpValidatedModel *m,
                             LpMeasurement *runs, int *numRuns) {
  char log[1024];
  snprintf(log, sizeof log, "%s/model-%zu.log", v->session.work, index);
  LpMeasureConfig config = wholeConfig(v);
  lpMeasureFile(&config, m->path, v->o->entry, NULL, log, &runs[*numRuns]);
  if (runs[*numRuns].ok) {
    ++*numRuns;
    unlink(log);
  } else if (*numRuns == 0)
    snprintf(m->error, sizeof m->error, "%s", runs[0].error);
}

/* Keeps the median of the `numRuns` processes of `m`, and their spread. */
static void keepMedianRun(LpValidatedModel *m, LpMeasurement *runs,
                          int numRuns) {
  qsort(runs, (size_t)numRuns, sizeof *runs, byUs);
  m->whole = runs[numRuns / 2];
  m->processes = numRuns;
  m->spreadPct = m->whole.us > 0
                     ? 100 * (runs[numRuns - 1].us - runs[0].us) / m->whole.us
                     : 0;
}

/* Predicts and reads back one whole model, and measures its first
 * process. */
static void validateModel(Validation *v, size_t index, LpValidatedModel *m,
                          LpMeasurement *runs, int *numRuns) {
  char annotated[1024], log[1024];
  snprintf(annotated, sizeof annotated, "%s/annotated-%zu.mlir",
           v->session.work, index);
  snprintf(log, sizeof log, "%s/predict.log", v->session.work);
  printf("%s: predicting and measuring the whole model\n", lpBaseName(m->path));
  fflush(stdout);
  if (!lpPredictWithPass(v->session.plugin, v->o->profileDir, v->o->freshMemory,
                         v->o->timeout, m->path, annotated, log, m->error,
                         sizeof m->error) ||
      !readPrediction(v, annotated, m, m->error, sizeof m->error))
    return;
  unlink(annotated);
  measureWholeOnce(v, index, m, runs, numRuns);
}

/* Every model predicted and measured once, then each that ran once more per
 * round, and the median process kept. */
static void validateModels(Validation *v, LpValidatedModel *models,
                           size_t count, LpMeasurement (*runs)[kWholeProcesses],
                           int *numRuns) {
  for (size_t i = 0; i < count; i++)
    validateModel(v, i, &models[i], runs[i], &numRuns[i]);
  for (int round = 1; round < kWholeProcesses; round++) {
    printf("process %d of %d of each model that ran\n", round + 1,
           kWholeProcesses);
    fflush(stdout);
    for (size_t i = 0; i < count; i++)
      if (numRuns[i] > 0)
        measureWholeOnce(v, i, &models[i], runs[i], &numRuns[i]);
  }
  for (size_t i = 0; i < count; i++)
    if (numRuns[i] > 0)
      keepMedianRun(&models[i], runs[i], numRuns[i]);
}

static bool setUp(Validation *v, const LpOptions *o) {
  memset(v, 0, sizeof *v);
  v->o = o;
  return lpValidateSessionOpen(&v->session, o, "latency-validate");
}

static void tearDown(Validation *v, bool keep) {
  lpValidateSessionClose(&v->session, keep);
  lpShapeSetFree(&v->shapes);
}

int lpValidateMain(const LpOptions *o) {
  Validation v;
  if (!setUp(&v, o))
    return 1;
  printf("whole models run with %s\n",
         o->freshMemory ? "every buffer of 128 KiB or more mapped anew on "
                          "each call (--fresh-memory)"
                        : "the C library's own allocator thresholds");
  LpValidatedModel *models = calloc((size_t)o->numModels, sizeof *models);
  LpMeasurement(*runs)[kWholeProcesses] =
      calloc((size_t)o->numModels, sizeof *runs);
  int *numRuns = calloc((size_t)o->numModels, sizeof *numRuns);
  bool failed = !models || !runs || !numRuns;
  if (failed) {
    free(models);
    models = NULL;
  }
  for (int i = 0; models && i < o->numModels; i++)
    models[i].path = o->models[i];
  if (models)
    validateModels(&v, models, (size_t)o->numModels, runs, numRuns);
  for (int i = 0; models && i < o->numModels; i++)
    failed |= models[i].error[0] != '\0';
  free(runs);
  free(numRuns);
  if (models && o->isolated) {
    printf("measuring the %zu distinct kernels in isolation\n", v.shapes.count);
    LpMeasureConfig config;
    lpKernelConfig(&config, o, v.shapes.count);
    config.pipeline = v.session.pipeline;
    lpMeasureShapesWithCanary(&v.shapes, 0, &config, v.session.work);
  }
  if (models) {
    lpPrintValidation(models, (size_t)o->numModels, &v.shapes);
    if (o->jsonPath &&
        !lpWriteValidationJson(o->jsonPath, o->profileDir, v.session.pipeline,
                               o->freshMemory ? "fresh" : "natural", models,
                               (size_t)o->numModels, &v.shapes)) {
      fprintf(stderr, "latency-profile: cannot write %s\n", o->jsonPath);
      failed = true;
    }
  }
  /* a kernel is measured (and can have failed) only with --isolated: with
     --no-isolated every one is unmeasured, which is no reason to keep */
  bool keep = failed;
  for (size_t i = 0; o->isolated && i < v.shapes.count; i++)
    keep |= !v.shapes.items[i].skipped && !v.shapes.items[i].result.ok;
  for (int i = 0; models && i < o->numModels; i++)
    free(models[i].kernels);
  free(models);
  tearDown(&v, keep);
  return failed ? 1 : 0;
}
