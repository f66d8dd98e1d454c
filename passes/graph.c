/*===- graph.c - one function's ops: build, look up, free ------------------===*
 *
 * The container the stages share (docs/architecture.md): ops of every block
 * and control-flow region in program order with their classes, an op ->
 * node index, producer and user walks. Kernels are detect.c's.
 *
 *===----------------------------------------------------------------------===*/
#include "graph.h"

#include "ir_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t slotOf(const LatGraph *g, void *key) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 7) & (g->numSlots - 1);
}

int latGraphFind(const LatGraph *g, MlirOperation op) {
  if (mlirOperationIsNull(op) || !g->numSlots)
    return -1;
  for (size_t s = slotOf(g, op.ptr); g->slotKeys[s];
       s = (s + 1) & (g->numSlots - 1))
    if (g->slotKeys[s] == op.ptr)
      return g->slotValues[s];
  return -1;
}

int latGraphValueProducer(const LatGraph *g, MlirValue value) {
  return latGraphFind(g, latProducer(value));
}

int latGraphProducerOf(const LatGraph *g, int n, intptr_t i) {
  int p = latGraphValueProducer(g, latOperand(g->nodes[n].op, i));
  return p >= 0 && g->nodes[p].block == g->nodes[n].block ? p : -1;
}

bool latGraphAllUsers(const LatGraph *g, int n,
                      bool (*accept)(const LatGraph *, int, void *),
                      void *context) {
  MlirOperation op = g->nodes[n].op;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand u = latFirstUse(latResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      int user = latGraphFind(g, mlirOpOperandGetOwner(u));
      if (user >= 0 && g->nodes[user].block != g->nodes[n].block)
        user = -1;
      if (!accept(g, user, context))
        return false;
    }
  return true;
}

void latGraphFree(LatGraph *g) {
  free(g->nodes);
  free(g->kernels);
  free(g->slotKeys);
  free(g->slotValues);
  free(g->scopes);
  free(g->edges);
  memset(g, 0, sizeof *g);
}

/* True when `v` is a weight: an argument of the function's entry block that
 * `inputs=` does not name (only when `inputs=` is given). */
static bool isWeightArgument(const LatGraph *g, MlirValue v) {
  if (!g->inputs.given || !mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(v), g->entry) ||
      !latShapeOf(v).isTensor)
    return false;
  intptr_t index = mlirBlockArgumentGetArgNumber(v);
  for (size_t i = 0; i < g->inputs.count; i++)
    if (g->inputs.indices[i] == index)
      return false;
  return true;
}

/* True when `v` holds a constant: a folded node's result or a weight. */
static bool isConstantValue(const LatGraph *g, MlirValue v) {
  int p = latGraphValueProducer(g, v);
  return p >= 0 ? g->nodes[p].constant : isWeightArgument(g, v);
}

/* Slices, reshapes and bitcasts of a block argument (a function input or a
 * weight, a loop's iter_arg) select part of a buffer the caller already
 * holds: views, which cost nothing themselves; the op that reads one counts
 * the bytes it selects (kernel_describe.c). A LLaMA export that packs every
 * weight into one argument and slices them out is costed by the slices,
 * not by the whole argument once per slice. */
static void markArgumentViews(LatGraph *g) {
  for (size_t i = 0; i < g->numNodes; i++) {
    LatNode *n = &g->nodes[i];
    bool reshape = n->cls.id == LAT_CLASS_RESHAPE;
    if (n->cls.role != LAT_ROLE_COSTED ||
        (n->cls.id != LAT_CLASS_SLICE && !reshape))
      continue;
    MlirValue source = latOperand(n->op, 0);
    if (!mlirValueIsNull(source) && mlirValueIsABlockArgument(source))
      n->cls.role = LAT_ROLE_VIEW;
  }
}

/* True when the compiler the profile describes folds `n` on constants:
 * every compiler does by default; one that runs constant work on every call
 * (inputs.constantWorkRuns) still folds the dialects it names. */
static bool foldsOnConstants(const LatGraph *g, const LatNode *n) {
  if (!g->inputs.constantWorkRuns)
    return true;
  const char *dialects = g->inputs.foldingDialects;
  char name[128];
  latOpName(n->op, name, sizeof name);
  size_t length = strcspn(name, ".");
  while (dialects && *dialects) {
    size_t d = strcspn(dialects, ",");
    if (d == length && !strncmp(dialects, name, length))
      return true;
    dialects += d + (dialects[d] == ',');
  }
  return false;
}

/* Marks the nodes whose operands are all constants as constant, and takes
 * the costed and view ones among them out of detection: BN's rsqrt(var +
 * eps) on constant statistics, reshuffles of constant weights. Unknown ops
 * are left alone (they may have effects), and so are ops without operands
 * that are not constants themselves. Convs, matmuls and the like stay
 * kernels even on constants (a merged LoRA weight, say): a compiler may
 * fold them, but every conv and matmul of a graph is promised a kernel
 * with a latency (docs/attributes.md). Constant work the profile's compiler
 * runs on every call (foldsOnConstants) stays a kernel. */
static void skipConstantFolded(LatGraph *g) {
  for (size_t i = 0; i < g->numNodes; i++) {
    LatNode *n = &g->nodes[i];
    if (n->cls.role == LAT_ROLE_SKIP && n->cls.id == LAT_CLASS_CONST) {
      n->constant = true;
      continue;
    }
    intptr_t numOperands = mlirOperationGetNumOperands(n->op);
    bool constant = n->cls.role != LAT_ROLE_UNKNOWN && numOperands > 0 &&
                    !latNodeIsComputeAnchor(n) &&
                    n->cls.id != LAT_CLASS_CONTROL;
    for (intptr_t o = 0; o < numOperands && constant; o++)
      constant = isConstantValue(g, latOperand(n->op, o));
    n->constant = constant;
    if (constant && foldsOnConstants(g, n)) {
      g->foldedOps += n->cls.role == LAT_ROLE_COSTED;
      n->cls.role = LAT_ROLE_SKIP;
    }
  }
}

bool latGraphAddNode(LatGraph *g, MlirOperation op, int block, int scope) {
  if (g->numNodes == g->capacity) {
    size_t capacity = g->capacity ? 2 * g->capacity : 64;
    LatNode *nodes = realloc(g->nodes, capacity * sizeof *nodes);
    if (!nodes)
      return false;
    g->nodes = nodes;
    g->capacity = capacity;
  }
  LatNode *node = &g->nodes[g->numNodes++];
  memset(node, 0, sizeof *node);
  node->op = op;
  node->cls = latClassify(op);
  node->fuseClass = node->cls.name;
  node->kernel = node->nextInKernel = node->group = node->nextInGroup = -1;
  node->block = block;
  node->scope = scope;
  return true;
}

int latGraphAddScope(LatGraph *g, LatScope scope) {
  LatScope *scopes = realloc(g->scopes, (g->numScopes + 1) * sizeof *scopes);
  if (!scopes)
    return -1;
  g->scopes = scopes;
  g->scopes[g->numScopes] = scope;
  return (int)g->numScopes++;
}

/* Indexes the nodes by op (open addressing, at most half full). */
static bool indexNodes(LatGraph *g) {
  g->numSlots = 16;
  while (g->numSlots < 2 * g->numNodes)
    g->numSlots *= 2;
  g->slotKeys = calloc(g->numSlots, sizeof *g->slotKeys);
  g->slotValues = calloc(g->numSlots, sizeof *g->slotValues);
  if (!g->slotKeys || !g->slotValues)
    return false;
  for (size_t i = 0; i < g->numNodes; i++) {
    size_t s = slotOf(g, g->nodes[i].op.ptr);
    while (g->slotKeys[s])
      s = (s + 1) & (g->numSlots - 1);
    g->slotKeys[s] = g->nodes[i].op.ptr;
    g->slotValues[s] = (int)i;
  }
  return true;
}

bool latGraphBuild(MlirRegion body, const LatInputs *inputs, bool quiet,
                   LatGraph *g) {
  memset(g, 0, sizeof *g);
  g->quiet = quiet;
  g->entry = mlirRegionGetFirstBlock(body);
  if (inputs)
    g->inputs = *inputs;
  LatScope function = {{NULL}, -1, 1, -1, true, 1};
  if (latGraphAddScope(g, function) < 0 || !latGraphCollect(g, body) ||
      /* +2: the fusion analysis imagines up to two kernels past the end */
      !(g->kernels = calloc(g->numNodes + 3, sizeof *g->kernels)) ||
      !indexNodes(g)) {
    latGraphFree(g);
    return false;
  }
  markArgumentViews(g);
  skipConstantFolded(g);
  return true;
}

/* Data movement exporters put in front of compute ops: transposes, copies,
 * broadcasts, pads, slices, concats (views always count). */
bool latNodeIsDataMovement(const LatNode *n) {
  static const LatClassId classes[] = {LAT_CLASS_TRANSPOSE, LAT_CLASS_COPY,
                                       LAT_CLASS_RESHAPE,   LAT_CLASS_BROADCAST,
                                       LAT_CLASS_PAD,       LAT_CLASS_SLICE,
                                       LAT_CLASS_CONCAT};
  if (n->cls.role == LAT_ROLE_VIEW)
    return true;
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (n->cls.id == classes[i])
      return true;
  return false;
}

bool latNodeIsComputeAnchor(const LatNode *n) {
  if (n->group >= 0)
    return n->groupClass == LAT_CLASS_ATTENTION;
  return n->cls.role == LAT_ROLE_COSTED && n->cls.flopsPerElement == 0 &&
         !latNodeIsDataMovement(n);
}
