/*===- validate_fusion.c - latency-profile --validate-fusion --------------===*
 *
 * For each model: the pass annotates it with the profile (Debian's mlir-opt
 * with the plugin, as users run it), the kernels are detected again on the
 * annotated IR exactly as the pass detected them, and every entry of every
 * kernel's `latency.fusion` becomes an edge: between two kernels, the
 * producer kernel, the consumer kernel and the two merged; inside a fused
 * kernel, its two sides cut before the unit `at` names and the kernel
 * itself. The three cut-outs are measured through the profile's pipeline
 * (each distinct one once) and the measured gain's sign is set against
 * the pass's. A cut-out that cannot be written, lowered or run leaves its
 * edge reported, not counted; the others go on.
 *
 *===----------------------------------------------------------------------===*/
#include "commands.h"

#include "cutout.h"
#include "edge_cutout.h"
#include "files.h"
#include "pipelines.h"
#include "timing.h"
#include "validate.h"
#include "validate_fusion.h"
#include "validate_session.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  const LpOptions *o;
  LpValidateSession session;
  LpUnitSet units;
  LpFusionEdge *edges;
  size_t count, capacity;
  int *kernelUnit; /* per kernel of the current graph: unit, -2 unwritten */
  const char *model;
  int modelEdges; /* distinct edges of the current model so far */
  char function[128];
} Run;

static MlirAttribute field(MlirAttribute dict, const char *name) {
  return mlirDictionaryAttrGetElementByName(
      dict, mlirStringRefCreateFromCString(name));
}

static double number(MlirAttribute dict, const char *name) {
  MlirAttribute a = field(dict, name);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a))
    return mlirFloatAttrGetValueDouble(a);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a))
    return (double)mlirIntegerAttrGetValueInt(a);
  return 0;
}

static void text(MlirAttribute dict, const char *name, char *out, size_t size) {
  MlirAttribute a = field(dict, name);
  out[0] = '\0';
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAString(a)) {
    MlirStringRef s = mlirStringAttrGetValue(a);
    snprintf(out, size, "%.*s", (int)s.length, s.data);
  }
}

/* The unit of kernel `k` alone, written once per graph; -1 with the
 * reason in `err` on failure. */
static int kernelUnit(Run *r, const LatGraph *g, int k, char *err,
                      size_t size) {
  snprintf(err, size, "kernel %d cannot be cut out", k);
  if (r->kernelUnit[k] != -2)
    return r->kernelUnit[k];
  char path[1200];
  lpUnitSetNextPath(&r->units, path, sizeof path);
  r->kernelUnit[k] = lpCutoutWrite(&r->session.host, g, k, path, err, size)
                         ? lpUnitSetAdd(&r->units, path, g->kernels[k].type)
                         : -1;
  return r->kernelUnit[k];
}

/* The chain member of kernel `k` after `after` where a cut before class
 * `at` starts; -1 when there is none. */
static int findCut(const LatGraph *g, int k, int after, const char *at) {
  bool past = after < 0;
  for (int n = g->nodes[g->kernels[k].root].nextInKernel; n >= 0;
       n = g->nodes[n].nextInKernel) {
    const char *cls = lpCutClass(g, n);
    if (past && cls && !strcmp(cls, at))
      return n;
    past |= n == after;
  }
  return -1;
}

/* The units of the cut of kernel `k` before node `cut`; false with the
 * reason in `err` on failure. */
static bool splitUnits(Run *r, LatGraph *g, int k, int cut, LpEdgeUnits *u,
                       char *err, size_t size) {
  char a[1200], b[1300];
  lpUnitSetNextPath(&r->units, a, sizeof a);
  snprintf(b, sizeof b, "%s.b.mlir", a);
  if (!lpCutoutSplit(&r->session.host, g, k, cut, a, b, err, size))
    return false;
  u->producer = lpUnitSetAdd(&r->units, a, g->kernels[k].type);
  u->consumer = lpUnitSetAdd(&r->units, b, lpCutClass(g, cut));
  u->fused = kernelUnit(r, g, k, err, size);
  return u->producer >= 0 && u->consumer >= 0 && u->fused >= 0;
}

/* The units of kernels `p` and `k` apart and merged; false with the
 * reason in `err` on failure. */
static bool mergeUnits(Run *r, LatGraph *g, int p, int k, LpEdgeUnits *u,
                       char *err, size_t size) {
  char path[1200], type[400];
  u->producer = kernelUnit(r, g, p, err, size);
  u->consumer = u->producer < 0 ? -1 : kernelUnit(r, g, k, err, size);
  if (u->producer < 0 || u->consumer < 0)
    return false;
  lpUnitSetNextPath(&r->units, path, sizeof path);
  snprintf(type, sizeof type, "%s+%s", g->kernels[p].type, g->kernels[k].type);
  if (!lpCutoutMerged(&r->session.host, g, p, k, path, err, size))
    return false;
  u->fused = lpUnitSetAdd(&r->units, path, type);
  return u->fused >= 0;
}

/* Counts `e` with an edge of the same cut-outs and reason, else appends
 * it (an edge that could not be cut out always); false when out of
 * memory. */
static bool addEdge(Run *r, const LpFusionEdge *e) {
  for (size_t i = 0; e->units.fused >= 0 && i < r->count; i++) {
    const LpEdgeUnits *u = &r->edges[i].units;
    if (u->producer == e->units.producer && u->consumer == e->units.consumer &&
        u->fused == e->units.fused && !strcmp(r->edges[i].why, e->why)) {
      r->edges[i].count++;
      return true;
    }
  }
  if (r->count == r->capacity) {
    size_t capacity = r->capacity ? 2 * r->capacity : 64;
    LpFusionEdge *edges = realloc(r->edges, capacity * sizeof *edges);
    if (!edges)
      return false;
    r->edges = edges;
    r->capacity = capacity;
  }
  r->edges[r->count] = *e;
  r->edges[r->count++].rank = r->modelEdges++;
  return true;
}

/* Turns one `latency.fusion` entry of kernel `k` into an edge; `*lastCut`
 * is the member the previous cut of `k` was made before. */
static bool addEntry(Run *r, LatGraph *g, int k, MlirAttribute entry,
                     int *lastCut) {
  LpFusionEdge e;
  memset(&e, 0, sizeof e);
  snprintf(e.model, sizeof e.model, "%s", lpBaseName(r->model));
  snprintf(e.function, sizeof e.function, "%s", r->function);
  e.consumer = k;
  e.producer = (int)number(entry, "producer");
  e.predictedGainUs = number(entry, "gain_us");
  e.predictedFusedUs = number(entry, "fused_us");
  e.predictedUnfusedUs = number(entry, "unfused_us");
  e.count = 1;
  text(entry, "why", e.why, sizeof e.why);
  text(entry, "at", e.at, sizeof e.at);
  if (e.producer < 0 || e.producer >= (int)g->numKernels)
    return true; /* not this graph's kernel: nothing to measure */
  snprintf(e.producerType, sizeof e.producerType, "%s",
           g->kernels[e.producer].type);
  snprintf(e.consumerType, sizeof e.consumerType, "%s", g->kernels[k].type);
  bool ok;
  char err[600] = "no cut before this class in the kernel";
  if (e.producer == k) {
    int cut = findCut(g, k, *lastCut, e.at);
    ok = cut >= 0 && splitUnits(r, g, k, cut, &e.units, err, sizeof err);
    *lastCut = cut >= 0 ? cut : *lastCut;
  } else
    ok = mergeUnits(r, g, e.producer, k, &e.units, err, sizeof err);
  if (!ok) { /* reported, never measured */
    e.units = (LpEdgeUnits){-1, -1, -1};
    e.tried = true;
    snprintf(e.timing.error, sizeof e.timing.error, "cut-out: %s", err);
  }
  return addEdge(r, &e);
}

/* The edges of kernel `k` from its root's latency.fusion. */
static bool kernelEdges(Run *r, LatGraph *g, int k) {
  MlirAttribute fusion = mlirOperationGetDiscardableAttributeByName(
      g->nodes[g->kernels[k].root].op,
      mlirStringRefCreateFromCString("latency.fusion"));
  if (mlirAttributeIsNull(fusion) || !mlirAttributeIsAArray(fusion))
    return true;
  int lastCut = -1;
  bool ok = true;
  for (intptr_t i = 0; ok && i < mlirArrayAttrGetNumElements(fusion); i++) {
    MlirAttribute entry = mlirArrayAttrGetElement(fusion, i);
    if (mlirAttributeIsADictionary(entry))
      ok = addEntry(r, g, k, entry, &lastCut);
  }
  return ok;
}

static bool functionEdges(Run *r, MlirOperation func) {
  LatGraph g;
  if (!lpDetectKernels(func, r->session.rules,
                       lpPipelineResolve(r->session.pipeline).passes, &g))
    return false;
  lpFunctionName(func, r->function, sizeof r->function);
  bool ok = (r->kernelUnit = malloc((g.numKernels + 1) * sizeof(int))) != 0;
  for (size_t k = 0; ok && k < g.numKernels; k++)
    r->kernelUnit[k] = -2;
  for (size_t k = 0; ok && k < g.numKernels; k++)
    ok = kernelEdges(r, &g, (int)k);
  free(r->kernelUnit);
  r->kernelUnit = NULL;
  latGraphFree(&g);
  return ok;
}

/* Predicts model `index` and collects its edges; false (reported) when it
 * cannot be predicted or read back. */
static bool modelEdges(Run *r, int index) {
  char annotated[1024], log[1024], err[1200];
  r->model = r->o->models[index];
  r->modelEdges = 0;
  snprintf(annotated, sizeof annotated, "%s/annotated-%d.mlir", r->session.work,
           index);
  snprintf(log, sizeof log, "%s/predict-%d.log", r->session.work, index);
  MlirModule module = {NULL};
  if (lpPredictWithPass(r->session.plugin, r->o->profileDir, false,
                        r->o->timeout, r->model, annotated, log, err,
                        sizeof err))
    module = lpHostParseFile(&r->session.host, annotated, err, sizeof err);
  if (mlirModuleIsNull(module)) {
    printf("%s error: %s\n", lpBaseName(r->model), err);
    return false;
  }
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (lpIsFunctionWithBody(op))
      ok = functionEdges(r, op);
  mlirModuleDestroy(module);
  unlink(annotated);
  unlink(log);
  if (!ok)
    printf("%s error: out of memory\n", lpBaseName(r->model));
  return ok;
}

static bool setUp(Run *r, const LpOptions *o) {
  memset(r, 0, sizeof *r);
  r->o = o;
  if (!lpValidateSessionOpen(&r->session, o, "latency-validate-fusion"))
    return false;
  snprintf(r->units.dir, sizeof r->units.dir, "%s", r->session.work);
  return true;
}

/* Removes the scratch directory unless a measurement failed in it. */
static void tearDown(Run *r) {
  bool keep = false;
  for (size_t i = 0; i < r->count; i++)
    keep |= r->edges[i].tried && !r->edges[i].timing.ok;
  lpValidateSessionClose(&r->session, keep);
  lpUnitSetFree(&r->units);
  free(r->edges);
}

/* Measures the edges until the budget (from `start`) is spent, round-robin
 * over the models (every model's first edge, then every second, ...), so
 * a budget that ends early still covers every model. */
static void measureEdges(Run *r, double start) {
  LpMeasureConfig config;
  lpKernelConfig(&config, r->o, r->units.count);
  config.pipeline = r->session.pipeline;
  printf("%zu fusion edges, %zu distinct cut-outs; pipeline %s\n", r->count,
         r->units.count, r->session.pipeline);
  fflush(stdout);
  bool more = true;
  for (int rank = 0; more; rank++) {
    more = false;
    for (size_t i = 0; i < r->count; i++) {
      if (r->edges[i].rank != rank ||
          (r->o->budget > 0 && lpNow() > start + r->o->budget))
        continue;
      more = true;
      if (r->edges[i].tried) /* could not be cut out */
        continue;
      r->edges[i].tried = true;
      lpMeasureEdge(&r->session.host, &r->units, &r->edges[i].units, &config,
                    &r->edges[i].timing);
    }
  }
}

int lpValidateFusionMain(const LpOptions *o) {
  double start = lpNow();
  Run r;
  if (!setUp(&r, o))
    return 1;
  bool failed = false;
  for (int i = 0; i < o->numModels; i++)
    failed |= !modelEdges(&r, i);
  measureEdges(&r, start);
  lpPrintFusionValidation(r.edges, r.count);
  if (o->jsonPath &&
      !lpWriteFusionValidationJson(o->jsonPath, o->profileDir,
                                   r.session.pipeline, r.edges, r.count)) {
    fprintf(stderr, "latency-profile: cannot write %s\n", o->jsonPath);
    failed = true;
  }
  tearDown(&r);
  return failed ? 1 : 0;
}
