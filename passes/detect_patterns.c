/*===- patterns.c - multi-op templates: attention, GELU, softmax, norms ----===*
 *
 * Exporters decompose ops users think of as one (erf- and tanh-GELU, SiLU,
 * softmax, LayerNorm, GroupNorm, RMSNorm, batch norm, rotary embeddings) and
 * write attention as matmul -> scale -> mask -> softmax -> matmul. Most
 * patterns here are found the same way: pick a sink and an input, then grow
 * a region backwards from the sink, taking a producer only when all of its
 * users are already in the region and its class is elementwise, a reduction
 * or a view, and never taking the input's producer (batch norm walks its
 * chain of per-channel steps instead). The region becomes one group with one
 * class; detection then treats it as a single op (graph.c).
 *
 *===----------------------------------------------------------------------===*/
#include "detect.h"

#include "ir_util.h"

#include <stdlib.h>
#include <string.h>

enum { kMaxRegion = 96 };

typedef struct {
  int nodes[kMaxRegion];
  int count;
} Region;

static bool inRegion(const Region *r, int node) {
  for (int i = 0; r && i < r->count; i++)
    if (r->nodes[i] == node)
      return true;
  return false;
}

static bool isClass(const LatNode *n, LatClassId id) { return n->cls.id == id; }

/* Classes a decomposed pattern is made of; with `halves`, also the slices
 * and concats of a rotary embedding. */
static bool growable(const LatNode *n, bool halves) {
  static const LatClassId classes[] = {
      LAT_CLASS_ADD,         LAT_CLASS_SUB,     LAT_CLASS_MUL,
      LAT_CLASS_DIV,         LAT_CLASS_EXP,     LAT_CLASS_REDUCE,
      LAT_CLASS_RSQRT,       LAT_CLASS_POW,     LAT_CLASS_NEG,
      LAT_CLASS_CAST,        LAT_CLASS_COPY,    LAT_CLASS_ERF,
      LAT_CLASS_ELEMENTWISE, LAT_CLASS_RELU,    LAT_CLASS_CLAMP,
      LAT_CLASS_TANH,        LAT_CLASS_RESHAPE, LAT_CLASS_BROADCAST,
      LAT_CLASS_SIGMOID,     LAT_CLASS_SOFTMAX};
  if (n->group >= 0 || n->cls.role == LAT_ROLE_SKIP)
    return false;
  if (halves && (isClass(n, LAT_CLASS_SLICE) || isClass(n, LAT_CLASS_CONCAT)))
    return true;
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (isClass(n, classes[i]))
      return true;
  return false;
}

typedef struct {
  const Region *region; /* may be NULL: then only `extra` is inside */
  int extra;            /* a node outside the region that counts in  */
} Inside;

static bool isInside(const LatGraph *g, int user, void *context) {
  (void)g;
  const Inside *in = context;
  return user >= 0 && (user == in->extra || inRegion(in->region, user));
}

/* True when every user of node `n` is in the region or is `extra`. */
static bool usersInside(const LatGraph *g, int n, const Region *r, int extra) {
  Inside in = {r, extra};
  return latGraphAllUsers(g, n, isInside, &in);
}

/* Grows `r` (holding the sink) backwards to a fixed point over growable
 * classes (`halves`: see growable); `stop` is never taken; `extra` counts as
 * inside for the users check. */
static void growOver(const LatGraph *g, Region *r, int stop, int extra,
                     bool halves) {
  for (bool changed = true; changed;) {
    changed = false;
    for (int k = 0; k < r->count && r->count < kMaxRegion; k++) {
      MlirOperation op = g->nodes[r->nodes[k]].op;
      for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
        int p = latGraphProducerOf(g, r->nodes[k], i);
        if (p < 0 || p == stop || inRegion(r, p) ||
            !growable(&g->nodes[p], halves) || !usersInside(g, p, r, extra) ||
            r->count == kMaxRegion)
          continue;
        r->nodes[r->count++] = p;
        changed = true;
      }
    }
  }
}

static void grow(const LatGraph *g, Region *r, int stop, int extra) {
  growOver(g, r, stop, extra, false);
}

static int countClass(const LatGraph *g, const Region *r, LatClassId id) {
  int n = 0;
  for (int i = 0; i < r->count; i++)
    n += isClass(&g->nodes[r->nodes[i]], id);
  return n;
}

static int compareInts(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

static void makeGroup(LatGraph *g, Region *r, LatClassId cls) {
  qsort(r->nodes, r->count, sizeof r->nodes[0], compareInts);
  int id = (int)g->numGroups++;
  for (int i = 0; i < r->count; i++) {
    LatNode *n = &g->nodes[r->nodes[i]];
    n->group = id;
    n->groupClass = cls;
    n->groupHead = i == 0;
    n->nextInGroup = i + 1 < r->count ? r->nodes[i + 1] : -1;
    n->fuseClass = latClassName(cls);
  }
}

/* The single user node of node n, or -1 when it has none or several. */
static int onlyUser(const LatGraph *g, int n) {
  if (latCountUsers(g->nodes[n].op) != 1)
    return -1;
  MlirOperation op = g->nodes[n].op;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirOpOperand u = latFirstUse(latResult(op, i));
    if (!mlirOpOperandIsNull(u))
      return latGraphFind(g, mlirOpOperandGetOwner(u));
  }
  return -1;
}

/* Follows single-user elementwise consumers of n, at most `steps`. */
static int forwardSink(const LatGraph *g, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    int u = onlyUser(g, n);
    if (u < 0 || !growable(&g->nodes[u], false) ||
        isClass(&g->nodes[u], LAT_CLASS_REDUCE))
      break;
    n = u;
  }
  return n;
}

/* matmul(Q, K^T) -> ... softmax ... -> matmul(P, V), at the second matmul. */
static void matchAttention(LatGraph *g, int m2) {
  int p = latGraphProducerOf(g, m2, 0);
  if (p < 0 || !growable(&g->nodes[p], false) || !usersInside(g, p, NULL, m2))
    return;
  Region r = {{p}, 1};
  grow(g, &r, -1, m2);
  bool softmax =
      countClass(g, &r, LAT_CLASS_SOFTMAX) || /* linalg.softmax */
      (countClass(g, &r, LAT_CLASS_EXP) && countClass(g, &r, LAT_CLASS_REDUCE));
  if (!softmax)
    return;
  int m1 = -1; /* the one matmul feeding the region from outside */
  for (int k = 0; k < r.count; k++)
    for (intptr_t i = 0;
         i < mlirOperationGetNumOperands(g->nodes[r.nodes[k]].op); i++) {
      int q = latGraphProducerOf(g, r.nodes[k], i);
      if (q >= 0 && !inRegion(&r, q) &&
          isClass(&g->nodes[q], LAT_CLASS_MATMUL) && g->nodes[q].group < 0 &&
          usersInside(g, q, &r, -1))
        m1 = q;
    }
  if (m1 < 0 || r.count + 2 > kMaxRegion)
    return;
  r.nodes[r.count++] = m1;
  r.nodes[r.count++] = m2;
  makeGroup(g, &r, LAT_CLASS_ATTENTION);
}

/* x * 0.5 * (1 + erf(x / sqrt 2)), at the erf. */
static void matchGelu(LatGraph *g, int erf) {
  int scale = latGraphProducerOf(g, erf, 0); /* mul(x, 1/sqrt 2) */
  if (scale < 0 || !isClass(&g->nodes[scale], LAT_CLASS_MUL))
    return;
  int x = latGraphProducerOf(g, scale, 0);
  int sink = forwardSink(g, erf, 2);
  Region r = {{sink}, 1};
  grow(g, &r, x, -1);
  if (inRegion(&r, erf) && inRegion(&r, scale) && r.count >= 4)
    makeGroup(g, &r, LAT_CLASS_GELU);
}

/* exp(x - max x) / sum exp(...), at a reduction of an exp. */
static void matchSoftmax(LatGraph *g, int reduce) {
  int e = latGraphProducerOf(g, reduce, 0);
  if (e < 0 || !isClass(&g->nodes[e], LAT_CLASS_EXP) || g->nodes[e].group >= 0)
    return;
  int sink = -1; /* the user of exp that is not the reduction */
  MlirOperation op = g->nodes[e].op;
  for (MlirOpOperand u = latFirstUse(latResult(op, 0)); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    int user = latGraphFind(g, mlirOpOperandGetOwner(u));
    if (user >= 0 && user != reduce)
      sink = user;
  }
  if (sink < 0 || !growable(&g->nodes[sink], false))
    return;
  int sub = latGraphProducerOf(g, e, 0), x = sub;
  if (sub >= 0 && isClass(&g->nodes[sub], LAT_CLASS_SUB))
    x = latGraphProducerOf(g, sub, 0);
  Region r = {{sink}, 1};
  grow(g, &r, x, -1);
  if (inRegion(&r, reduce) && inRegion(&r, e))
    makeGroup(g, &r, LAT_CLASS_SOFTMAX);
}

/* True when the norm's statistics are taken over more elements than x's
 * last dim: GroupNorm (x reshaped to [n, groups, c / groups, h * w], mean
 * over the last two axes, in one reduction or two), not LayerNorm (mean
 * over the last axis). `first` is the region's earliest reduction, of x. */
static bool spansAxes(const LatGraph *g, const Region *r, int first) {
  LatShape x = latShapeOf(latOperand(g->nodes[first].op, 0));
  double stats = x.elements;
  for (int i = 0; i < r->count; i++)
    if (isClass(&g->nodes[r->nodes[i]], LAT_CLASS_REDUCE)) {
      MlirOperation op = g->nodes[r->nodes[i]].op;
      LatShape out = latShapeOf(latResult(op, 0));
      if (out.elements > 0 && out.elements < stats)
        stats = out.elements;
    }
  return x.rank > 0 && stats > 0 &&
         x.elements / stats > (double)x.dims[x.rank - 1];
}

/* (x - mean) * rsqrt(var + eps) * gamma + beta, or x * rsqrt(mean x^2 +
 * eps) * gamma, at the rsqrt (or pow(., -0.5), as linalg exporters write
 * it). */
static void matchNorm(LatGraph *g, int rsqrt) {
  int user = onlyUser(g, rsqrt);
  if (user < 0)
    return;
  int sink = forwardSink(g, user, 6); /* views, casts, mul, gamma, beta */
  Region probe = {{sink}, 1};
  grow(g, &probe, -1, -1);
  int first = -1; /* the earliest reduction: its input is x */
  for (int i = 0; i < probe.count; i++)
    if (isClass(&g->nodes[probe.nodes[i]], LAT_CLASS_REDUCE) &&
        (first < 0 || probe.nodes[i] < first))
      first = probe.nodes[i];
  if (first < 0 || !inRegion(&probe, rsqrt))
    return;
  int x = latGraphProducerOf(g, first, 0);
  if (x >= 0 && (isClass(&g->nodes[x], LAT_CLASS_POW) ||
                 isClass(&g->nodes[x], LAT_CLASS_MUL)))
    x = latGraphProducerOf(g, x, 0); /* RMSNorm reduces x^2 */
  Region r = {{sink}, 1};
  grow(g, &r, x, -1);
  if (!inRegion(&r, rsqrt) || !countClass(g, &r, LAT_CLASS_REDUCE))
    return;
  /* a mixed-precision norm upcasts x first (bf16 -> f32): that cast reads
   * the same tensor and belongs to the norm when only the norm uses it */
  if (x >= 0 && isClass(&g->nodes[x], LAT_CLASS_CAST) &&
      g->nodes[x].group < 0 && usersInside(g, x, &r, -1) &&
      r.count < kMaxRegion)
    r.nodes[r.count++] = x;
  makeGroup(g, &r,
            countClass(g, &r, LAT_CLASS_REDUCE) < 2 ? LAT_CLASS_RMSNORM
            : spansAxes(g, &r, first)               ? LAT_CLASS_GROUPNORM
                                                    : LAT_CLASS_LAYERNORM);
}

/* True when every operand from outside the region comes from `x` or a
 * constant (SKIP role) or a block argument (weights). */
static bool onlyInput(const LatGraph *g, const Region *r, int x) {
  for (int k = 0; k < r->count; k++) {
    MlirOperation op = g->nodes[r->nodes[k]].op;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = latOperand(op, i);
      int p = latGraphValueProducer(g, v);
      bool constant = p >= 0 && g->nodes[p].cls.role == LAT_ROLE_SKIP;
      bool unknown = p < 0 && !mlirOperationIsNull(latProducer(v));
      if (p >= 0 && p != x && !inRegion(r, p) && !constant)
        return false;
      if (unknown) /* produced in an enclosing region: not a pure input */
        return false;
    }
  }
  return true;
}

/* Users of node `n` inside region `r`. */
static int usersIn(const LatGraph *g, int n, const Region *r) {
  int count = 0;
  for (int k = 0; k < r->count; k++)
    for (intptr_t i = 0;
         i < mlirOperationGetNumOperands(g->nodes[r->nodes[k]].op); i++)
      if (latGraphProducerOf(g, r->nodes[k], i) == n) {
        count++;
        break;
      }
  return count;
}

/* The input of an activation region: the member used most (at least twice)
 * inside it, earliest on ties, else its single outside producer; -1 when
 * neither exists. */
static int activationInput(const LatGraph *g, const Region *r) {
  int best = -1, bestUsers = 1;
  for (int k = 0; k < r->count; k++) {
    int users = usersIn(g, r->nodes[k], r);
    if (users > bestUsers ||
        (users == bestUsers && best >= 0 && users > 1 && r->nodes[k] < best))
      best = r->nodes[k], bestUsers = users;
  }
  if (best >= 0)
    return best;
  int outside = -1;
  for (int k = 0; k < r->count; k++)
    for (intptr_t i = 0;
         i < mlirOperationGetNumOperands(g->nodes[r->nodes[k]].op); i++) {
      int p = latGraphProducerOf(g, r->nodes[k], i);
      if (p < 0 || inRegion(r, p) || g->nodes[p].cls.role == LAT_ROLE_SKIP)
        continue;
      if (outside >= 0 && outside != p)
        return -1;
      outside = p;
    }
  return outside;
}

/* True when the region's one input from outside is a single block argument
 * (a function's input or weight), read by its members at least twice, and
 * everything else it reads is constant. */
static bool argumentInput(const LatGraph *g, const Region *r) {
  MlirValue arg = {NULL};
  int uses = 0;
  for (int k = 0; k < r->count; k++) {
    MlirOperation op = g->nodes[r->nodes[k]].op;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = latOperand(op, i);
      int p = latGraphValueProducer(g, v);
      if (p >= 0 && (inRegion(r, p) || g->nodes[p].constant))
        continue;
      if (p >= 0 || !mlirValueIsABlockArgument(v) ||
          (arg.ptr && !mlirValueEqual(arg, v)))
        return false;
      arg = v;
      uses++;
    }
  }
  return uses >= 2;
}

/* x * sigmoid(x) (SiLU, also as x / (1 + exp(-x))) and tanh-GELU, at the
 * final multiply: the region back to the input x, which it uses at least
 * twice; no reductions. */
static void matchActivation(LatGraph *g, int mul) {
  Region r = {{mul}, 1};
  grow(g, &r, -1, -1);
  if (countClass(g, &r, LAT_CLASS_REDUCE))
    return;
  int x = activationInput(g, &r);
  if (x < 0) { /* silu(%arg0): the input may be the function's argument */
    if (r.count < 2 || !argumentInput(g, &r))
      return;
  } else {
    if (inRegion(&r, x)) { /* the input is a member: cut the region at it */
      r = (Region){{mul}, 1};
      grow(g, &r, x, -1);
    }
    if (r.count < 2 || !onlyInput(g, &r, x) || usersIn(g, x, &r) < 2)
      return;
  }
  if (countClass(g, &r, LAT_CLASS_TANH))
    makeGroup(g, &r, LAT_CLASS_GELU);
  else if (countClass(g, &r, LAT_CLASS_SIGMOID) ||
           countClass(g, &r, LAT_CLASS_EXP))
    makeGroup(g, &r, LAT_CLASS_SILU);
}

/* Rotary position embedding, x * cos + rotate_half(x) * sin with
 * rotate_half(x) = concat(-x2, x1) of x's halves, at the final add: the
 * region back to its input x (used at least twice: two slices and the
 * multiply), holding slices, a concat and a negation. */
static void matchRotary(LatGraph *g, int add) {
  Region r = {{add}, 1};
  growOver(g, &r, -1, -1, true);
  /* linalg spells the concat as insert_slices (copies) into an empty */
  bool joined = countClass(g, &r, LAT_CLASS_CONCAT) ||
                countClass(g, &r, LAT_CLASS_COPY) >= 2;
  if (countClass(g, &r, LAT_CLASS_SLICE) < 2 || !joined ||
      !countClass(g, &r, LAT_CLASS_NEG))
    return;
  int x = activationInput(g, &r);
  if (x < 0)
    return;
  if (inRegion(&r, x)) {
    r = (Region){{add}, 1};
    growOver(g, &r, x, -1, true);
  }
  if (onlyInput(g, &r, x) && usersIn(g, x, &r) >= 2)
    makeGroup(g, &r, LAT_CLASS_ROPE);
}

/* True when `v` is a per-channel parameter of an activation of
 * `activation` elements: a smaller tensor made only of constants and
 * function arguments (through views and ops on them, `depth` bounded). */
static bool isParameter(const LatGraph *g, MlirValue v, double activation,
                        int depth) {
  if (latShapeOf(v).elements >= activation || depth > 6)
    return false;
  int p = latGraphValueProducer(g, v);
  if (p < 0)
    return mlirValueIsABlockArgument(v);
  if (g->nodes[p].constant)
    return true;
  MlirOperation op = g->nodes[p].op;
  if (g->nodes[p].cls.role == LAT_ROLE_UNKNOWN ||
      mlirOperationGetNumOperands(op) == 0)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!isParameter(g, latOperand(op, i), activation, depth + 1))
      return false;
  return true;
}

/* The operand of node n that carries the activation, when every other
 * operand is a parameter (isParameter); -1 otherwise. */
static int activationOperand(const LatGraph *g, int n) {
  MlirOperation op = g->nodes[n].op;
  double activation = latShapeOf(latResult(op, 0)).elements;
  int found = -1;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = latOperand(op, i);
    if (latIsInitProducer(latProducer(v)))
      continue; /* a linalg op's init: no data */
    if (latShapeOf(v).elements == activation && found < 0)
      found = (int)i;
    else if (!isParameter(g, v, activation, 0) &&
             !(latOpIs(op, "tosa.mul") && i == 2)) /* tosa.mul's shift */
      return -1;
  }
  return found;
}

/* Inference batch-norm written out, (x - mean) * inv_std [* gamma] + beta
 * with per-channel parameters, at the final add: the chain back through
 * single-use muls to the sub, each step's other operand a parameter. (A
 * linalg generic holding the whole formula is classified batchnorm by its
 * body.) */
static void matchBatchNorm(LatGraph *g, int add) {
  Region r = {{add}, 1};
  int n = add, muls = 0;
  for (;;) {
    int i = activationOperand(g, n);
    if (i < 0)
      return;
    int p = latGraphProducerOf(g, n, i);
    if (p < 0 || g->nodes[p].group >= 0 || onlyUser(g, p) != n)
      return;
    if (isClass(&g->nodes[p], LAT_CLASS_MUL) && muls < 2) {
      muls++;
    } else if (isClass(&g->nodes[p], LAT_CLASS_SUB) && muls >= 1) {
      if (activationOperand(g, p) != 0)
        return; /* x - mean, not mean - x */
      r.nodes[r.count++] = p;
      makeGroup(g, &r, LAT_CLASS_BATCHNORM);
      return;
    } else {
      return;
    }
    r.nodes[r.count++] = p;
    n = p;
  }
}

void latGraphMatchPatterns(LatGraph *g, bool fusion) {
  for (size_t i = 0; fusion && i < g->numNodes; i++)
    if (isClass(&g->nodes[i], LAT_CLASS_MATMUL) && g->nodes[i].group < 0)
      matchAttention(g, (int)i);
  for (size_t i = 0; i < g->numNodes; i++) {
    LatNode *n = &g->nodes[i];
    if (n->group >= 0)
      continue;
    if (isClass(n, LAT_CLASS_ERF))
      matchGelu(g, (int)i);
    else if (isClass(n, LAT_CLASS_REDUCE))
      matchSoftmax(g, (int)i);
  }
  for (size_t i = 0; i < g->numNodes; i++) {
    const LatNode *n = &g->nodes[i];
    int user = onlyUser(g, (int)i);
    bool squares =
        user >= 0 && isClass(&g->nodes[user], LAT_CLASS_REDUCE); /* x^2 */
    if (n->group < 0 && (isClass(n, LAT_CLASS_RSQRT) ||
                         (isClass(n, LAT_CLASS_POW) && !squares)))
      matchNorm(g, (int)i);
  }
  for (size_t i = 0; i < g->numNodes; i++)
    if (isClass(&g->nodes[i], LAT_CLASS_ADD) && g->nodes[i].group < 0)
      matchRotary(g, (int)i);
  for (size_t i = 0; i < g->numNodes; i++)
    if (isClass(&g->nodes[i], LAT_CLASS_ADD) && g->nodes[i].group < 0)
      matchBatchNorm(g, (int)i);
  for (size_t i = 0; i < g->numNodes; i++)
    if (isClass(&g->nodes[i], LAT_CLASS_MUL) && g->nodes[i].group < 0)
      matchActivation(g, (int)i);
}
