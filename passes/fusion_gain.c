/*===- fusion_gain.c - what each fusion gains, and a greedy partition ------===*
 *
 * A fusion heuristic or an autotuner asks of the cost model what XLA's
 * priority fusion asks of its performance model: how long would these two
 * kernels take fused, against apart? Every answer here comes from kernels
 * the graph does not hold: the members of one or two kernels linked into a
 * temporary kernel past the end of the kernel array, described and
 * estimated silently, then unlinked, leaving the graph as it was.
 *
 * Edges (LatFusionEdge): inside a fused kernel, each cut between two of its
 * units (an op, or a pattern such as GELU, in program order) is an edge
 * "fused": unfused = the two sides as kernels of their own. Between two
 * kernels, producer -> consumer, an edge exists when a rule allows it but
 * the producer has a second user, or when no rule exists but both kernels
 * are fusible (estimated, not calls, not both rooted at a conv, matmul,
 * attention or pool): fused = the two merged. gain = unfused - fused.
 *
 *===----------------------------------------------------------------------===*/
#include "describe.h"
#include "detect.h"
#include "estimate.h"
#include "fusion.h"
#include "graph.h"

#include "ir_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Nodes of kernel `k` in chain order into `out`; returns how many. */
static int chainOf(const LatGraph *g, int k, int *out) {
  int n = 0;
  for (int i = g->kernels[k].root; i >= 0; i = g->nodes[i].nextInKernel)
    out[n++] = i;
  return n;
}

/* Saved links of the nodes a temporary kernel borrows. */
typedef struct {
  int kernel, next;
} Link;

/* Estimates the kernel made of `nodes` (root first, in that order) as
 * kernel index `t` (past the end); -1 when the cost model cannot answer.
 * The nodes' links are restored before it returns. */
static double estimateNodes(const LatFusionContext *c, LatGraph *g,
                            const int *nodes, int n, int t) {
  Link *saved = malloc((size_t)n * sizeof *saved);
  if (!saved || n == 0) {
    free(saved);
    return -1;
  }
  for (int i = 0; i < n; i++) {
    LatNode *node = &g->nodes[nodes[i]];
    saved[i] = (Link){node->kernel, node->nextInKernel};
    node->kernel = t;
    node->nextInKernel = i + 1 < n ? nodes[i + 1] : -1;
  }
  LatKernel *k = &g->kernels[t];
  memset(k, 0, sizeof *k);
  k->root = nodes[0];
  k->last = nodes[n - 1];
  k->numOps = n;
  k->count = 1;
  latKernelDescribe(g, t, false);
  double us = latKernelEstimate(c->profile, c->options, k) ? k->us : -1;
  for (int i = 0; i < n; i++) {
    g->nodes[nodes[i]].kernel = saved[i].kernel;
    g->nodes[nodes[i]].nextInKernel = saved[i].next;
  }
  free(saved);
  return us;
}

/* Convs, matmuls, attention, pools: a merged kernel keeps one of these as
 * its root, so it is named and answered as what it mostly is. */
static bool rootIsAnchor(const LatGraph *g, int k) {
  const LatNode *n = &g->nodes[g->kernels[k].root];
  if (n->group >= 0)
    return n->groupClass == LAT_CLASS_ATTENTION;
  LatClassId cls = n->cls.id;
  return latClassIsConv(cls) || cls == LAT_CLASS_MATMUL ||
         cls == LAT_CLASS_POOL || cls == LAT_CLASS_MATVEC;
}

/* The node producing operand `o` of node `n`, looking through views that
 * are in no kernel (with fusion off, a reshape between a transpose and a
 * matmul); `views` (when not NULL) receives those views, `*numViews` how
 * many (at most 16). -1 for a block argument or another block. */
static int producerBehindViews(const LatGraph *g, int n, intptr_t o, int *views,
                               int *numViews) {
  int p = latGraphProducerOf(g, n, o), steps = 0;
  while (p >= 0 && g->nodes[p].kernel < 0 &&
         g->nodes[p].cls.role == LAT_ROLE_VIEW && steps++ < 16) {
    if (views)
      views[(*numViews)++] = p;
    p = latGraphProducerOf(g, p, 0);
  }
  return p;
}

int latFusionProducerKernel(const LatGraph *g, int n, intptr_t o) {
  int p = producerBehindViews(g, n, o, NULL, NULL);
  return p >= 0 ? g->nodes[p].kernel : -1;
}

/* Appends to `out` (holding `n` nodes) the views in no kernel between a
 * member of kernel `c` and its producer in kernel `p`; returns the new
 * count. They join the merged kernel, transparent, as views do. */
static int viewsBetween(LatGraph *g, int p, int c, int *out, int n) {
  int views[16];
  for (int m = g->kernels[c].root; m >= 0; m = g->nodes[m].nextInKernel)
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(g->nodes[m].op); o++) {
      int numViews = 0;
      int q = producerBehindViews(g, m, o, views, &numViews);
      if (q < 0 || g->nodes[q].kernel != p)
        continue;
      for (int v = 0; v < numViews; v++) {
        bool seen = false;
        for (int i = 0; i < n && !seen; i++)
          seen = out[i] == views[v];
        if (!seen) {
          g->nodes[views[v]].transparent = true;
          out[n++] = views[v];
        }
      }
    }
  return n;
}

/* Members of kernels `p` and `c` merged, the anchor's chain first, then
 * the views between them; returns how many. */
static int mergedNodes(LatGraph *g, int p, int c, int *out) {
  bool consumerFirst = rootIsAnchor(g, c) && !rootIsAnchor(g, p);
  int n = chainOf(g, consumerFirst ? c : p, out);
  n += chainOf(g, consumerFirst ? p : c, out + n);
  return viewsBetween(g, p, c, out, n);
}

double latFusionMergedUs(const LatFusionContext *c, LatGraph *g, int p, int k) {
  int *nodes = malloc((g->numNodes + 1) * sizeof *nodes);
  if (!nodes)
    return -1;
  int n = mergedNodes(g, p, k, nodes);
  double us = estimateNodes(c, g, nodes, n, (int)g->numKernels);
  free(nodes);
  return us;
}

/* Appends an edge; false when out of memory. */
static bool addEdge(LatGraph *g, LatFusionEdge edge) {
  LatFusionEdge *edges =
      realloc(g->edges, (g->numEdges + 1) * sizeof *g->edges);
  if (!edges)
    return false;
  g->edges = edges;
  g->edges[g->numEdges++] = edge;
  return true;
}

/* True when node `n` starts a unit of its kernel: not folded-in data
 * movement, and not a pattern member after its head. */
static bool startsUnit(const LatNode *n) {
  return !n->transparent && (n->group < 0 || n->groupHead);
}

/* The cuts inside fused kernel `k`: before each unit but the first, the
 * kernel split into the units before it (with the folded-in data
 * movement) and the units from it on. */
static bool fusedEdges(const LatFusionContext *c, LatGraph *g, int k,
                       int *nodes) {
  int n = chainOf(g, k, nodes);
  int *sides = nodes + n; /* A at [n, 2n), B at [2n, 3n) */
  for (int cut = 1; cut < n; cut++) {
    const LatNode *at = &g->nodes[nodes[cut]];
    if (!startsUnit(at))
      continue;
    int a = 0, b = 0;
    for (int i = 0; i < n; i++)
      if (i < cut || g->nodes[nodes[i]].transparent)
        sides[a++] = nodes[i];
    for (int i = cut; i < n; i++)
      if (!g->nodes[nodes[i]].transparent)
        sides[n + b++] = nodes[i];
    int t = (int)g->numKernels;
    double usA = estimateNodes(c, g, sides, a, t);
    double usB = estimateNodes(c, g, sides + n, b, t + 1);
    if (usA < 0 || usB < 0)
      continue;
    LatFusionEdge e = {k, k, g->kernels[k].us, usA + usB, 0, "fused", ""};
    e.gainUs = e.unfusedUs - e.fusedUs;
    strncpy(e.at, at->group >= 0 ? latClassName(at->groupClass) : at->cls.name,
            sizeof e.at - 1);
    if (!addEdge(g, e))
      return false;
  }
  return true;
}

/* A kernel the fusion analysis may merge: estimated, not a call. */
static bool fusible(const LatGraph *g, int k) {
  const LatKernel *kk = &g->kernels[k];
  return !kk->isCall && kk->source != CM_SOURCE_UNKNOWN;
}

/* True when every user of node `p` is in kernel `k`. */
static bool feedsOnly(const LatGraph *g, int user, void *context) {
  return user >= 0 && g->nodes[user].kernel == *(const int *)context;
}

/* Why producer node `p` (another kernel's) and consumer node `n` of
 * kernel `k` are not one kernel, or NULL when no fusion could merge them. */
static const char *edgeReason(const LatFusionContext *c, const LatGraph *g,
                              int p, int n, int k) {
  int pk = g->nodes[p].kernel;
  /* two GEMMs, convs or attentions in one kernel is no fusion these rules
   * make (and the table of one of them would answer for both) */
  if (!latFusionCanMerge(g, pk, k))
    return NULL;
  if (c->rules(c->rulesContext, g->nodes[p].fuseClass,
               latGraphConsumerClass(g, n)))
    return latGraphAllUsers(g, p, feedsOnly, &k) ? "rule" : "second user";
  return "no rule";
}

/* The two kernels of producer node `p` and consumer node `n` fused, when
 * the profile measured that class pair (fusion.csv learned on a host):
 * `unfused` scaled by the measured fused / apart ratio; -1 otherwise. A
 * measured ratio knows what the device's compiler does with the pair (a
 * pipeline that does not fuse runs the two apart even in one kernel, and
 * pays for the buffer between them), which the merged kernel's estimate
 * (its anchor's table, or a roofline without the intermediate's bytes)
 * does not. */
static double measuredFusedUs(const LatFusionContext *c, const LatGraph *g,
                              int p, int n, double unfused) {
  double ratio = cmProfileGetFusionRatio(c->profile, g->nodes[p].fuseClass,
                                         latGraphConsumerClass(g, n));
  return isnan(ratio) ? -1 : unfused * ratio;
}

/* The producer -> consumer edges into kernel `k` from other kernels, one
 * per producer kernel. */
static bool crossEdges(const LatFusionContext *c, LatGraph *g, int k) {
  size_t first = g->numEdges;
  for (int n = g->kernels[k].root; n >= 0; n = g->nodes[n].nextInKernel)
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(g->nodes[n].op); o++) {
      int p = producerBehindViews(g, n, o, NULL, NULL);
      int pk = p >= 0 ? g->nodes[p].kernel : -1;
      bool seen = pk < 0 || pk == k;
      for (size_t e = first; e < g->numEdges && !seen; e++)
        seen = g->edges[e].producer == pk;
      const char *why = seen ? NULL : edgeReason(c, g, p, n, k);
      if (!why)
        continue;
      double unfused = g->kernels[pk].us + g->kernels[k].us;
      double fused = measuredFusedUs(c, g, p, n, unfused);
      if (fused < 0)
        fused = latFusionMergedUs(c, g, pk, k);
      if (fused < 0)
        continue;
      LatFusionEdge e = {k, pk, fused, unfused, 0, why, ""};
      e.gainUs = e.unfusedUs - e.fusedUs;
      if (!addEdge(g, e))
        return false;
    }
  return true;
}

bool latFusionCanMerge(const LatGraph *g, int p, int k) {
  return fusible(g, p) && fusible(g, k) &&
         !(rootIsAnchor(g, p) && rootIsAnchor(g, k));
}

void latFusionJoinKernels(LatGraph *g, int keep, int absorb, int *nodes) {
  int n = mergedNodes(g, keep, absorb, nodes);
  for (int i = 0; i < n; i++) {
    g->nodes[nodes[i]].kernel = keep;
    g->nodes[nodes[i]].nextInKernel = i + 1 < n ? nodes[i + 1] : -1;
  }
  LatKernel *k = &g->kernels[keep];
  k->root = nodes[0];
  k->last = nodes[n - 1];
  k->numOps = n;
  g->kernels[absorb].numOps = 0;
  g->kernels[absorb].root = g->kernels[absorb].last = -1;
}

bool latFusionAnalyze(const LatFusionContext *c, LatGraph *g) {
  /* a kernel's chain, then the two sides of a cut: 3 x its length */
  int *nodes = malloc((3 * g->numNodes + 3) * sizeof *nodes);
  bool ok = nodes != NULL;
  for (size_t k = 0; ok && k < g->numKernels; k++) {
    if (!fusible(g, (int)k))
      continue;
    ok = (g->kernels[k].numOps < 2 || fusedEdges(c, g, (int)k, nodes)) &&
         crossEdges(c, g, (int)k);
  }
  free(nodes);
  return ok;
}
