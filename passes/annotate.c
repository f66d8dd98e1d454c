/*===- annotate.c - the answers as attributes on the IR --------------------===*
 *
 * The last stage before the report: everything here is already estimated;
 * this file only writes `latency.estimate`, `latency.fusion`,
 * `latency.kernel`, `latency.kernel_type` and the function totals
 * (docs/attributes.md). Attribute order on an op is the order written here,
 * and printed IR depends on it.
 *
 *===----------------------------------------------------------------------===*/
#include "annotate.h"

#include "describe.h"

#include "latency/diagnostics.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
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
      named(ctx, "cold_weights_us",
            mlirFloatAttrDoubleGet(ctx, f64, k->coldUs)),
      named(ctx, "cold_writes_us",
            mlirFloatAttrDoubleGet(ctx, f64, k->coldWriteUs)),
  };
  /* `count` (runs per call: loop trips, 0 for a branch not counted) only
   * where it is not 1, `cold_weights_us` and `cold_writes_us` (part of
   * `us`) only where the kernel was charged for weights read from memory
   * (estimate.c) or a written column lost from the cache (cold_writes.c) */
  const intptr_t always = sizeof fields / sizeof fields[0] - 3;
  intptr_t numFields = always;
  if (k->count != 1)
    numFields++;
  if (k->coldUs > 0)
    fields[numFields++] = fields[always + 1];
  if (k->coldWriteUs > 0)
    fields[numFields++] = fields[always + 2];
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
  if (!entries && g->numEdges)
    latEmitWarning(mlirOperationGetLocation(g->nodes[0].op),
                   "latency: out of memory: latency.fusion not written");
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

void latAnnotateFunction(const LatFunctionReport *fn) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  for (size_t i = 0; i < fn->graph.numKernels; i++)
    annotateKernel(ctx, &fn->graph, &fn->graph.kernels[i]);
  annotateFusion(ctx, &fn->graph);
  tagKernelIds(ctx, &fn->graph);
  mlirOperationSetDiscardableAttributeByName(
      fn->func, str("latency.total_us"),
      mlirFloatAttrDoubleGet(ctx, mlirF64TypeGet(ctx), fn->totalUs));
  mlirOperationSetDiscardableAttributeByName(
      fn->func, str("latency.kernels"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64),
                         (int64_t)fn->graph.numKernels));
}

void latAnnotateKernelTypes(MlirContext ctx, const LatGraph *g) {
  tagKernelIds(ctx, g);
  for (size_t k = 0; k < g->numKernels; k++)
    mlirOperationSetDiscardableAttributeByName(
        g->nodes[g->kernels[k].root].op, str("latency.kernel_type"),
        mlirStringAttrGet(ctx, str(g->kernels[k].type)));
}
