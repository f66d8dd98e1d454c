/*===- shapes.c - the distinct kernel shapes of a set of models -----------===*
 *
 * Detection is the passes' own (latGraphBuild, latGraphMatchPatterns,
 * latGraphDetect, latGraphDescribe), called with the options the pass
 * uses by default, so a row written for a shape is the row the pass looks
 * up for every kernel of that shape.
 *
 *===----------------------------------------------------------------------===*/
#include "shapes.h"
#include "describe.h"

#include "cutout.h"
#include "detect.h"
#include "estimate.h"
#include "files.h"
#include "pipelines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool profileRules(void *ctx, const char *producer,
                         const char *consumer) {
  return cmProfileAllowsFusion(*(CmProfile *)ctx, producer, consumer);
}

bool lpDetectKernels(MlirOperation func, CmProfile rules, const char *passes,
                     LatGraph *graph) {
  memset(graph, 0, sizeof *graph);
  LatInputs inputs = {NULL, 0, false, true,
                      lpPipelineFoldsTosaConstants(passes) ? "tosa" : NULL};
  if (!latGraphBuild(mlirOperationGetRegion(func, 0), &inputs, true, graph))
    return false;
  latGraphMatchPatterns(graph, true);
  latGraphDetect(graph, true, profileRules, &rules);
  latGraphDescribe(graph);
  return true;
}

/* Copies kernel `k`'s type and fields into `shape` and makes its key. */
static void describeShape(const LatKernel *k, LpShape *shape) {
  memset(shape, 0, sizeof *shape);
  snprintf(shape->type, sizeof shape->type, "%s", k->type);
  snprintf(shape->axes, sizeof shape->axes, "%s", k->axes);
  snprintf(shape->loc, sizeof shape->loc, "%s", k->loc);
  shape->flops = k->flops;
  shape->bytes = k->bytes;
  if (latKernelUsesBuiltinWork(k->type)) {
    /* the work the pass will price it with, so that the efficiency fitted
       here divides the same work (attention's ops count two full matmuls,
       the cost model a causal prefill's half) */
    CmQuery query = {k->type, k->fields, (size_t)k->numFields, -1, -1};
    cmQueryWork(&query, &shape->flops, &shape->bytes);
  }
  shape->scratchBytes = k->scratchBytes;
  shape->epilogueElements = k->epilogueElements;
  shape->epiloguePasses = k->epiloguePasses;
  shape->accBits = k->accBits;
  size_t used = (size_t)snprintf(shape->key, sizeof shape->key, "%s", k->type);
  for (int i = 0; i < k->numFields && i < LAT_MAX_FIELDS; i++) {
    snprintf(shape->names[i], sizeof shape->names[i], "%s", k->fields[i].name);
    snprintf(shape->values[i], sizeof shape->values[i], "%s",
             k->fields[i].value);
    if (used < sizeof shape->key)
      used += (size_t)snprintf(shape->key + used, sizeof shape->key - used,
                               ";%s=%s", shape->names[i], shape->values[i]);
  }
  shape->numFields = k->numFields;
}

/* Why a kernel cannot be a table row, or NULL when it can. */
static const char *unmeasurable(const LatKernel *k, const LpShape *shape) {
  if (k->isCall)
    return "a call: the pass costs it as its callee's kernels";
  for (int i = 0; i < shape->numFields; i++)
    if (!lpIsRegimeField(shape->names[i], shape->values[i]))
      return NULL;
  return "no axes the pass could look it up by";
}

static bool grow(LpShapeSet *set) {
  if (set->count < set->capacity)
    return true;
  /* small at first so that short runs (lit profile/sweep.test) grow the set
   * too: nothing may keep a pointer into it across an add */
  size_t capacity = set->capacity ? 2 * set->capacity : 4;
  LpShape *items = realloc(set->items, capacity * sizeof *items);
  if (!items)
    return false;
  set->items = items;
  set->capacity = capacity;
  return true;
}

/* Writes the cut-out of a new shape; marks it skipped when that fails. */
static void cutOut(LpShape *shape, size_t index, LpHost *host,
                   const LatGraph *g, int k, const char *kernelDir) {
  char name[64];
  size_t n = 0;
  for (const char *c = shape->type; *c && n < 40; c++)
    name[n++] = (*c == '+' || *c == '/') ? '_' : *c;
  name[n] = '\0';
  snprintf(shape->file, sizeof shape->file, "%s/%03zu-%s.mlir", kernelDir,
           index, name);
  char err[sizeof shape->result.error];
  if (!lpCutoutWrite(host, g, k, shape->file, err, sizeof err)) {
    shape->skipped = true;
    snprintf(shape->result.error, sizeof shape->result.error, "cut-out: %.600s",
             err);
    shape->file[0] = '\0';
  }
}

int lpShapeSetAdd(LpShapeSet *set, LpHost *host, const LatGraph *g, int k,
                  const char *model, const char *kernelDir) {
  LpShape shape;
  describeShape(&g->kernels[k], &shape);
  for (size_t i = 0; i < set->count; i++)
    if (!strcmp(set->items[i].key, shape.key)) {
      set->items[i].uses++;
      return (int)i;
    }
  if (!grow(set))
    return -1;
  snprintf(shape.model, sizeof shape.model, "%s", model);
  shape.uses = 1;
  const char *why = unmeasurable(&g->kernels[k], &shape);
  if (why) {
    shape.skipped = true;
    snprintf(shape.result.error, sizeof shape.result.error, "%s", why);
  } else {
    cutOut(&shape, set->count, host, g, k, kernelDir);
  }
  set->items[set->count] = shape;
  return (int)set->count++;
}

bool lpShapeSetAddModel(LpShapeSet *set, LpHost *host, CmProfile rules,
                        const char *passes, const char *path,
                        const char *kernelDir, char *err, size_t size) {
  MlirModule module = lpHostParseFile(host, path, err, size);
  if (mlirModuleIsNull(module))
    return false;
  bool ok = true;
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!lpIsFunctionWithBody(op))
      continue;
    LatGraph graph;
    ok = lpDetectKernels(op, rules, passes, &graph);
    for (size_t k = 0; ok && k < graph.numKernels; k++)
      ok = lpShapeSetAdd(set, host, &graph, (int)k, lpBaseName(path),
                         kernelDir) >= 0;
    latGraphFree(&graph);
  }
  if (!ok)
    snprintf(err, size, "out of memory");
  mlirModuleDestroy(module);
  return ok;
}

void lpShapeSetFree(LpShapeSet *set) {
  free(set->items);
  memset(set, 0, sizeof *set);
}
