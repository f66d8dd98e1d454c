/*===- unit_set.c - distinct cut-outs, and an edge measured in one child ---===*
 *
 * A linear scan over the texts finds a repeat: a few hundred units per run,
 * each compared only when its length matches.
 *
 *===----------------------------------------------------------------------===*/
#include "unit_set.h"

#include "files.h"

#include "mlir-c/BuiltinAttributes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lpUnitSetNextPath(const LpUnitSet *set, char *path, size_t size) {
  snprintf(path, size, "%s/unit-%04zu.mlir", set->dir, set->count);
}

/* The contents of `path` (owned by the caller), or NULL. */
static char *readAll(const char *path) {
  FILE *in = fopen(path, "rb");
  if (!in)
    return NULL;
  char *text = NULL;
  long n = fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (n >= 0 && fseek(in, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)n + 1)) != NULL) {
    if (fread(text, 1, (size_t)n, in) != (size_t)n) {
      free(text);
      text = NULL;
    } else
      text[n] = '\0';
  }
  fclose(in);
  return text;
}

int lpUnitSetAdd(LpUnitSet *set, const char *path, const char *type) {
  char *text = readAll(path);
  if (!text)
    return -1;
  size_t length = strlen(text);
  for (size_t i = 0; i < set->count; i++)
    if (strlen(set->items[i].text) == length &&
        !strcmp(set->items[i].text, text)) {
      free(text);
      if (strcmp(set->items[i].file, path))
        unlink(path);
      return (int)i;
    }
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? 2 * set->capacity : 32;
    LpUnit *items = realloc(set->items, capacity * sizeof *items);
    if (!items) {
      free(text);
      return -1;
    }
    set->items = items;
    set->capacity = capacity;
  }
  LpUnit *u = &set->items[set->count];
  memset(u, 0, sizeof *u);
  u->text = text;
  snprintf(u->file, sizeof u->file, "%s", path);
  snprintf(u->type, sizeof u->type, "%s", type);
  return (int)set->count++;
}

/* Appends function @kernel of the module at `path` to `into`, renamed
 * `name`; false with the reason in `err`. */
static bool appendKernel(LpHost *host, MlirModule into, const char *path,
                         const char *name, char *err, size_t size) {
  MlirModule from = lpHostParseFile(host, path, err, size);
  if (mlirModuleIsNull(from))
    return false;
  MlirOperation func = lpFindFunction(from, "kernel");
  bool ok = !mlirOperationIsNull(func);
  if (ok) {
    MlirOperation clone = mlirOperationClone(func);
    mlirOperationSetAttributeByName(
        clone, mlirStringRefCreateFromCString("sym_name"),
        mlirStringAttrGet(host->ctx, mlirStringRefCreateFromCString(name)));
    mlirBlockAppendOwnedOperation(mlirModuleGetBody(into), clone);
  } else
    snprintf(err, size, "%.300s: no function @kernel", path);
  mlirModuleDestroy(from);
  return ok;
}

/* Writes the three units of `edge` as one module to `path`. */
static bool writeEdgeModule(LpHost *host, const LpUnitSet *set,
                            const LpEdgeUnits *edge, const char *path,
                            char *err, size_t size) {
  static const char *const names[] = {"producer", "consumer", "fused"};
  const int units[] = {edge->producer, edge->consumer, edge->fused};
  MlirModule module = mlirModuleCreateEmpty(mlirLocationUnknownGet(host->ctx));
  bool ok = true;
  for (int i = 0; ok && i < 3; i++)
    ok = appendKernel(host, module, set->items[units[i]].file, names[i], err,
                      size);
  ok = ok &&
       lpWriteOperation(mlirModuleGetOperation(module), path, false, err, size);
  mlirModuleDestroy(module);
  return ok;
}

bool lpMeasureEdge(LpHost *host, LpUnitSet *set, const LpEdgeUnits *edge,
                   const LpMeasureConfig *config, LpEdgeTiming *out) {
  char path[1100], log[1200];
  memset(out, 0, sizeof *out);
  snprintf(path, sizeof path, "%s/edge-%04zu.mlir", set->dir, set->numEdges++);
  snprintf(log, sizeof log, "%s.log", path);
  if (!writeEdgeModule(host, set, edge, path, out->error, sizeof out->error))
    return false;
  LpMeasurement m;
  lpMeasureFile(config, path, "producer,consumer,fused",
                set->items[edge->fused].type, log, &m);
  if (m.ok && (m.numOthers < 2 || !m.hasDiff))
    snprintf(m.error, sizeof m.error, "the child timed %d of 3 functions",
             m.numOthers + 1);
  if (!m.ok || m.numOthers < 2 || !m.hasDiff) {
    snprintf(out->error, sizeof out->error, "%.500s (%.190s)", m.error,
             lpBaseName(path));
    return false;
  }
  unlink(log);
  out->ok = true;
  out->producerUs = m.us;
  out->consumerUs = m.otherUs[0];
  out->fusedUs = m.otherUs[1];
  out->gainUs = m.diffUs;
  out->noiseUs = fmax(2 * m.diffSeUs, 0.005 * (m.us + m.otherUs[0]));
  return true;
}

void lpUnitSetFree(LpUnitSet *set) {
  for (size_t i = 0; i < set->count; i++)
    free(set->items[i].text);
  free(set->items);
  set->items = NULL;
  set->count = set->capacity = 0;
}
