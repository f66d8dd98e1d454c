/*===- annotate_pass.c - annotate-latency and detect-fusion-kernels --------===*
 *
 * For every func.func: build the op graph, detect kernels, describe them,
 * ask the cost model, and write the answers as attributes (docs/attributes.md).
 * The only failure is a profile that cannot be loaded (an error diagnostic);
 * everything about the IR itself is a warning or remark, never a crash.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/passes.h"

#include "graph.h"
#include "patterns.h"
#include "report.h"

#include "latency/costmodel.h"
#include "latency/diagnostics.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static bool profileRules(void *ctx, const char *producer,
                         const char *consumer) {
  return cmProfileAllowsFusion(*(CmProfile *)ctx, producer, consumer);
}

static void emitProfileError(MlirOperation module, const CmError *err) {
  char message[700];
  snprintf(message, sizeof message, "latency: cannot load profile: %s",
           err->message);
  mlirEmitError(mlirOperationGetLocation(module), message);
}

/* Loads the profile named by `name` (or the default) without its measured
 * tables: fusion rules are all detection needs, and the estimate step loads
 * only the tables of the kernels it found. Emits an error at the module's
 * location on failure. */
static bool loadProfile(MlirOperation module, const char *name,
                        CmProfile *out) {
  char dir[4096];
  CmError err;
  if (cmProfileFindDir(name, dir, sizeof dir, &err) &&
      cmProfileCreateFromDirWithoutTables(dir, out, &err) == CM_OK)
    return true;
  emitProfileError(module, &err);
  return false;
}

/* Loads the tables that could answer the kernels of `fns`. */
static bool loadTablesFor(MlirOperation module, CmProfile profile,
                          const LatFunctionReport *fns, long n) {
  size_t total = 0;
  for (long i = 0; i < n; i++)
    total += fns[i].graph.numKernels;
  CmQuery *queries = malloc((total + 1) * sizeof *queries);
  if (!queries)
    return false;
  size_t count = 0;
  for (long i = 0; i < n; i++)
    for (size_t k = 0; k < fns[i].graph.numKernels; k++) {
      const LatKernel *kk = &fns[i].graph.kernels[k];
      queries[count++] = (CmQuery){kk->type, kk->fields, (size_t)kk->numFields,
                                   kk->flops, kk->bytes};
    }
  CmError err;
  bool ok = cmProfileLoadTablesFor(profile, queries, count, &err) == CM_OK;
  if (!ok)
    emitProfileError(module, &err);
  free(queries);
  return ok;
}

/* Fills `out` (when not NULL) with the function ops directly inside the
 * module that have a body (declarations have none); returns their count. */
static size_t forEachFunction(MlirOperation module, LatFunctionReport *out) {
  size_t n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length != 9 || memcmp(name.data, "func.func", 9))
      continue;
    MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (mlirBlockIsNull(block))
      continue;
    if (out)
      out[n].func = op;
    n++;
  }
  return n;
}

/* A copy of `func`'s whole symbol name (never cut: two long names that
 * share a prefix are two functions), or NULL when out of memory. */
static char *functionName(MlirOperation func) {
  MlirAttribute name = mlirOperationGetAttributeByName(func, str("sym_name"));
  MlirStringRef s =
      mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name) : str("?");
  char *copy = malloc(s.length + 1);
  if (copy) {
    memcpy(copy, s.data, s.length);
    copy[s.length] = '\0';
  }
  return copy;
}

static void tagKernelIds(MlirContext ctx, const LatGraph *g) {
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  for (size_t i = 0; i < g->numNodes; i++)
    if (g->nodes[i].kernel >= 0)
      mlirOperationSetDiscardableAttributeByName(
          g->nodes[i].op, str("latency.kernel"),
          mlirIntegerAttrGet(i64, g->nodes[i].kernel));
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), value);
}

static void annotateKernel(MlirContext ctx, const LatGraph *g,
                           const LatKernel *k) {
  MlirType f64 = mlirF64TypeGet(ctx);
  MlirNamedAttribute fields[] = {
      named(ctx, "us", mlirFloatAttrDoubleGet(ctx, f64, k->us)),
      named(ctx, "source",
            mlirStringAttrGet(ctx, str(cmSourceGetName(k->source)))),
      named(ctx, "kernel", mlirStringAttrGet(ctx, str(k->type))),
      named(ctx, "confidence", mlirFloatAttrDoubleGet(ctx, f64, k->confidence)),
      named(ctx, "method", mlirStringAttrGet(ctx, str(latKernelMethodName(k)))),
      named(ctx, "bound",
            mlirStringAttrGet(ctx, str(cmBoundGetName(k->bound)))),
      named(ctx, "count", mlirFloatAttrDoubleGet(ctx, f64, k->count)),
  };
  /* `count` (runs per call: loop trips, 0 for a branch not counted) only
   * where it is not 1 */
  intptr_t numFields = sizeof fields / sizeof fields[0] - (k->count == 1);
  mlirOperationSetDiscardableAttributeByName(
      g->nodes[k->root].op, str("latency.estimate"),
      mlirDictionaryAttrGet(ctx, numFields, fields));
}

/* One `latency.fusion` entry: {producer, fused_us, unfused_us, gain_us,
 * why [, at]}. */
static MlirAttribute fusionEntry(MlirContext ctx, const LatFusionEdge *e) {
  MlirType f64 = mlirF64TypeGet(ctx), i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute fields[] = {
      named(ctx, "producer", mlirIntegerAttrGet(i64, e->producer)),
      named(ctx, "fused_us", mlirFloatAttrDoubleGet(ctx, f64, e->fusedUs)),
      named(ctx, "unfused_us", mlirFloatAttrDoubleGet(ctx, f64, e->unfusedUs)),
      named(ctx, "gain_us", mlirFloatAttrDoubleGet(ctx, f64, e->gainUs)),
      named(ctx, "why", mlirStringAttrGet(ctx, str(e->why))),
      named(ctx, "at", mlirStringAttrGet(ctx, str(e->at))),
  };
  return mlirDictionaryAttrGet(ctx, 5 + (e->at[0] != '\0'), fields);
}

/* Writes `latency.fusion` on each kernel root that consumes fusion edges.
 * latFusionAnalyze adds them kernel by kernel, so one consumer's edges are
 * consecutive. */
static void annotateFusion(MlirContext ctx, const LatGraph *g) {
  MlirAttribute *entries = malloc((g->numEdges + 1) * sizeof *entries);
  for (size_t i = 0, j; entries && i < g->numEdges; i = j) {
    int consumer = g->edges[i].consumer;
    for (j = i; j < g->numEdges && g->edges[j].consumer == consumer; j++)
      entries[j - i] = fusionEntry(ctx, &g->edges[j]);
    mlirOperationSetDiscardableAttributeByName(
        g->nodes[g->kernels[consumer].root].op, str("latency.fusion"),
        mlirArrayAttrGet(ctx, (intptr_t)(j - i), entries));
  }
  free(entries);
}

/* What estimating the functions of one module shares. */
typedef struct {
  CmProfile profile;
  const CmOptions *options;
  LatFunctionReport *fns;
  long count;
  LatFusionContext fusion; /* for the gains of fusion edges */
  bool gains;              /* price the fusion edges         */
} Estimation;

enum { kToDo, kUnderWay, kDone };

static void estimateFunction(Estimation *e, LatFunctionReport *fn);

static LatFunctionReport *findFunction(const Estimation *e,
                                       MlirStringRef name) {
  for (long i = 0; i < e->count; i++)
    if (strlen(e->fns[i].name) == name.length &&
        !memcmp(e->fns[i].name, name.data, name.length))
      return &e->fns[i];
  return NULL;
}

/* Adds kernel `k`'s time, `count` runs of it, to `fn`'s total and to the
 * share of its source; a call kernel adds its callee's shares. */
static void account(LatFunctionReport *fn, const LatKernel *k,
                    const LatFunctionReport *callee) {
  double us = k->us * k->count;
  fn->totalUs += us;
  if (callee) {
    fn->confidenceUs += callee->confidenceUs * k->count;
    fn->measuredUs += callee->measuredUs * k->count;
    fn->interpolatedUs += callee->interpolatedUs * k->count;
    fn->transferredUs += callee->transferredUs * k->count;
    fn->rooflineUs += callee->rooflineUs * k->count;
    return;
  }
  fn->confidenceUs += us * k->confidence;
  if (k->source == CM_SOURCE_MEASURED)
    fn->measuredUs += us;
  else if (k->source == CM_SOURCE_INTERPOLATED)
    fn->interpolatedUs += us;
  else if (k->source == CM_SOURCE_TRANSFERRED)
    fn->transferredUs += us;
  else if (k->source == CM_SOURCE_ROOFLINE)
    fn->rooflineUs += us;
}

/* A call kernel costs what its callee's kernels cost, once per call: the
 * callee is estimated first (its shares by source carry over to the
 * caller; the kernel shows the largest one and the time-weighted
 * confidence). A callee without a body here, or a recursive call, has no
 * estimate, and a warning. */
static const LatFunctionReport *
estimateCall(Estimation *e, LatFunctionReport *fn, LatKernel *k) {
  LatFunctionReport *callee = findFunction(e, k->callee);
  MlirLocation loc = mlirOperationGetLocation(fn->graph.nodes[k->root].op);
  latKernelSetUnknown(k);
  if (!callee || callee->state == kUnderWay) {
    size_t size = k->callee.length + 100; /* the whole name, never cut */
    char *text = malloc(size);
    if (text) {
      snprintf(text, size,
               callee ? "latency: recursive call to @%.*s: no estimate "
                        "(unknown)"
                      : "latency: call to @%.*s, which has no body in this "
                        "module: no estimate (unknown)",
               (int)k->callee.length, k->callee.data);
      latEmitWarning(loc, text);
    }
    free(text);
    return NULL;
  }
  estimateFunction(e, callee);
  k->us = callee->totalUs;
  k->flops = 0; /* the callee's work, for the report */
  for (size_t i = 0; i < callee->graph.numKernels; i++)
    k->flops += callee->graph.kernels[i].flops;
  k->confidence =
      callee->totalUs > 0 ? callee->confidenceUs / callee->totalUs : 0;
  double shares[] = {callee->measuredUs, callee->interpolatedUs,
                     callee->transferredUs, callee->rooflineUs};
  CmSource sources[] = {CM_SOURCE_MEASURED, CM_SOURCE_INTERPOLATED,
                        CM_SOURCE_TRANSFERRED, CM_SOURCE_ROOFLINE};
  k->source = CM_SOURCE_ROOFLINE;
  for (int s = 0, best = -1; s < 4; s++)
    if (best < 0 || shares[s] > shares[best])
      best = s, k->source = sources[s];
  return callee;
}

/* Asks the cost model for kernel `k`; warns when it has no answer. */
static void estimateKernel(const Estimation *e, LatFunctionReport *fn,
                           LatKernel *k) {
  if (!latKernelEstimate(e->profile, e->options, k))
    latEmitWarning(mlirOperationGetLocation(fn->graph.nodes[k->root].op),
                   "latency: no estimate for this kernel (unknown)");
}

/* Estimates every kernel of `fn` (callees first), resolves how often each
 * runs, adds them up and annotates them. */
static void estimateFunction(Estimation *e, LatFunctionReport *fn) {
  if (fn->state != kToDo)
    return;
  fn->state = kUnderWay;
  MlirContext ctx = mlirOperationGetContext(fn->func);
  const LatFunctionReport **callees =
      calloc(fn->graph.numKernels + 1, sizeof *callees);
  for (size_t i = 0; i < fn->graph.numKernels; i++) {
    LatKernel *k = &fn->graph.kernels[i];
    const LatFunctionReport *callee = NULL;
    if (k->isCall)
      callee = estimateCall(e, fn, k);
    else
      estimateKernel(e, fn, k);
    if (callees)
      callees[i] = callee;
  }
  latGraphResolveCounts(&fn->graph);
  if (e->gains && !latFusionAnalyze(&e->fusion, &fn->graph))
    latEmitWarning(mlirOperationGetLocation(fn->func),
                   "latency: out of memory: fusion gains incomplete");
  for (size_t i = 0; i < fn->graph.numKernels; i++) {
    account(fn, &fn->graph.kernels[i], callees ? callees[i] : NULL);
    annotateKernel(ctx, &fn->graph, &fn->graph.kernels[i]);
  }
  annotateFusion(ctx, &fn->graph);
  free(callees);
  tagKernelIds(ctx, &fn->graph);
  mlirOperationSetDiscardableAttributeByName(
      fn->func, str("latency.total_us"),
      mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), fn->totalUs));
  mlirOperationSetDiscardableAttributeByName(
      fn->func, str("latency.kernels"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64),
                         (int64_t)fn->graph.numKernels));
  fn->state = kDone;
}

/* Frees the first `n` functions' graphs and names, and the array. */
static void freeFunctions(LatFunctionReport *fns, long n) {
  for (long i = 0; i < n; i++) {
    latGraphFree(&fns[i].graph);
    free(fns[i].name);
  }
  free(fns);
}

/* Builds and groups the graphs of every function of `module`; returns the
 * count, or -1 when out of memory. */
static long buildFunctions(MlirOperation module, bool fusion,
                           const LatInputs *inputs, CmProfile *profile,
                           LatFunctionReport **out) {
  size_t n = forEachFunction(module, NULL);
  LatFunctionReport *fns = calloc(n + 1, sizeof *fns);
  if (!fns)
    return -1;
  forEachFunction(module, fns);
  for (size_t i = 0; i < n; i++) {
    fns[i].name = functionName(fns[i].func);
    MlirRegion body = mlirOperationGetRegion(fns[i].func, 0);
    if (!fns[i].name || !latGraphBuild(body, inputs, false, &fns[i].graph)) {
      freeFunctions(fns, (long)i + 1);
      return -1;
    }
    latGraphMatchPatterns(&fns[i].graph, fusion);
    latGraphDetect(&fns[i].graph, fusion, profileRules, profile);
  }
  *out = fns;
  return (long)n;
}

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
static bool partitionGreedily(const LatFusionContext *context,
                              LatFunctionReport *fns, long n) {
  for (long i = 0; i < n; i++) {
    LatPartitionComparison *p = &fns[i].partition;
    if (!latGreedyPartition(context, &fns[i].graph,
                            mlirOperationGetRegion(fns[i].func, 0), p))
      return false;
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

MlirLogicalResult latAnnotateLatency(MlirOperation module,
                                     const LatAnnotateOptions *options) {
  const char *precision;
  double precisionBytes;
  FusionMode mode;
  CmProfile profile;
  if (!resolvePrecision(module, options->precision, &precision,
                        &precisionBytes) ||
      !resolveFusion(module, options->fusion, &mode) ||
      !loadProfile(module, options->profile, &profile))
    return mlirLogicalResultFailure();
  LatFunctionReport *fns = NULL;
  LatInputs inputs = {options->inputs, options->numInputs,
                      options->inputsGiven};
  long n =
      buildFunctions(module, mode == kFusionRules, &inputs, &profile, &fns);
  bool ok = n >= 0;
  CmOptions cmOptions = cmOptionsDefault();
  cmOptions.interpolation = options->interpolation;
  for (long i = 0; ok && i < n; i++) {
    fns[i].graph.precision = precision;
    fns[i].graph.precisionBytes = precisionBytes;
    latGraphDescribe(&fns[i].graph);
  }
  ok = ok && loadTablesFor(module, profile, fns, n);
  for (long i = 0; ok && options->inputsGiven && i < n; i++)
    remarkWeightsFolded(&fns[i]);
  Estimation estimation = {profile,
                           &cmOptions,
                           fns,
                           n,
                           {profile, &cmOptions, profileRules, &profile},
                           options->gains};
  if (ok && mode == kFusionGreedy &&
      !partitionGreedily(&estimation.fusion, fns, n)) {
    mlirEmitError(mlirOperationGetLocation(module),
                  "latency: out of memory in the greedy partition");
    ok = false;
  }
  for (long i = 0; ok && i < n; i++)
    estimateFunction(&estimation, &fns[i]);
  remarkCacheNotes(module);
  char error[600];
  const char *profileName = cmProfileGetDir(profile);
  if (ok && options->report && *options->report &&
      !latWriteReport(options->report, profileName,
                      cmProfileGetDeviceName(profile), fns, (size_t)n, error,
                      sizeof error)) {
    mlirEmitError(mlirOperationGetLocation(module), error);
    ok = false;
  }
  if (ok && options->trace && *options->trace &&
      !latWriteTrace(options->trace, fns, (size_t)n, error, sizeof error)) {
    mlirEmitError(mlirOperationGetLocation(module), error);
    ok = false;
  }
  if (fns)
    freeFunctions(fns, n);
  cmProfileDestroy(profile);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* Loads the profile `name` with the fusion rules of `rules` (when given)
 * instead of its own; an error at the module when either cannot be read. */
static bool loadProfileWithRules(MlirOperation module, const char *name,
                                 const char *rules, CmProfile *out) {
  CmError err;
  if (!loadProfile(module, name, out))
    return false;
  if (!rules || !*rules || cmProfileLoadFusionRules(*out, rules, &err) == CM_OK)
    return true;
  char message[700];
  snprintf(message, sizeof message, "latency: cannot load rules: %s",
           err.message);
  mlirEmitError(mlirOperationGetLocation(module), message);
  cmProfileDestroy(*out);
  return false;
}

/* compare=: both partitions priced by `profile`'s tables, printed. */
static bool compareRules(MlirOperation module, CmProfile profile,
                         const char *profileName, const char *compare) {
  CmProfile other;
  CmError err;
  if (!loadProfileWithRules(module, profileName, compare, &other))
    return false;
  bool ok = cmProfileLoadTablesFor(profile, NULL, 0, &err) == CM_OK;
  if (!ok)
    emitProfileError(module, &err);
  ok = ok && latCompareRules(module, profile, other, compare);
  cmProfileDestroy(other);
  return ok;
}

MlirLogicalResult latDetectFusionKernels(MlirOperation module,
                                         const char *profileName,
                                         const char *rules,
                                         const char *compare) {
  CmProfile profile;
  if (!loadProfileWithRules(module, profileName, rules, &profile))
    return mlirLogicalResultFailure();
  LatFunctionReport *fns = NULL;
  long n = buildFunctions(module, true, NULL, &profile, &fns);
  for (long i = 0; i < n; i++) {
    LatGraph *g = &fns[i].graph;
    latGraphDescribe(g);
    MlirContext ctx = mlirOperationGetContext(module);
    tagKernelIds(ctx, g);
    for (size_t k = 0; k < g->numKernels; k++)
      mlirOperationSetDiscardableAttributeByName(
          g->nodes[g->kernels[k].root].op, str("latency.kernel_type"),
          mlirStringAttrGet(ctx, str(g->kernels[k].type)));
  }
  if (fns)
    freeFunctions(fns, n);
  bool ok = n >= 0 && (!compare || !*compare ||
                       compareRules(module, profile, profileName, compare));
  cmProfileDestroy(profile);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
