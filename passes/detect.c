/*===- detect.c - group costed ops into fusion kernels ---------------------===*
 *
 * Detection is one pass in program order: every producer is seen before its
 * consumers, so a consumer only ever joins a kernel that already exists. An
 * op joins its producer's kernel when the rule (producer class, consumer
 * class) exists and the producer has no other user; views and folded
 * transposes are transparent (docs/passes.md).
 *
 *===----------------------------------------------------------------------===*/
#include "detect.h"

#include "ir_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
static bool isLayoutClass(LatClassId cls) {
  return cls == LAT_CLASS_TRANSPOSE || cls == LAT_CLASS_COPY ||
         cls == LAT_CLASS_RESHAPE;
}

/* A kernel of nothing but data movement or, with `casts`, also element type
 * conversions (mixed-precision GEMMs and convs read the narrow type). */
static bool isPrologueOnly(const LatGraph *g, const LatKernel *k, bool casts) {
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    if (n->group >= 0 ||
        !(latNodeIsDataMovement(n) || (casts && n->cls.id == LAT_CLASS_CAST)))
      return false;
  }
  return true;
}

/* True when kernel `k` has a compute anchor (a conv, a matmul or matvec, a
 * pool, a gather, an attention group: latNodeIsComputeAnchor) among its own
 * ops. */
static bool hasComputeAnchor(const LatGraph *g, const LatKernel *k) {
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel)
    if (!g->nodes[i].transparent && latNodeIsComputeAnchor(&g->nodes[i]))
      return true;
  return false;
}

/* Convs, matmuls, pools, attention and the like: ops with work of their own
 * beyond per-element arithmetic. Element type conversions in front of them
 * fold in as prologues; in front of elementwise ops they fuse as usual and
 * keep their name (cast+sub+mul). */
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
  LatClassId id = n->group >= 0 ? n->groupClass : n->cls.id;
  const char *cls = latClassName(id);
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
      if (!isLayoutClass(id) && n->cls.role != LAT_ROLE_VIEW &&
          isPrologueOnly(g, pk, latNodeIsComputeAnchor(n)))
        continue;
      /* nor a compute op one that has its own: a rule such as (cast,
       * conv2d) is for a prologue, and through a conv's epilogue it chained
       * an int8 network's convs, each rescale in between, into one kernel */
      if (latNodeIsComputeAnchor(n) && hasComputeAnchor(g, pk))
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
  return node->group >= 0 ? latClassName(node->groupClass) : node->cls.name;
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
          (n->cls.role == LAT_ROLE_VIEW || isLayoutClass(n->cls.id))) {
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
