/*===- passes.c - annotate-latency and detect-fusion-kernels ---------------===*
 *
 * The two entry points, each reading top to bottom as the data flow:
 * options -> profile -> classify + detect (pass.c) -> describe ->
 * tables -> estimate -> annotate -> report (docs/architecture.md). The only
 * failures are options, profiles or report paths that cannot be used, and
 * running out of memory (an error diagnostic each); everything about the IR
 * itself is a warning or remark, never a crash.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/passes.h"

#include "annotate.h"
#include "buffers.h"
#include "describe.h"
#include "pass.h"

#include "latency/diagnostics.h"

#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The MLIR element type and its size for `precision=`; false (with an
 * error at the module) for a name the cost model does not know. "as-is"
 * and "" keep every kernel's own type (*name NULL). */
static bool resolvePrecision(MlirOperation module, const char *precision,
                             const char **name, double *bytes) {
  bool known;
  *name = cmPrecisionGetDtype(precision, &known);
  *bytes = *name ? cmDtypeGetSize(*name) : 0;
  if (known)
    return true;
  char text[200];
  snprintf(text, sizeof text,
           "latency: unknown precision '%.60s' (expected as-is, bf16, f16, "
           "fp8 or int8)",
           precision);
  mlirEmitError(mlirOperationGetLocation(module), text);
  return false;
}

typedef enum { kFusionRules, kFusionNone, kFusionGreedy } FusionMode;

/* The `fusion=` option; false (with an error at the module) for a value
 * it does not know. */
static bool resolveFusion(MlirOperation module, const char *text,
                          FusionMode *mode) {
  static const struct {
    const char *text;
    FusionMode mode;
  } known[] = {{"", kFusionRules},       {"rules", kFusionRules},
               {"true", kFusionRules},   {"1", kFusionRules},
               {"false", kFusionNone},   {"0", kFusionNone},
               {"greedy", kFusionGreedy}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (!strcmp(text ? text : "", known[i].text)) {
      *mode = known[i].mode;
      return true;
    }
  char message[160];
  snprintf(message, sizeof message,
           "latency: unknown fusion '%.40s' (expected rules, false or greedy)",
           text);
  mlirEmitError(mlirOperationGetLocation(module), message);
  return false;
}

/* fusion=greedy for every function, after their tables are loaded; a
 * remark at each says what the greedy partition predicts against the
 * profile's rules. */
static bool partitionGreedily(LatPass *pass) {
  const LatFusionContext *context = &pass->fusion;
  LatFunctionReport *fns = pass->fns;
  for (long i = 0; i < pass->count; i++) {
    LatPartitionComparison *p = &fns[i].partition;
    if (!latGreedyPartition(context, &fns[i].graph,
                            mlirOperationGetRegion(fns[i].func, 0), p)) {
      mlirEmitError(mlirOperationGetLocation(pass->module),
                    "latency: out of memory in the greedy partition");
      return false;
    }
    fns[i].greedy = true;
    char text[300];
    snprintf(text, sizeof text,
             "latency: fusion=greedy: %.3f us in %zu kernels; the profile's "
             "rules: %.3f us in %zu kernels; single-op kernels: %.3f us",
             p->greedyUs, fns[i].graph.numKernels, p->rulesUs, p->rulesKernels,
             p->singleOpUs);
    latEmitRemark(mlirOperationGetLocation(fns[i].func), text);
  }
  return true;
}

/* With `inputs=`, says at the function how many ops folded away because
 * they compute on weights and constants only (they run once, offline). */
static void remarkWeightsFolded(const LatFunctionReport *fn) {
  if (!fn->graph.foldedOps)
    return;
  char text[160];
  snprintf(text, sizeof text,
           "latency: %zu ops compute on weights and constants only: folded, "
           "not costed",
           fn->graph.foldedOps);
  latEmitRemark(mlirOperationGetLocation(fn->func), text);
}

/* Says at the module which damaged cache entries the cost model refused
 * and rebuilt while answering (answers are those without the cache). */
static void remarkCacheNotes(MlirOperation module) {
  char notes[8192];
  if (!cmCacheTakeNotes(notes, sizeof notes))
    return;
  for (const char *line = notes; *line;) {
    size_t length = strcspn(line, "\n");
    char text[8300];
    snprintf(text, sizeof text, "latency: %.*s", (int)length, line);
    latEmitRemark(mlirOperationGetLocation(module), text);
    line += length + (line[length] == '\n');
  }
}

/* `inputs=` names argument indices: a negative one is an error (at the
 * module), one past a function's arguments is named there, as a warning,
 * so that a typo does not silently turn every argument into a weight. */
static bool checkInputIndices(MlirOperation module,
                              const LatAnnotateOptions *options) {
  for (size_t i = 0; options->inputsGiven && i < options->numInputs; i++)
    if (options->inputs[i] < 0) {
      char text[160];
      snprintf(text, sizeof text,
               "latency: inputs=%lld: argument indices start at 0",
               (long long)options->inputs[i]);
      mlirEmitError(mlirOperationGetLocation(module), text);
      return false;
    }
  return true;
}

static void warnInputsPastArguments(const LatFunctionReport *fn,
                                    const LatAnnotateOptions *options) {
  if (mlirBlockIsNull(fn->graph.entry))
    return;
  intptr_t count = mlirBlockGetNumArguments(fn->graph.entry);
  for (size_t i = 0; options->inputsGiven && i < options->numInputs; i++)
    if (options->inputs[i] >= count) {
      char text[200];
      snprintf(text, sizeof text,
               "latency: inputs= names argument %lld, but this function has "
               "%ld arguments: that index is ignored here",
               (long long)options->inputs[i], (long)count);
      latEmitWarning(mlirOperationGetLocation(fn->func), text);
    }
}

/* The report and trace files the options name; false with an error. */
static bool writeOutputs(const LatPass *pass,
                         const LatAnnotateOptions *options) {
  char error[600];
  const char *profileName = cmProfileGetDir(pass->profile);
  const char *device = cmProfileGetDeviceName(pass->profile);
  size_t n = (size_t)pass->count;
  bool ok = true;
  if (options->report && *options->report)
    ok = latWriteReport(options->report, profileName, device, pass->fns, n,
                        error, sizeof error);
  if (ok && options->trace && *options->trace)
    ok = latWriteTrace(options->trace, pass->fns, n, error, sizeof error);
  if (!ok)
    mlirEmitError(mlirOperationGetLocation(pass->module), error);
  return ok;
}

MlirLogicalResult latAnnotateLatency(MlirOperation module,
                                     const LatAnnotateOptions *options) {
  const char *precision;
  double precisionBytes;
  FusionMode mode;
  LatPass pass;
  LatInputs inputs = {options->inputs, options->numInputs, options->inputsGiven,
                      false, NULL};
  if (!checkInputIndices(module, options) ||
      !resolvePrecision(module, options->precision, &precision,
                        &precisionBytes) ||
      !resolveFusion(module, options->fusion, &mode) ||
      !latPassLoadProfile(&pass, module, options->profile, NULL))
    return mlirLogicalResultFailure();
  pass.options.interpolation = options->interpolation;
  pass.gains = options->gains;
  pass.freshMemory = options->freshMemory;
  bool ok = latPassDetect(&pass, mode == kFusionRules, &inputs);
  /* a run that maps every large buffer anew (fresh-memory) has none */
  double warmHeap = options->freshMemory ? 0 : latModuleWarmHeapBytes(module);
  for (long i = 0; ok && i < pass.count; i++) {
    pass.fns[i].graph.precision = precision;
    pass.fns[i].graph.precisionBytes = precisionBytes;
    pass.fns[i].graph.warmHeapBytes = warmHeap;
    latGraphDescribe(&pass.fns[i].graph);
  }
  ok = ok && latPassLoadTables(&pass);
  for (long i = 0; ok && options->inputsGiven && i < pass.count; i++) {
    warnInputsPastArguments(&pass.fns[i], options);
    remarkWeightsFolded(&pass.fns[i]);
  }
  ok = ok && (mode != kFusionGreedy || partitionGreedily(&pass));
  if (ok && !latEstimateFunctions(&pass)) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "latency: out of memory while estimating");
    ok = false;
  }
  remarkCacheNotes(module);
  for (long i = 0; ok && i < pass.count; i++)
    latAnnotateFunction(&pass.fns[i]);
  ok = ok && writeOutputs(&pass, options);
  latPassFree(&pass);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* compare=: both partitions priced by `profile`'s tables, printed. */
static bool compareRules(LatPass *pass, const char *profileName,
                         const char *compare) {
  LatPass other;
  bool ok = latPassLoadProfile(&other, pass->module, profileName, compare) &&
            latPassLoadAllTables(pass);
  if (ok &&
      !latCompareRules(pass->module, pass->profile, other.profile, compare)) {
    mlirEmitError(mlirOperationGetLocation(pass->module),
                  "latency: out of memory while comparing rule sets");
    ok = false;
  }
  latPassFree(&other);
  return ok;
}

MlirLogicalResult latDetectFusionKernels(MlirOperation module,
                                         const char *profileName,
                                         const char *rules,
                                         const char *compare) {
  LatPass pass;
  if (!latPassLoadProfile(&pass, module, profileName, rules))
    return mlirLogicalResultFailure();
  bool ok = latPassDetect(&pass, true, NULL);
  MlirContext ctx = mlirOperationGetContext(module);
  for (long i = 0; ok && i < pass.count; i++) {
    latGraphDescribe(&pass.fns[i].graph);
    latAnnotateKernelTypes(ctx, &pass.fns[i].graph);
  }
  ok = ok &&
       (!compare || !*compare || compareRules(&pass, profileName, compare));
  latPassFree(&pass);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
