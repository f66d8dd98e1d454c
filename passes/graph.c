/*===- graph.c - one function's ops and their fusion kernels ---------------===*
 *
 * Detection is one pass in program order: every producer is seen before its
 * consumers, so a consumer only ever joins a kernel that already exists.
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

static bool isComputeAnchor(const LatNode *n);

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
    bool reshape = !strcmp(n->cls.name, "reshape");
    if (n->cls.role != LAT_ROLE_COSTED ||
        (strcmp(n->cls.name, "slice") && !reshape))
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
    if (n->cls.role == LAT_ROLE_SKIP && !strcmp(n->cls.name, "const")) {
      n->constant = true;
      continue;
    }
    intptr_t numOperands = mlirOperationGetNumOperands(n->op);
    bool constant = n->cls.role != LAT_ROLE_UNKNOWN && numOperands > 0 &&
                    !isComputeAnchor(n) && strcmp(n->cls.name, "control");
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

static void addToKernel(LatGraph *g, int node, int kernel) {
  LatKernel *k = &g->kernels[kernel];
  g->nodes[node].kernel = kernel;
  g->nodes[k->last].nextInKernel = node;
  k->last = node;
  k->numOps++;
}

static int newKernel(LatGraph *g, int node) {
  int kernel = (int)g->numKernels++;
  LatKernel *k = &g->kernels[kernel];
  k->root = k->last = node;
  k->numOps = 1;
  g->nodes[node].kernel = kernel;
  return kernel;
}

/* Classes that move data without changing it: folded into a producer's
 * kernel they are transparent to the next rule check. */
static bool isLayoutClass(const char *cls) {
  return !strcmp(cls, "transpose") || !strcmp(cls, "copy") ||
         !strcmp(cls, "reshape");
}

/* Data movement exporters put in front of compute ops: transposes, copies,
 * broadcasts, pads, slices, concats (views always count). */
static bool isDataMovement(const LatNode *n) {
  static const char *const classes[] = {
      "transpose", "copy", "reshape", "broadcast", "pad", "slice", "concat"};
  if (n->cls.role == LAT_ROLE_VIEW)
    return true;
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (!strcmp(n->cls.name, classes[i]))
      return true;
  return false;
}

/* A kernel of nothing but data movement or, with `casts`, also element type
 * conversions (mixed-precision GEMMs and convs read the narrow type). */
static bool isPrologueOnly(const LatGraph *g, const LatKernel *k, bool casts) {
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    if (n->group >= 0 ||
        !(isDataMovement(n) || (casts && !strcmp(n->cls.name, "cast"))))
      return false;
  }
  return true;
}

/* Convs, matmuls, pools, attention and the like: ops with work of their own
 * beyond per-element arithmetic. Element type conversions in front of them
 * fold in as prologues; in front of elementwise ops they fuse as usual and
 * keep their name (cast+sub+mul). */
static bool isComputeAnchor(const LatNode *n) {
  if (n->group >= 0)
    return strstr(n->groupClass, "attention") != NULL;
  return n->cls.role == LAT_ROLE_COSTED && n->cls.flopsPerElement == 0 &&
         !isDataMovement(n);
}

/* True when `user` is the consumer node (*context) or in its group. */
static bool isConsumerOrGroup(const LatGraph *g, int user, void *context) {
  int node = *(const int *)context, group = g->nodes[node].group;
  return user == node ||
         (group >= 0 && user >= 0 && g->nodes[user].group == group);
}

/* True when node p's only users are `node` or, for a group, its members. */
static bool onlyFeeds(const LatGraph *g, int p, int node) {
  return latGraphAllUsers(g, p, isConsumerOrGroup, &node);
}

/* The node whose kernel `node` may join through one of its operands, or -1.
 * For a group head, the operands of every member from outside the group. */
static int fusableProducer(LatGraph *g, int node,
                           bool (*rules)(void *, const char *, const char *),
                           void *ctx) {
  LatNode *n = &g->nodes[node];
  const char *cls = n->group >= 0 ? n->groupClass : n->cls.name;
  for (int m = node; m >= 0; m = g->nodes[m].nextInGroup) {
    LatNode *member = &g->nodes[m];
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(member->op); i++) {
      int p = latGraphProducerOf(g, m, i);
      if (p < 0 || g->nodes[p].kernel < 0 ||
          (n->group >= 0 && g->nodes[p].group == n->group) ||
          !onlyFeeds(g, p, m))
        continue;
      /* an op never joins a kernel of data movement (nor a compute op one
       * of casts): those fold into it afterwards (foldLayoutPrologues),
       * keeping it the root */
      const LatKernel *pk = &g->kernels[g->nodes[p].kernel];
      if (!isLayoutClass(cls) && n->cls.role != LAT_ROLE_VIEW &&
          isPrologueOnly(g, pk, isComputeAnchor(n)))
        continue;
      if ((n->cls.role == LAT_ROLE_VIEW && n->group < 0) ||
          rules(ctx, g->nodes[p].fuseClass, cls))
        return p;
    }
  }
  return -1;
}

/* Puts every member of node's group after it into `kernel`. */
static void addGroupMembers(LatGraph *g, int node, int kernel) {
  for (int m = g->nodes[node].nextInGroup; m >= 0; m = g->nodes[m].nextInGroup)
    addToKernel(g, m, kernel);
}

/* The one node outside kernel `kernel` that uses its results: -1 while none
 * is seen; false (stop) at a second one or an op outside the graph. */
typedef struct {
  int kernel;
  int consumer;
} SoleConsumer;

static bool isSoleConsumer(const LatGraph *g, int user, void *context) {
  SoleConsumer *c = context;
  if (user >= 0 && g->nodes[user].kernel == c->kernel)
    return true;
  if (user < 0 || (c->consumer >= 0 && c->consumer != user))
    return false;
  c->consumer = user;
  return true;
}

static int soleConsumer(const LatGraph *g, int kernel) {
  SoleConsumer c = {kernel, -1};
  for (int i = g->kernels[kernel].root; i >= 0; i = g->nodes[i].nextInKernel)
    if (!latGraphAllUsers(g, i, isSoleConsumer, &c))
      return -1;
  return c.consumer;
}

/* The class a rule sees for node n as a consumer: its pattern's, or for a
 * folded layout op the class of its kernel's root. */
const char *latGraphConsumerClass(const LatGraph *g, int n) {
  const LatNode *node = &g->nodes[n];
  if (node->transparent)
    node = &g->nodes[g->kernels[node->kernel].root];
  return node->group >= 0 ? node->groupClass : node->cls.name;
}

/* Drops the kernels left empty and renumbers the rest, in order. */
void latGraphCompactKernels(LatGraph *g) {
  size_t kept = 0;
  for (size_t k = 0; k < g->numKernels; k++) {
    if (!g->kernels[k].numOps)
      continue;
    g->kernels[kept] = g->kernels[k];
    for (int i = g->kernels[kept].root; i >= 0; i = g->nodes[i].nextInKernel)
      g->nodes[i].kernel = (int)kept;
    kept++;
  }
  g->numKernels = kept;
}

/* Exporters put data movement in front of compute ops: NCHW -> NHWC
 * transposes of activations around TOSA convs, transposed or broadcast
 * weights before matmuls, explicit pads before convs, bias broadcasts into
 * a conv's or matmul's accumulator. A kernel of nothing but such ops
 * whose results one node alone uses joins
 * that node's kernel when the rule (its class, the consumer's class) exists
 * -- nn-Meter's rule, with the layout op as the producer -- and its ops
 * become transparent: the kernel keeps the consumer's root, name and
 * estimate. Last kernel first, so chains of such kernels fold in turn.
 * Constant work the profile's compiler runs on every call (a transposed
 * constant weight) is not an exporter's wrapping that compilers absorb:
 * it stays a kernel of its own, costed by its own tables. */
static void foldLayoutPrologues(
    LatGraph *g, bool (*rules)(void *, const char *, const char *), void *ctx) {
  for (size_t k = g->numKernels; k-- > 0;) {
    LatKernel *layout = &g->kernels[k];
    if (!isPrologueOnly(g, layout, true) ||
        (g->inputs.constantWorkRuns && g->nodes[layout->root].constant))
      continue;
    int consumer = soleConsumer(g, (int)k);
    if (consumer < 0 || g->nodes[consumer].kernel < 0 ||
        !rules(ctx, g->nodes[layout->root].cls.name,
               latGraphConsumerClass(g, consumer)))
      continue;
    int target = g->nodes[consumer].kernel;
    for (int i = layout->root, next; i >= 0; i = next) {
      next = g->nodes[i].nextInKernel;
      g->nodes[i].nextInKernel = -1;
      g->nodes[i].transparent = true;
      addToKernel(g, i, target);
    }
    layout->numOps = 0;
    layout->root = layout->last = -1;
  }
  latGraphCompactKernels(g);
}

bool latGraphDetect(LatGraph *g, bool fusion,
                    bool (*rules)(void *, const char *, const char *),
                    void *ctx) {
  for (size_t i = 0; i < g->numNodes; i++) {
    LatNode *n = &g->nodes[i];
    if (n->cls.role == LAT_ROLE_SKIP || n->kernel >= 0)
      continue; /* group members after the head are already placed */
    int p = fusion ? fusableProducer(g, (int)i, rules, ctx) : -1;
    if (p >= 0) {
      addToKernel(g, (int)i, g->nodes[p].kernel);
      if (n->group < 0 &&
          (n->cls.role == LAT_ROLE_VIEW || isLayoutClass(n->cls.name))) {
        n->transparent = true;
        n->fuseClass = g->nodes[p].fuseClass;
      }
    } else if (n->cls.role != LAT_ROLE_VIEW || n->group >= 0) {
      newKernel(g, (int)i);
    }
    if (n->group >= 0)
      addGroupMembers(g, (int)i, n->kernel);
  }
  if (fusion)
    foldLayoutPrologues(g, rules, ctx);
  return true;
}
