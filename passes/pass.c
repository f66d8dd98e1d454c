/*===- pass.c - what one run of a pass owns: profile, functions ------------===*
 *
 * The first stages of both passes: load the profile (fusion rules only; the
 * tables come once the kernels are known), then for every function with a
 * body build its graph (classify, graph.c), match multi-op patterns and
 * detect kernels (detect.c). Failures emit their error here.
 *
 *===----------------------------------------------------------------------===*/
#include "pass.h"

#include "detect.h"

#include "latency/costmodel_util.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  *out = (CmProfile){0};
  return false;
}

bool latPassLoadProfile(LatPass *pass, MlirOperation module, const char *name,
                        const char *rules) {
  *pass = (LatPass){.module = module, .options = cmOptionsDefault()};
  if (!loadProfileWithRules(module, name, rules, &pass->profile))
    return false;
  pass->fusion = (LatFusionContext){pass->profile, &pass->options, profileRules,
                                    &pass->profile};
  return true;
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
  MlirAttribute name = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef s = mlirAttributeIsAString(name)
                        ? mlirStringAttrGetValue(name)
                        : mlirStringRefCreateFromCString("?");
  char *copy = malloc(s.length + 1);
  if (copy) {
    memcpy(copy, s.data, s.length);
    copy[s.length] = '\0';
  }
  return copy;
}

/* Frees the first `n` functions' graphs and names, and the array. */
static void freeFunctions(LatFunctionReport *fns, long n) {
  for (long i = 0; i < n; i++) {
    latGraphFree(&fns[i].graph);
    free(fns[i].name);
  }
  free(fns);
}

/* The graphs of every function of `module`, classified and grouped into
 * kernels; returns the count, or -1 when out of memory. */
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

/* What the profile's compiler folds (LatInputs): device.csv's
 * `fold_constants` (default 1: all constant work folds) and, when it is 0,
 * `fold_constants.<dialect>` 1 for the dialects folded all the same;
 * `buffer` holds their names. */
static void profileFolding(CmProfile profile, LatInputs *inputs, char *buffer,
                           size_t size) {
  static const char *const dialects[] = {"tosa", "linalg", "tensor", "arith"};
  inputs->constantWorkRuns =
      cmProfileGetDeviceNumber(profile, "fold_constants", 1) == 0;
  buffer[0] = '\0';
  for (size_t i = 0; i < sizeof dialects / sizeof dialects[0]; i++) {
    char key[64];
    snprintf(key, sizeof key, "fold_constants.%s", dialects[i]);
    size_t used = strlen(buffer);
    if (cmProfileGetDeviceNumber(profile, key, 0) != 0)
      snprintf(buffer + used, size - used, "%s%s", used ? "," : "",
               dialects[i]);
  }
  inputs->foldingDialects = buffer;
}

bool latPassDetect(LatPass *pass, bool fusion, const LatInputs *inputs) {
  LatInputs folding = inputs ? *inputs : (LatInputs){0};
  profileFolding(pass->profile, &folding, pass->folding, sizeof pass->folding);
  pass->count = buildFunctions(pass->module, fusion, &folding, &pass->profile,
                               &pass->fns);
  if (pass->count >= 0)
    return true;
  pass->count = 0;
  mlirEmitError(mlirOperationGetLocation(pass->module),
                "latency: out of memory while building the functions' graphs");
  return false;
}

bool latPassLoadTables(LatPass *pass) {
  const LatFunctionReport *fns = pass->fns;
  long n = pass->count;
  size_t total = 0;
  for (long i = 0; i < n; i++)
    total += fns[i].graph.numKernels;
  CmQuery *queries = malloc((total + 1) * sizeof *queries);
  if (!queries) {
    mlirEmitError(mlirOperationGetLocation(pass->module),
                  "latency: out of memory while choosing tables to load");
    return false;
  }
  size_t count = 0;
  for (long i = 0; i < n; i++)
    for (size_t k = 0; k < fns[i].graph.numKernels; k++) {
      const LatKernel *kk = &fns[i].graph.kernels[k];
      queries[count++] = (CmQuery){kk->type, kk->fields, (size_t)kk->numFields,
                                   kk->flops, kk->bytes};
    }
  CmError err;
  bool ok =
      cmProfileLoadTablesFor(pass->profile, queries, count, &err) == CM_OK;
  if (!ok)
    emitProfileError(pass->module, &err);
  free(queries);
  return ok;
}

bool latPassLoadAllTables(LatPass *pass) {
  CmError err;
  if (cmProfileLoadTablesFor(pass->profile, NULL, 0, &err) == CM_OK)
    return true;
  emitProfileError(pass->module, &err);
  return false;
}

void latPassFree(LatPass *pass) {
  if (pass->fns)
    freeFunctions(pass->fns, pass->count);
  free(pass->progress);
  cmProfileDestroy(pass->profile);
  *pass = (LatPass){0};
}
