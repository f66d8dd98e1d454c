/*===- edge_cutout.c - the two sides of a fusion edge, and both as one ----===*
 *
 * Invariant: every function here saves the node labels (kernel, next in
 * kernel, transparent) and the kernel records it changes, relabels, writes
 * the cut-outs, and restores what it saved, whatever happened in between.
 *
 *===----------------------------------------------------------------------===*/
#include "edge_cutout.h"

#include "cutout.h"
#include "describe.h"
#include "detect.h"
#include "estimate.h"
#include "fusion.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What relabelling a graph may change. */
typedef struct {
  LatNode *nodes;     /* copies of every node            */
  LatKernel *kernels; /* copies of the kernels, and two past the end */
  size_t numKernels;
} Saved;

static bool save(const LatGraph *g, Saved *s) {
  s->numKernels = g->numKernels + 2; /* the array holds numNodes + 3 */
  s->nodes = malloc((g->numNodes + 1) * sizeof *s->nodes);
  s->kernels = malloc(s->numKernels * sizeof *s->kernels);
  if (!s->nodes || !s->kernels) {
    free(s->nodes);
    free(s->kernels);
    return false;
  }
  memcpy(s->nodes, g->nodes, g->numNodes * sizeof *s->nodes);
  memcpy(s->kernels, g->kernels, s->numKernels * sizeof *s->kernels);
  return true;
}

static void restore(LatGraph *g, Saved *s) {
  memcpy(g->nodes, s->nodes, g->numNodes * sizeof *s->nodes);
  memcpy(g->kernels, s->kernels, s->numKernels * sizeof *s->kernels);
  free(s->nodes);
  free(s->kernels);
}

bool lpCutoutMerged(LpHost *host, LatGraph *g, int producer, int consumer,
                    const char *path, char *err, size_t size) {
  Saved s;
  int *scratch = malloc((g->numNodes + 1) * sizeof *scratch);
  if (!scratch || !save(g, &s)) {
    free(scratch);
    snprintf(err, size, "out of memory");
    return false;
  }
  latFusionJoinKernels(g, producer, consumer, scratch);
  bool ok = lpCutoutWrite(host, g, producer, path, err, size);
  restore(g, &s);
  free(scratch);
  return ok;
}

const char *lpCutClass(const LatGraph *g, int n) {
  const LatNode *node = &g->nodes[n];
  if (node->transparent || (node->group >= 0 && !node->groupHead))
    return NULL;
  return node->group >= 0 ? latClassName(node->groupClass) : node->cls.name;
}

/* Moves the members of kernel `k` from `cutNode` on that are not folded-in
 * data movement into kernel `t` (past the end of the array). */
static void relabelSideB(LatGraph *g, int k, int cutNode, int t) {
  bool after = false;
  int last = -1;
  LatKernel *side = &g->kernels[t];
  memset(side, 0, sizeof *side);
  side->root = -1;
  for (int i = g->kernels[k].root; i >= 0; i = g->nodes[i].nextInKernel) {
    after |= i == cutNode;
    if (!after || g->nodes[i].transparent)
      continue;
    g->nodes[i].kernel = t;
    if (side->root < 0)
      side->root = i;
    last = i;
    side->numOps++;
  }
  side->last = last;
}

bool lpCutoutSplit(LpHost *host, LatGraph *g, int k, int cutNode,
                   const char *pathA, const char *pathB, char *err,
                   size_t size) {
  Saved s;
  if (!save(g, &s)) {
    snprintf(err, size, "out of memory");
    return false;
  }
  int t = (int)g->numKernels;
  relabelSideB(g, k, cutNode, t);
  bool ok = g->kernels[t].root >= 0 && g->kernels[k].root != cutNode;
  if (!ok)
    snprintf(err, size, "no ops on one side of the cut");
  /* lpCutoutWrite takes the location from the root: side A keeps it */
  ok = ok && lpCutoutWrite(host, g, k, pathA, err, size) &&
       lpCutoutWrite(host, g, t, pathB, err, size);
  restore(g, &s);
  return ok;
}
