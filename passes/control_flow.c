/*===- control_flow.c - where each op of a function runs, and how often ----===*
 *
 * A function body may hold several blocks (cf.br, cf.cond_br) and control-
 * flow ops whose regions hold more ops (scf.for, scf.if, scf.while,
 * scf.execute_region, tosa.cond_if, ...). Every op in them is a node of the
 * graph: its block keeps kernels apart (a kernel never spans blocks, except
 * a chain of blocks joined by unconditional branches, which is straight-
 * line code split in two), and its scope says how often it runs: a loop
 * body its static trip count times per run of the loop, a branch of an
 * scf.if once, unless another branch of the same op costs more (then it is
 * reported but not counted). Nothing is dropped silently: an op whose
 * regions are not walked, or a loop whose trip count is not static, gets a
 * warning at its location.
 *
 *===----------------------------------------------------------------------===*/
#include "graph.h"

#include "ir_util.h"
#include "latency/diagnostics.h"

#include "mlir-c/BuiltinAttributes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How a region-holding op's regions run. */
typedef enum {
  kNotWalked, /* not control flow (linalg bodies are scalar) */
  kOnce,      /* scf.execute_region                          */
  kLoop,      /* each region runs `trips` times               */
  kBranches   /* one of the regions runs                     */
} RegionKind;

static RegionKind regionKind(MlirOperation op) {
  if (latOpIs(op, "scf.for") || latOpIs(op, "scf.forall") ||
      latOpIs(op, "scf.parallel") || latOpIs(op, "scf.while") ||
      latOpIs(op, "tosa.while_loop"))
    return kLoop;
  if (latOpIs(op, "scf.if") || latOpIs(op, "scf.index_switch") ||
      latOpIs(op, "tosa.cond_if"))
    return kBranches;
  if (latOpIs(op, "scf.execute_region"))
    return kOnce;
  return kNotWalked;
}

/* The integer value of constant `v`, false when it is not one. */
static bool constantInt(MlirValue v, int64_t *out) {
  MlirAttribute a = latConstantValue(v);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* Iterations of lower..upper by step; false for a step that is not
 * positive. */
static bool iterations(int64_t lower, int64_t upper, int64_t step,
                       double *trips) {
  if (step <= 0)
    return false;
  /* in doubles throughout: a loop may run 2^64 - 2 times */
  *trips =
      upper > lower ? ceil(((double)upper - (double)lower) / (double)step) : 0;
  return true;
}

/* scf.forall keeps static bounds as attributes; a dynamic one is
 * INT64_MIN there. */
static bool forallTrips(MlirOperation op, double *trips) {
  MlirAttribute upper = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("staticUpperBound"));
  if (mlirAttributeIsNull(upper) || !mlirAttributeIsADenseI64Array(upper))
    return false;
  *trips = 1;
  for (intptr_t d = 0; d < mlirDenseArrayGetNumElements(upper); d++) {
    int64_t lo = latI64ArrayAttr(op, "staticLowerBound", (int)d, 0);
    int64_t hi = mlirDenseI64ArrayGetElement(upper, d);
    int64_t step = latI64ArrayAttr(op, "staticStep", (int)d, 1);
    double n;
    if (lo == INT64_MIN || hi == INT64_MIN || step == INT64_MIN ||
        !iterations(lo, hi, step, &n))
      return false;
    *trips *= n;
  }
  return true;
}

/* scf.parallel: lower bounds, upper bounds and steps as operand groups of
 * equal size (then its init values). */
static bool parallelTrips(MlirOperation op, double *trips) {
  intptr_t dims = latI64ArrayAttr(op, "operandSegmentSizes", 0, -1);
  if (dims < 0 || 3 * dims > mlirOperationGetNumOperands(op))
    return false;
  *trips = 1;
  for (intptr_t d = 0; d < dims; d++) {
    int64_t lo, hi, step;
    double n;
    if (!constantInt(latOperand(op, d), &lo) ||
        !constantInt(latOperand(op, dims + d), &hi) ||
        !constantInt(latOperand(op, 2 * dims + d), &step) ||
        !iterations(lo, hi, step, &n))
      return false;
    *trips *= n;
  }
  return true;
}

/* The static trip count of a loop op; false when it is not static. */
static bool loopTrips(MlirOperation op, double *trips) {
  int64_t lo, hi, step;
  if (latOpIs(op, "scf.for"))
    return constantInt(latOperand(op, 0), &lo) &&
           constantInt(latOperand(op, 1), &hi) &&
           constantInt(latOperand(op, 2), &step) &&
           iterations(lo, hi, step, trips);
  if (latOpIs(op, "scf.forall"))
    return forallTrips(op, trips);
  if (latOpIs(op, "scf.parallel"))
    return parallelTrips(op, trips);
  return false; /* while loops: data-dependent */
}

static bool walkRegion(LatGraph *g, MlirRegion region, int scope);

/* True when some op in `op`'s regions produces a tensor or calls. */
static bool regionsHoldWork(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation inner = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(inner);
           inner = mlirOperationGetNextInBlock(inner))
        if (latShapeOf(latResult(inner, 0)).isTensor ||
            latOpIs(inner, "func.call") || regionsHoldWork(inner))
          return true;
  return false;
}

/* Walks the regions of control-flow op `op` (node in `scope`), each in a
 * scope of its own. */
static bool walkControlFlow(LatGraph *g, MlirOperation op, int scope) {
  RegionKind kind = regionKind(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  if (kind == kNotWalked) {
    LatRole role = latClassify(op).role;
    if ((role == LAT_ROLE_SKIP || role == LAT_ROLE_UNKNOWN) &&
        regionsHoldWork(op)) {
      char name[96], text[200];
      latOpName(op, name, sizeof name);
      snprintf(text, sizeof text,
               "latency: the ops inside the regions of '%s' are not counted",
               name);
      if (!g->quiet)
        latEmitWarning(loc, text);
    }
    return true;
  }
  double trips = 1;
  if (kind == kLoop && !loopTrips(op, &trips) && !g->quiet)
    latEmitWarning(loc, "latency: this loop's trip count is not static: its "
                        "body is counted once");
  int choice = -1;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++) {
    LatScope s = {op, scope, kind == kLoop ? trips : 1, -1, true, 0};
    int index = latGraphAddScope(g, s);
    if (index < 0)
      return false;
    if (kind == kBranches)
      choice = choice < 0 ? index : choice;
    g->scopes[index].choice = kind == kBranches ? choice : -1;
    if (!walkRegion(g, mlirOperationGetRegion(op, r), index))
      return false;
  }
  return true;
}

/* The block a cf.br alone leads to from `block`, or a null block. */
static MlirBlock soleBranchTarget(MlirBlock block) {
  MlirOperation last = mlirBlockGetTerminator(block);
  MlirBlock none = {NULL};
  if (mlirOperationIsNull(last) || !latOpIs(last, "cf.br") ||
      mlirOperationGetNumSuccessors(last) != 1)
    return none;
  return mlirOperationGetSuccessor(last, 0);
}

/* Block ids of the `n` blocks of a region: a block whose only predecessor
 * reaches it by an unconditional cf.br continues that block's straight-line
 * code and shares its id (as the canonicalizer would merge them). */
static void blockIds(const MlirBlock *blocks, int n, int first, int *ids) {
  int *preds = calloc((size_t)n, sizeof *preds);
  int *from = calloc((size_t)n, sizeof *from);
  for (int b = 0; preds && from && b < n; b++) {
    MlirOperation last = mlirBlockGetTerminator(blocks[b]);
    for (intptr_t s = 0;
         !mlirOperationIsNull(last) && s < mlirOperationGetNumSuccessors(last);
         s++)
      for (int t = 0; t < n; t++)
        if (mlirBlockEqual(blocks[t], mlirOperationGetSuccessor(last, s)))
          preds[t]++, from[t] = b;
  }
  for (int b = 0; b < n; b++) {
    int root = b;
    /* follow single-predecessor cf.br chains back, at most n steps (an
     * unreachable cycle of such blocks has no head) */
    for (int step = 0;
         preds && from && step < n && preds[root] == 1 &&
         mlirBlockEqual(soleBranchTarget(blocks[from[root]]), blocks[root]) &&
         from[root] != b;
         step++)
      root = from[root];
    ids[b] = first + root;
  }
  free(preds);
  free(from);
}

static bool walkRegion(LatGraph *g, MlirRegion region, int scope) {
  int n = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    n++;
  MlirBlock *blocks = malloc((size_t)(n + 1) * sizeof *blocks);
  int *ids = malloc((size_t)(n + 1) * sizeof *ids);
  bool ok = blocks && ids;
  int i = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(region); ok && !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    blocks[i++] = b;
  int first = (int)g->numBlocks;
  g->numBlocks += (size_t)n;
  if (ok)
    blockIds(blocks, n, first, ids);
  for (i = 0; ok && i < n; i++)
    for (MlirOperation op = mlirBlockGetFirstOperation(blocks[i]);
         ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      ok = latGraphAddNode(g, op, ids[i], scope) &&
           (mlirOperationGetNumRegions(op) == 0 ||
            walkControlFlow(g, op, scope));
  free(blocks);
  free(ids);
  return ok;
}

bool latGraphCollect(LatGraph *g, MlirRegion body) {
  return walkRegion(g, body, 0);
}

/* Estimates of the kernels rooted in each scope, then of whole scopes: a
 * scope's subtotal is its own kernels plus its counted child scopes times
 * their trips. Branches of one op are resolved when their first scope is
 * reached, last scope first (children come after their parents). */
static void resolveBranches(LatGraph *g, double *subtotal) {
  for (size_t s = g->numScopes; s-- > 1;) {
    LatScope *scope = &g->scopes[s];
    if (scope->choice >= 0 && scope->choice != (int)s)
      continue; /* added with its first branch */
    if (scope->choice < 0) {
      subtotal[scope->parent] += subtotal[s] * scope->trips;
      continue;
    }
    size_t best = s;
    for (size_t t = s; t < g->numScopes; t++)
      if (g->scopes[t].choice == (int)s && subtotal[t] > subtotal[best])
        best = t;
    int branches = 0;
    for (size_t t = s; t < g->numScopes; t++)
      if (g->scopes[t].choice == (int)s) {
        g->scopes[t].counted = t == best;
        branches++;
      }
    subtotal[scope->parent] += subtotal[best];
    char text[200];
    snprintf(text, sizeof text,
             "latency: %d branches estimated; the costliest (%.3f us, "
             "region #%d) is counted",
             branches, subtotal[best], (int)(best - s));
    if (!g->quiet)
      latEmitRemark(mlirOperationGetLocation(scope->op), text);
  }
}

void latGraphResolveCounts(LatGraph *g) {
  double *subtotal = calloc(g->numScopes + 1, sizeof *subtotal);
  for (size_t k = 0; subtotal && k < g->numKernels; k++) {
    const LatKernel *kk = &g->kernels[k];
    subtotal[g->nodes[kk->root].scope] += kk->us;
  }
  if (subtotal)
    resolveBranches(g, subtotal);
  free(subtotal);
  g->scopes[0].count = 1;
  for (size_t s = 1; s < g->numScopes; s++) {
    LatScope *scope = &g->scopes[s];
    scope->count =
        scope->counted ? g->scopes[scope->parent].count * scope->trips : 0;
  }
  for (size_t k = 0; k < g->numKernels; k++)
    g->kernels[k].count = g->scopes[g->nodes[g->kernels[k].root].scope].count;
}
