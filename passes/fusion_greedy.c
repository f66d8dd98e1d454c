/*===- fusion_greedy.c - a cost-driven partition (fusion=greedy) ----------===*
 *
 * Priority fusion, as XLA's GPU compiler does it with its performance
 * model: start from single-op kernels and merge producer into consumer in
 * order of estimated gain (fusion_gain.c prices each merge), while the
 * merge pays and is legal. Every merge lowers the predicted total, so the
 * greedy partition never predicts more than fusion=false. A merged pair's
 * gain is recomputed; every other pair's stays (their kernels did not
 * change).
 *
 *===----------------------------------------------------------------------===*/
#include "describe.h"
#include "estimate.h"
#include "fusion.h"
#include "graph.h"

#include "detect.h"
#include "ir_util.h"

#include <stdlib.h>
#include <string.h>

/* A candidate merge of the greedy partition. */
typedef struct {
  int producer, consumer; /* kernel ids              */
  double gainUs;          /* estimated, when `fresh` */
  bool fresh;             /* gain computed for the current kernels */
} Candidate;

typedef struct {
  Candidate *items;
  size_t count, capacity;
} Candidates;

static bool addCandidate(Candidates *cs, int p, int k) {
  for (size_t i = 0; i < cs->count; i++)
    if (cs->items[i].producer == p && cs->items[i].consumer == k)
      return true;
  if (cs->count == cs->capacity) {
    size_t capacity = cs->capacity ? 2 * cs->capacity : 64;
    Candidate *items = realloc(cs->items, capacity * sizeof *items);
    if (!items)
      return false;
    cs->items = items;
    cs->capacity = capacity;
  }
  cs->items[cs->count++] = (Candidate){p, k, 0, false};
  return true;
}

/* Every producer -> consumer pair of distinct kernels in one block that
 * could merge (fusible, not two anchors). */
static bool collectCandidates(const LatGraph *g, Candidates *cs) {
  for (size_t n = 0; n < g->numNodes; n++) {
    int k = g->nodes[n].kernel;
    for (intptr_t o = 0;
         k >= 0 && o < mlirOperationGetNumOperands(g->nodes[n].op); o++) {
      int pk = latFusionProducerKernel(g, (int)n, o);
      if (pk < 0 || pk == k || !latFusionCanMerge(g, pk, k))
        continue;
      if (!addCandidate(cs, pk, k))
        return false;
    }
  }
  return true;
}

/* True when kernel `to` is reachable from kernel `from` through at least
 * one other kernel: merging the two would then make a cycle. */
static bool reachesIndirectly(const LatGraph *g, int from, int to,
                              unsigned char *seen, int *stack) {
  memset(seen, 0, g->numKernels);
  int top = 0;
  stack[top++] = from;
  seen[from] = 1;
  while (top > 0) {
    int k = stack[--top];
    for (int n = g->kernels[k].root; n >= 0; n = g->nodes[n].nextInKernel) {
      MlirOperation op = g->nodes[n].op;
      for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
        for (MlirOpOperand u = latFirstUse(latResult(op, r));
             !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
          int user = latGraphFind(g, mlirOpOperandGetOwner(u));
          int uk = user >= 0 ? g->nodes[user].kernel : -1;
          if (uk < 0 || seen[uk] || (k == from && uk == to))
            continue;
          if (uk == to)
            return true;
          seen[uk] = 1;
          stack[top++] = uk;
        }
    }
  }
  return false;
}

/* After `absorb` joined `keep`: candidates name `keep` instead, those
 * between the two go, and those touching `keep` need a new gain. */
static void renameCandidates(Candidates *cs, int keep, int absorb) {
  size_t kept = 0;
  for (size_t i = 0; i < cs->count; i++) {
    Candidate c = cs->items[i];
    c.producer = c.producer == absorb ? keep : c.producer;
    c.consumer = c.consumer == absorb ? keep : c.consumer;
    if (c.producer == c.consumer)
      continue;
    bool dup = false;
    for (size_t j = 0; j < kept && !dup; j++)
      dup = cs->items[j].producer == c.producer &&
            cs->items[j].consumer == c.consumer;
    if (dup)
      continue;
    c.fresh = c.fresh && c.producer != keep && c.consumer != keep;
    cs->items[kept++] = c;
  }
  cs->count = kept;
}

/* The fresh candidate with the largest positive gain, computing the gains
 * that are stale; -1 when no merge pays. */
static long bestCandidate(const LatFusionContext *c, LatGraph *g,
                          Candidates *cs) {
  long best = -1;
  for (size_t i = 0; i < cs->count; i++) {
    Candidate *cand = &cs->items[i];
    if (!cand->fresh) { /* a merge may have made both sides anchors */
      double fused =
          latFusionCanMerge(g, cand->producer, cand->consumer)
              ? latFusionMergedUs(c, g, cand->producer, cand->consumer)
              : -1;
      cand->gainUs = fused < 0 ? -1
                               : g->kernels[cand->producer].us +
                                     g->kernels[cand->consumer].us - fused;
      cand->fresh = true;
    }
    if (cand->gainUs > 1e-9 &&
        (best < 0 || cand->gainUs > cs->items[best].gainUs))
      best = (long)i;
  }
  return best;
}

bool latFusionGreedy(const LatFusionContext *c, LatGraph *g) {
  Candidates cs = {NULL, 0, 0};
  int *nodes = malloc((g->numNodes + 1) * sizeof *nodes);
  int *stack = malloc((g->numKernels + 1) * sizeof *stack);
  unsigned char *seen = malloc(g->numKernels + 1);
  bool ok = nodes && stack && seen && collectCandidates(g, &cs);
  for (long b; ok && (b = bestCandidate(c, g, &cs)) >= 0;) {
    Candidate cand = cs.items[b];
    if (reachesIndirectly(g, cand.producer, cand.consumer, seen, stack)) {
      cs.items[b] = cs.items[--cs.count]; /* would make a cycle: never */
      continue;
    }
    int keep = cand.producer, absorb = cand.consumer;

    latFusionJoinKernels(g, keep, absorb, nodes);
    latKernelDescribe(g, keep, false);
    latKernelEstimate(c->profile, c->options, &g->kernels[keep]);
    renameCandidates(&cs, keep, absorb);
  }
  free(cs.items);
  free(nodes);
  free(stack);
  free(seen);
  if (ok)
    latGraphCompactKernels(g);
  return ok;
}

/* Estimates every kernel of `g` silently; its total over one call, loop
 * trips and counted branches included. */
static double estimateAll(const LatFusionContext *c, LatGraph *g) {
  for (size_t k = 0; k < g->numKernels; k++)
    latKernelEstimate(c->profile, c->options, &g->kernels[k]);
  latGraphResolveCounts(g);
  double total = 0;
  for (size_t k = 0; k < g->numKernels; k++)
    total += g->kernels[k].us * g->kernels[k].count;
  return total;
}

/* The total of `body` partitioned by the profile's rules, built silently
 * beside `g` (whose inputs, precision and warm heap it shares); -1 when out of
 * memory. */
static double rulesTotal(const LatFusionContext *c, const LatGraph *g,
                         MlirRegion body, size_t *kernels) {
  LatGraph rules;
  if (!latGraphBuild(body, &g->inputs, true, &rules))
    return -1;
  rules.precision = g->precision;
  rules.precisionBytes = g->precisionBytes;
  rules.warmHeapBytes = g->warmHeapBytes;
  latGraphMatchPatterns(&rules, true);
  latGraphDetect(&rules, true, c->rules, c->rulesContext);
  for (size_t k = 0; k < rules.numKernels; k++)
    latKernelDescribe(&rules, (int)k, false);
  double total = estimateAll(c, &rules);
  *kernels = rules.numKernels;
  latGraphFree(&rules);
  return total;
}

bool latGreedyPartition(const LatFusionContext *c, LatGraph *g, MlirRegion body,
                        LatPartitionComparison *out) {
  estimateAll(c, g);
  out->singleOpUs = 0;
  for (size_t k = 0; k < g->numKernels; k++)
    out->singleOpUs += g->kernels[k].us * g->kernels[k].count;
  out->singleOpKernels = g->numKernels;
  if (!latFusionGreedy(c, g))
    return false;
  for (size_t k = 0; k < g->numKernels; k++) { /* compaction moved them */
    latKernelDescribe(g, (int)k, false);
    latLocationText(g->nodes[g->kernels[k].root].op, g->kernels[k].loc,
                    sizeof g->kernels[k].loc);
  }
  out->greedyUs = estimateAll(c, g);
  out->rulesUs = rulesTotal(c, g, body, &out->rulesKernels);
  return out->rulesUs >= 0;
}
