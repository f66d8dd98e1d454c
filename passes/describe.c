/*===- kernel_describe.c - type, axes, flops and boundary bytes of kernels -===*
 *
 * Bytes count only tensors that cross the kernel boundary: operands produced
 * outside the kernel (weights included; empty or filled init tensors are not
 * data) and results used outside it. That is why fusion pays in the
 * roofline. Problems with the IR become warnings at the op's location; the
 * kernel still gets a best-effort description.
 *
 *===----------------------------------------------------------------------===*/
#include "describe.h"
#include "buffers.h"
#include "epilogue.h"
#include "graph.h"

#include "ir_util.h"
#include "latency/diagnostics.h"
#include "transpose_walk.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool inKernel(const LatGraph *g, MlirOperation op, int kernel) {
  int n = latGraphFind(g, op);
  return n >= 0 && g->nodes[n].kernel == kernel;
}

/* Bytes a kernel reads for `v`. A value that folding computes from constants
 * (graph.c) is not materialised at its own size: a bias broadcast into a
 * conv's accumulator is read as the bias. So count the constants it is made
 * from, at most its own size; `depth` bounds the walk. */
static double readBytes(const LatGraph *g, MlirValue v, int depth) {
  double own = latValueBytes(g, v);
  int p = latGraphValueProducer(g, v);
  if (p < 0 || !g->nodes[p].constant || g->nodes[p].cls.id == LAT_CLASS_CONST ||
      depth > 8)
    return own;
  double sources = 0;
  MlirOperation op = g->nodes[p].op;
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
    MlirValue in = latOperand(op, o);
    if (!latIsInitProducer(latProducer(in)))
      sources += readBytes(g, in, depth + 1);
  }
  return sources < own ? sources : own;
}

/* Bytes of `v` that live in memory from one call to the next: a tensor
 * argument of the function, a constant that is not a zero splat, a value folded
 * from them offline, or a view of one (at most its own size). Values a
 * kernel of this call produces are 0: they were just written, so they are
 * as warm as a kernel measured alone sees them. `depth` bounds the walk. */
static double storedBytes(const LatGraph *g, MlirValue v, int depth) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), g->entry)
               ? latValueBytes(g, v)
               : 0;
  int p = latGraphValueProducer(g, v);
  if (p < 0 || depth > 8)
    return 0;
  const LatNode *n = &g->nodes[p];
  /* a zero splat reads the one zero page; any other splat `loops`
     materializes as a global of its full size, read from memory like any
     weight (nelli's exports hold their weights so: a MobileNet-V2 read
     them cold, docs/passes.md "Cold weights") */
  if (n->cls.id == LAT_CLASS_CONST)
    return latIsZeroSplat(latConstantValue(v)) ? 0 : latValueBytes(g, v);
  bool folded = n->constant && n->kernel < 0;
  if (!folded && n->cls.role != LAT_ROLE_VIEW)
    return 0;
  double sources = 0, own = latValueBytes(g, v);
  for (intptr_t o = 0; o < mlirOperationGetNumOperands(n->op); o++) {
    MlirValue in = latOperand(n->op, o);
    if (!latIsInitProducer(latProducer(in)))
      sources += storedBytes(g, in, depth + 1);
    if (!folded) /* a view shows its first operand */
      break;
  }
  return sources < own ? sources : own;
}

/* The class of the op that reads a tensor through node `n`: `n` itself,
 * or for a view (a reshape of a weight) the first user inside the kernel
 * of what it shows, up to four views down. How a weight is read (by a
 * matmul, through a transpose) sets what a cold read costs (estimate.c). */
static const char *readerClass(const LatGraph *g, int n, int kernel) {
  for (int step = 0; step < 4 && g->nodes[n].cls.role == LAT_ROLE_VIEW &&
                     mlirOperationGetNumResults(g->nodes[n].op) > 0;
       step++) {
    MlirOpOperand use = latFirstUse(latResult(g->nodes[n].op, 0));
    int user = mlirOpOperandIsNull(use)
                   ? -1
                   : latGraphFind(g, mlirOpOperandGetOwner(use));
    if (user < 0 || g->nodes[user].kernel != kernel)
      break;
    n = user;
  }
  return g->nodes[n].cls.name;
}

/* Remembers `v` among the values already read; false when it was already
 * there. Starts in `onStack` and grows on the heap; out of memory, values
 * stop being remembered (a value read twice then counts twice). */
typedef struct {
  MlirValue *items, onStack[32];
  size_t count, capacity;
} ValueSet;

static bool addValue(ValueSet *set, MlirValue v) {
  for (size_t s = 0; s < set->count; s++)
    if (mlirValueEqual(set->items[s], v))
      return false;
  if (set->count == set->capacity) {
    size_t capacity = 2 * set->capacity;
    MlirValue *grown = set->items == set->onStack
                           ? malloc(capacity * sizeof *grown)
                           : realloc(set->items, capacity * sizeof *grown);
    if (!grown)
      return true;
    if (set->items == set->onStack)
      memcpy(grown, set->onStack, sizeof set->onStack);
    set->items = grown;
    set->capacity = capacity;
  }
  set->items[set->count++] = v;
  return true;
}

/* True when a user of `v` is outside kernel `kernel`. */
static bool escapesKernel(const LatGraph *g, MlirValue v, int kernel) {
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!inKernel(g, mlirOpOperandGetOwner(u), kernel))
      return true;
  return false;
}

/* Bytes crossing kernel `kernel`'s boundary; sets the kernel's
 * residentBytes, the part of them read from tensors the call did not
 * produce (storedBytes), and residentReader, the class of the op that
 * reads the largest of those. */
static double boundaryBytes(LatGraph *g, int kernel) {
  LatKernel *k = &g->kernels[kernel];
  double bytes = 0, largest = 0;
  k->residentBytes = 0;
  k->residentReader = NULL;
  ValueSet seen;
  seen.items = seen.onStack;
  seen.count = 0;
  seen.capacity = sizeof seen.onStack / sizeof seen.onStack[0];
  for (int i = g->kernels[kernel].root; i >= 0; i = g->nodes[i].nextInKernel) {
    MlirOperation op = g->nodes[i].op;
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
      MlirValue v = latOperand(op, o);
      MlirOperation producer = latProducer(v);
      if (inKernel(g, producer, kernel) || latIsInitProducer(producer))
        continue;
      if (!addValue(&seen, v))
        continue;
      double read = readBytes(g, v, 0);
      /* a gather reads the rows it selects, not its whole table */
      if (o == 0 && g->nodes[i].cls.id == LAT_CLASS_GATHER) {
        double rows = latValueBytes(g, latResult(op, 0));
        read = rows < read ? rows : read;
      }
      bytes += read;
      double stored = storedBytes(g, v, 0);
      stored = stored < read ? stored : read;
      if (stored > largest) {
        largest = stored;
        k->residentReader = readerClass(g, i, kernel);
      }
      k->residentBytes += stored;
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = latResult(op, r);
      if (escapesKernel(g, v, kernel))
        bytes += latValueBytes(g, v);
    }
  }
  if (seen.items != seen.onStack)
    free(seen.items);
  return bytes;
}

/* Adds a text field; `value` must outlive the kernel (k->costDtype). */
static void addFieldText(LatKernel *k, const char *name, const char *value) {
  if (k->numFields == LAT_MAX_FIELDS) {
    k->fieldsCut++;
    return;
  }
  k->fields[k->numFields].name = name;
  k->fields[k->numFields].value = value;
  k->numFields++;
}

static void addField(LatKernel *k, const char *name, double value) {
  if (k->numFields == LAT_MAX_FIELDS) {
    k->fieldsCut++;
    return;
  }
  snprintf(k->fieldText[k->numFields], sizeof k->fieldText[0], "%.17g", value);
  k->fields[k->numFields].name = name;
  k->fields[k->numFields].value = k->fieldText[k->numFields];
  k->numFields++;
}

/* Shape facts of a matmul op: result [.., m, n], first operand [.., m, k]. */
typedef struct {
  double m, n, k, batch;
} MatmulShape;

static bool matmulShape(MlirOperation op, MatmulShape *out) {
  LatShape a = latShapeOf(latOperand(op, 0));
  LatShape c = latShapeOf(latResult(op, 0));
  if (c.rank < 2 || a.rank < 2 || c.elements <= 0)
    return false;
  out->m = (double)c.dims[c.rank - 2];
  out->n = (double)c.dims[c.rank - 1];
  out->k = (double)(a.dims[a.rank - 2] == (int64_t)out->m ? a.dims[a.rank - 1]
                                                          : a.dims[a.rank - 2]);
  out->batch = c.elements / (out->m * out->n);
  return true;
}

/* True when the right operand of batched matmul `op` is one [k, n] matrix
 * shared across the batch: a linear layer on [b, s, h], its weight
 * broadcast, tiled or viewed up to rank 3 (up to six such steps back). */
static bool sharedRightOperand(const LatGraph *g, MlirOperation op,
                               const MatmulShape *s) {
  MlirValue v = latOperand(op, 1);
  for (int step = 0; step < 6 && !mlirValueIsNull(v); step++) {
    if (latShapeOf(v).elements == s->k * s->n)
      return true;
    int p = latGraphValueProducer(g, v);
    LatClassId cls = p >= 0 ? g->nodes[p].cls.id : LAT_CLASS_UNKNOWN;
    if (p < 0 ||
        (g->nodes[p].cls.role != LAT_ROLE_VIEW && cls != LAT_CLASS_BROADCAST &&
         cls != LAT_CLASS_COPY && cls != LAT_CLASS_TRANSPOSE))
      return false;
    v = latOperand(g->nodes[p].op, 0);
  }
  return false;
}

/* The node of the transpose through which the kernel transposes the right
 * operand of matmul `op` at run time (through up to six views, broadcasts
 * or copies, all in the kernel), or -1. Such a kernel writes a transposed
 * copy of its weight on every call, which a pipeline that does not absorb
 * the transpose (the host's `loops`) pays for in full: on a host profile
 * it is a regime of its own (`weight_transposed`,
 * docs/profile-format.md). */
static int transposedRightOperand(const LatGraph *g, MlirOperation op,
                                  int kernel) {
  MlirValue v = latOperand(op, 1);
  for (int step = 0; step < 6 && !mlirValueIsNull(v); step++) {
    int p = latGraphValueProducer(g, v);
    if (p < 0 || g->nodes[p].kernel != kernel)
      return -1;
    LatClassId cls = g->nodes[p].cls.id;
    if (cls == LAT_CLASS_TRANSPOSE)
      return p;
    if (g->nodes[p].cls.role != LAT_ROLE_VIEW && cls != LAT_CLASS_BROADCAST &&
        cls != LAT_CLASS_COPY)
      return -1;
    v = latOperand(g->nodes[p].op, 0);
  }
  return -1;
}

/* A matmul's m, n, k (and batch). A batch whose right operand is shared
 * folds into m: one GEMM of (batch x m) rows, as devices run linear
 * layers, answered from the GEMM tables. `*weightCopy`: the node that
 * transposes its weight on every call, or -1. */
static void describeMatmul(const LatGraph *g, LatKernel *k, MlirOperation op,
                           int kernel, bool *batched, int *weightCopy) {
  *weightCopy = transposedRightOperand(g, op, kernel);
  MatmulShape s;
  if (!matmulShape(op, &s))
    return;
  if (s.batch > 1 && sharedRightOperand(g, op, &s)) {
    s.m *= s.batch;
    s.batch = 1;
  }
  *batched = s.batch > 1;
  addField(k, "m", s.m);
  addField(k, "n", s.n);
  addField(k, "k", s.k);
  if (s.batch > 1)
    addField(k, "batch", s.batch);
  addField(k, "weight_transposed", *weightCopy >= 0);
  int used =
      snprintf(k->axes, sizeof k->axes, "m=%.0f n=%.0f k=%.0f", s.m, s.n, s.k);
  if (s.batch > 1)
    snprintf(k->axes + used, sizeof k->axes - used, " batch=%.0f", s.batch);
}

/* The leading dims of Q as [batch, heads, seq, head_dim], found by looking
 * through up to three views (reshape, collapse) above the scores matmul's
 * first operand; false when no such rank-4 shape is there. */
static bool queryBatchHeads(const LatGraph *g, MlirOperation scores, double seq,
                            double headDim, double *batch, double *heads) {
  MlirValue v = latOperand(scores, 0);
  for (int step = 0; step < 4; step++) {
    LatShape s = latShapeOf(v);
    if (s.rank == 4 && (double)s.dims[2] == seq &&
        (double)s.dims[3] == headDim) {
      *batch = (double)s.dims[0];
      *heads = (double)s.dims[1];
      return true;
    }
    int n = latGraphValueProducer(g, v);
    if (n < 0 || g->nodes[n].cls.role != LAT_ROLE_VIEW ||
        mlirOperationGetNumOperands(g->nodes[n].op) < 1)
      return false;
    v = latOperand(g->nodes[n].op, 0);
  }
  return false;
}

/* Key/value heads of grouped-query attention: the smallest heads dim of a
 * rank-4 [batch, kv_heads, ., .] shape on K's path above the scores matmul
 * (through views, transposes, broadcasts and tiles that repeat KV heads)
 * that divides `heads`; `heads` when K's path shows none smaller. */
static double keyValueHeads(const LatGraph *g, MlirOperation scores,
                            double batch, double heads) {
  double kvHeads = heads;
  MlirValue v = latOperand(scores, 1);
  for (int step = 0; step < 6; step++) {
    LatShape s = latShapeOf(v);
    double h = s.rank == 4 ? (double)s.dims[1] : 0;
    if (s.rank == 4 && (double)s.dims[0] == batch && h >= 1 && h < kvHeads &&
        (int64_t)heads % (int64_t)h == 0)
      kvHeads = h;
    int n = latGraphValueProducer(g, v);
    LatClassId cls = n >= 0 ? g->nodes[n].cls.id : LAT_CLASS_UNKNOWN;
    if (n < 0 || mlirOperationGetNumOperands(g->nodes[n].op) < 1 ||
        (g->nodes[n].cls.role != LAT_ROLE_VIEW && cls != LAT_CLASS_TRANSPOSE &&
         cls != LAT_CLASS_BROADCAST && cls != LAT_CLASS_COPY))
      break;
    v = latOperand(g->nodes[n].op, 0);
  }
  return kvHeads;
}

/* The scores matmul of the attention group starting at node `head`: its
 * first matmul in program order. The head itself may be a view or mask op
 * the region took in before it (a collapsed [1, 1, s, s] mask). */
static MlirOperation attentionScores(const LatGraph *g, int head) {
  for (int m = head; m >= 0; m = g->nodes[m].nextInGroup)
    if (g->nodes[m].cls.id == LAT_CLASS_MATMUL)
      return g->nodes[m].op;
  return g->nodes[head].op; /* matchAttention always takes two matmuls */
}

/* Attention from its first matmul, scores = Q K^T: [.., seq, kv_len] from
 * [.., seq, head_dim]. The leading dims are batch x heads: split by Q's
 * rank-4 shape when a view above shows it, else taken as heads with batch 1;
 * kv_heads from K's path (grouped-query attention). Returns the kernel name
 * the shapes call for: "attention" (prefill, seq = kv_len),
 * "attention_decode" (one query row against kv_len keys) or
 * "cross_attention" (another query length: cross-attention, or prefill
 * against a KV cache), each with the axes its table and roofline read. */
static const char *describeAttention(const LatGraph *g, LatKernel *k,
                                     MlirOperation scores) {
  MatmulShape s;
  if (!matmulShape(scores, &s))
    return "attention";
  double batch = 1, heads = s.batch;
  queryBatchHeads(g, scores, s.m, s.k, &batch, &heads);
  double kvHeads = keyValueHeads(g, scores, batch, heads);
  const char *name = s.m == s.n ? "attention"
                     : s.m == 1 ? "attention_decode"
                                : "cross_attention";
  if (s.m == s.n)
    addField(k, "seq", s.m);
  else {
    addField(k, "kv_len", s.n);
    if (s.m != 1)
      addField(k, "seq", s.m);
  }
  addField(k, "batch", batch);
  addField(k, "heads", heads);
  addField(k, "head_dim", s.k);
  addField(k, "kv_heads", kvHeads);
  addField(k, "window", 0);
  snprintf(k->axes, sizeof k->axes,
           "batch=%.0f seq=%.0f kv_len=%.0f heads=%.0f kv_heads=%.0f "
           "head_dim=%.0f",
           batch, s.m, s.n, heads, kvHeads, s.k);
  return name;
}

/* A func.call: the callee's name; its cost is the callee's (annotate). */
static void describeCall(LatKernel *k, MlirOperation call) {
  MlirAttribute callee = mlirOperationGetAttributeByName(
      call, mlirStringRefCreateFromCString("callee"));
  MlirStringRef name = mlirStringRefCreateFromCString("?");
  if (!mlirAttributeIsNull(callee) && mlirAttributeIsAFlatSymbolRef(callee))
    name = mlirFlatSymbolRefAttrGetValue(callee);
  k->isCall = true;
  k->callee = name;
  snprintf(k->axes, sizeof k->axes, "callee=@%.*s",
           (int)latUtf8Prefix(name.data, name.length, sizeof k->axes - 9),
           name.data);
}

const char *latKernelMethodName(const LatKernel *k) {
  return k->isCall         ? "call"
         : k->implicitGemm ? "implicit-gemm"
                           : cmMethodGetName(k->method);
}

/* Channels-first layouts (linalg's nchw, ncw, ncdhw names) keep channels at
 * dim 1; every other conv (TOSA's, linalg's nhwc, nwc, ndhwc) keeps them
 * last. The one place that reads a layout from an op name. */
static bool channelsFirst(const char *opName) {
  return strstr(opName, "_nc") != NULL;
}

/* A conv's query fields and axes (its work is opFlops'). */
static void describeConv(LatKernel *k, MlirOperation op) {
  LatShape in = latShapeOf(latOperand(op, 0));
  LatShape w = latShapeOf(latOperand(op, 1));
  LatShape out = latShapeOf(latResult(op, 0));
  char name[96];
  latOpName(op, name, sizeof name);
  if (!strcmp(name, "linalg.generic")) { /* no layout in a generic's name */
    snprintf(k->axes, sizeof k->axes, "generic");
    return;
  }
  bool nchw = channelsFirst(name);
  /* depthwise ..._hwcm convs keep the channel multiplier as a fifth dim */
  bool multiplier = out.rank == 5 && strstr(name, "hwcm") != NULL;
  if ((out.rank != 4 && !multiplier) || in.rank != 4)
    return;
  int c = nchw ? 1 : 3, h = nchw ? 2 : 1;
  double cout = (double)out.dims[c] * (multiplier ? (double)out.dims[4] : 1);
  double cin = (double)in.dims[c];
  double window = strstr(name, "depthwise")
                      ? w.elements / (cout > 0 ? cout : 1)
                      : w.elements / (cout * cin > 0 ? cout * cin : 1);
  int64_t stride =
      latI64ArrayAttr(op, strstr(name, "linalg") ? "strides" : "stride", 0, 1);
  addField(k, "batch", (double)out.dims[0]);
  addField(k, "hw", (double)out.dims[h] * (double)out.dims[h + 1]);
  addField(k, "cin", cin);
  addField(k, "cout", cout);
  addField(k, "stride", (double)stride);
  addField(k, "window", window); /* kh x kw: the implicit GEMM's k / cin */
  /* a CPU lowering's loop nest follows the layout: its own regime on a
     host profile (docs/profile-format.md), ignored by tables without it */
  addField(k, "channels_last", !nchw);
  snprintf(k->axes, sizeof k->axes,
           "batch=%lld hw=%lldx%lld cin=%.0f cout=%.0f window=%.0f stride=%lld",
           (long long)out.dims[0], (long long)out.dims[h],
           (long long)out.dims[h + 1], cin, cout, window, (long long)stride);
}

/* The width of the float a matmul's or conv's products sum in: a TOSA
 * conv's acc_type (an f16 conv may accumulate in f32 and round once), else
 * its result's element type (a linalg product accumulates into its
 * output); 0 when that is no float. On a CPU without half arithmetic it
 * sets how many conversions each multiply-add makes
 * (latency/converted_chain.h). */
static int accumulatorBits(MlirOperation op) {
  MlirAttribute acc = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("acc_type"));
  MlirType type;
  if (!mlirAttributeIsNull(acc) && mlirAttributeIsAType(acc))
    type = mlirTypeAttrGetValue(acc);
  else if (mlirOperationGetNumResults(op) > 0) {
    type = mlirValueGetType(latResult(op, 0));
    if (mlirTypeIsAShaped(type))
      type = mlirShapedTypeGetElementType(type);
  } else
    return 0;
  return mlirTypeIsAFloat(type) ? (int)mlirFloatTypeGetWidth(type) : 0;
}

/* True when `op` has an array attribute `pad` with a non-zero entry (a
 * TOSA conv or pool that lowers to a tensor.pad of its input; only convs
 * are counted here). */
static bool hasNonZeroPad(MlirOperation op) {
  MlirAttribute pad = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("pad"));
  if (mlirAttributeIsNull(pad) || !mlirAttributeIsADenseI64Array(pad))
    return false;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(pad); i++)
    if (mlirDenseI64ArrayGetElement(pad, i) != 0)
      return true;
  return false;
}

/* The elements kernel `kernel`'s explicit pads copy into their padded
 * buffers: the input of each padded TOSA conv, the source of each
 * tensor.pad and tosa.pad. Through `loops` that copy is MLIR's runtime
 * memrefCopy, element by element (latency/integer_mac.h). */
static double padCopyElements(const LatGraph *g, int kernel) {
  double elements = 0;
  for (int i = g->kernels[kernel].root; i >= 0; i = g->nodes[i].nextInKernel) {
    MlirOperation op = g->nodes[i].op;
    bool pads = latOpIs(op, "tensor.pad") || latOpIs(op, "tosa.pad") ||
                (latClassIsConv(g->nodes[i].cls.id) && hasNonZeroPad(op));
    if (pads && mlirOperationGetNumOperands(op) > 0)
      elements += latShapeOf(latOperand(op, 0)).elements;
  }
  return elements;
}

/* The product of a linalg.generic's loop ranges, each read off an operand
 * dim its indexing map maps a loop to directly; 0 when a loop has none. */
static double loopProduct(MlirOperation generic) {
  enum { kMaxLoops = LAT_MAX_RANK * 2, kMaxMaps = 16 };
  MlirAffineMap maps[kMaxMaps];
  intptr_t numMaps = latIndexingMaps(generic, maps, kMaxMaps);
  double range[kMaxLoops] = {0};
  intptr_t numLoops = 0;
  for (intptr_t i = 0;
       i < numMaps && i < kMaxMaps && i < mlirOperationGetNumOperands(generic);
       i++) {
    numLoops = mlirAffineMapGetNumDims(maps[i]);
    LatShape s = latShapeOf(latOperand(generic, i));
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(maps[i]) && r < s.rank;
         r++) {
      MlirAffineExpr e = mlirAffineMapGetResult(maps[i], r);
      intptr_t d =
          mlirAffineExprIsADim(e) ? mlirAffineDimExprGetPosition(e) : -1;
      if (d >= 0 && d < kMaxLoops)
        range[d] = (double)s.dims[r];
    }
  }
  double product = numLoops > 0 && numLoops <= kMaxLoops;
  for (intptr_t d = 0; d < numLoops && product > 0; d++)
    product *= range[d];
  return product;
}

/* A named pool's window elements (kh x kw): linalg's off its shape-only
 * operand, TOSA's off `kernel`; 0 for other ops and unknown windows. */
static double poolWindow(MlirOperation op) {
  bool linalg = latOpHasPrefix(op, "linalg.pooling_");
  bool tosa = latOpIs(op, "tosa.max_pool2d") || latOpIs(op, "tosa.avg_pool2d");
  LatShape w = linalg && mlirOperationGetNumOperands(op) > 1
                   ? latShapeOf(latOperand(op, 1))
                   : (LatShape){0};
  double window = tosa ? (double)latI64ArrayAttr(op, "kernel", 0, 0) *
                             (double)latI64ArrayAttr(op, "kernel", 1, 0)
                  : w.dynamic ? 0
                              : w.elements;
  return window > 0 ? window : 0;
}

/* The work of one op: matmul 2mnk(batch), conv 2 x output x weight elements
 * per output channel (a transposed conv: x input elements per input
 * channel), pools and reductions their per-element flops x the elements
 * they read (output x window, the reduced input, a generic's loop
 * iterations), others their per-element flops x output elements. */
static double opFlops(const LatNode *n) {
  MlirOperation op = n->op;
  if (mlirOperationGetNumResults(op) == 0)
    return 0;
  LatShape out = latShapeOf(latResult(op, 0));
  if (latOpIs(op, "linalg.generic") &&
      (n->cls.id == LAT_CLASS_MATMUL || latClassIsConv(n->cls.id)))
    return 2 * loopProduct(op); /* a multiply-add per loop iteration */
  if (n->cls.id == LAT_CLASS_MATMUL) {
    MatmulShape s;
    return matmulShape(op, &s) ? 2 * s.m * s.n * s.k * s.batch : 0;
  }
  if (n->cls.id == LAT_CLASS_MATVEC && mlirOperationGetNumOperands(op) >= 1)
    return 2 * latShapeOf(latOperand(op, 0)).elements;
  if (latClassIsConv(n->cls.id) && mlirOperationGetNumOperands(op) >= 2) {
    LatShape w = latShapeOf(latOperand(op, 1));
    char name[96];
    latOpName(op, name, sizeof name);
    if (n->cls.id == LAT_CLASS_TRANSPOSE_CONV2D) {
      /* every input pixel scatters its window into the output, so the
         work is the input's (at stride 2 with a 2 x 2 window each output
         pixel gets one tap, not four) */
      LatShape in = latShapeOf(latOperand(op, 0));
      int ci = channelsFirst(name) ? 1 : in.rank - 1;
      double cin = in.rank > ci && ci >= 0 ? (double)in.dims[ci] : 0;
      return cin > 0 ? 2 * in.elements * w.elements / cin : 0;
    }
    /* depthwise ..._hwcm convs keep the channel multiplier as a last dim of
     * its own, so their output channels are the last two dims' product
     * (else the work is counted channels times over) */
    int c = channelsFirst(name) ? 1 : out.rank - 1;
    double cout = out.rank > c ? (double)out.dims[c] : 0;
    if (strstr(name, "hwcm") && out.rank == 5)
      cout *= (double)out.dims[3];
    return cout > 0 ? 2 * out.elements * w.elements / cout : 0;
  }
  if (n->cls.id == LAT_CLASS_POOL || n->cls.id == LAT_CLASS_REDUCE) {
    /* a step per element read, not per element written: a 3 x 3 max pool
       compares nine taps an output, a mean over a plane adds all of it
       (per output they were priced at nothing, or one step: nelli
       SqueezeNet's max pools came out ten times too fast) */
    double iterations = latOpIs(op, "linalg.generic") ? loopProduct(op) : 0;
    if (iterations > 0)
      return n->cls.flopsPerElement * iterations;
    double window = poolWindow(op);
    if (window > 0)
      return fmax(n->cls.flopsPerElement, 1) * out.elements * window;
    if (n->cls.id == LAT_CLASS_REDUCE && mlirOperationGetNumOperands(op) > 0)
      return n->cls.flopsPerElement * latShapeOf(latOperand(op, 0)).elements;
  }
  return n->cls.flopsPerElement * out.elements;
}

static void warnAt(MlirOperation op, const char *message) {
  latEmitWarning(mlirOperationGetLocation(op), message);
}

/* True when a result or an operand of `op` has more elements than int64
 * counts: any figure of the kernel would be made up, so it has none. */
static bool sizeOverflows(MlirOperation op) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (latShapeOf(latResult(op, r)).overflow)
      return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (latShapeOf(latOperand(op, i)).overflow)
      return true;
  return false;
}

/* Checks the shapes of a member op (`overflows`: sizeOverflows of it);
 * warns at its location. */
static void checkOp(MlirOperation op, const LatNode *node, bool overflows) {
  char text[256], name[96];
  latOpName(op, name, sizeof name);
  if (node->cls.role == LAT_ROLE_UNKNOWN) {
    snprintf(text, sizeof text,
             "latency: unknown op '%s': costed as a memory-bound copy", name);
    warnAt(op, text);
  }
  if (overflows) /* a result or an operand */
    warnAt(op, "latency: tensor size overflows 64-bit: estimate unknown");
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
    LatShape s = latShapeOf(latResult(op, r));
    if (s.dynamic)
      warnAt(op, "latency: dynamic shape: dynamic dims counted as 1, the "
                 "estimate is a lower bound");
    if (s.isTensor && s.elements == 0)
      latEmitRemark(mlirOperationGetLocation(op),
                    "latency: zero-sized tensor: no work");
  }
}

/* Elements of the largest tensor a non-matmul, non-conv kernel computes on:
 * the largest result of its members, or input of its reductions and pools.
 * Not the root's result: a norm's root is the reduction of its statistics
 * ([n, s, 1] of an [n, s, c] input), a softmax's its max, a global pool's
 * [n, 1, 1, c]. */
static double largestTensor(const LatGraph *g, const LatKernel *k) {
  double largest = 0;
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    if (n->transparent)
      continue;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(n->op); r++) {
      double e = latShapeOf(latResult(n->op, r)).elements;
      largest = e > largest ? e : largest;
    }
    if ((n->cls.id == LAT_CLASS_REDUCE || n->cls.id == LAT_CLASS_POOL) &&
        mlirOperationGetNumOperands(n->op) > 0) {
      double e = latShapeOf(latOperand(n->op, 0)).elements;
      largest = e > largest ? e : largest;
    }
  }
  return largest;
}

/* A pool's window (kh x kw) and stride, after its `elements`: the table
 * keys on them as regimes, as a conv's: a 2 x 2 max pool runs at another
 * rate per element than a 3 x 3 one over a padded input or a global
 * average (a VGG's 2 x 2 pools, interpolated along elements between
 * ResNet's two, came out 250 times too slow). Named linalg pools read the
 * window off their shape-only operand, TOSA's off `kernel`; a generic that
 * reads windows, or a window of unknown size, adds nothing. */
static void addPoolWindow(LatKernel *k, MlirOperation op) {
  double window = poolWindow(op);
  if (!(window > 0))
    return;
  bool linalg = latOpHasPrefix(op, "linalg.pooling_");
  int64_t stride = latI64ArrayAttr(op, linalg ? "strides" : "stride", 0, 1);
  addField(k, "window", window);
  addField(k, "stride", (double)stride);
  size_t used = strlen(k->axes);
  snprintf(k->axes + used, sizeof k->axes - used, " window=%.0f stride=%lld",
           window, (long long)stride);
}

/* The column a transpose walks through loops (transpose_walk.h), after its
 * `elements`: the table keys on it as regimes, so that a transpose whose
 * column spills L1 (3.8 ns an element) is not interpolated among those
 * whose column stays (0.3-0.8), and the roofline prices the walk. A
 * transpose that walks no column (its innermost loop contiguous on both
 * sides) gets three 0s, one regime for all of them; one whose walk cannot
 * be read (a dynamic dim, a rank beyond LAT_MAX_RANK) gets no fields: no
 * table answers it, and the roofline prices its bytes. */
static void addTransposeWalk(LatKernel *k, MlirOperation op) {
  LatTransposeWalk walk;
  if (!latTransposeWalkOf(op, &walk))
    return;
  addField(k, "walk_k", walk.k);
  addField(k, "walk_stride", walk.stride);
  addField(k, "walk_writes", walk.writes);
  if (walk.k > 0) {
    size_t used = strlen(k->axes);
    snprintf(k->axes + used, sizeof k->axes - used,
             " walk_k=%.0f walk_stride=%.0f walk_writes=%d", walk.k,
             walk.stride, walk.writes);
  }
}

/* Appends the kernel's type: member classes joined with '+', a pattern's
 * class once (an attention root under the name its shapes call for),
 * folded views and transposes left out. */
static void kernelType(const LatGraph *g, LatKernel *k, bool batched,
                       const char *attention) {
  size_t used = 0;
  k->type[0] = '\0';
  k->typeCut = false;
  for (int i = k->root; i >= 0 && !k->typeCut; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    if (n->transparent || (n->group >= 0 && !n->groupHead))
      continue;
    const char *cls = attention && i == k->root   ? attention
                      : n->group >= 0             ? latClassName(n->groupClass)
                      : (i == k->root && batched) ? "batch_matmul"
                                                  : n->cls.name;
    size_t add = strlen(cls) + (used ? 1 : 0);
    if (used + add >= sizeof k->type) { /* whole classes or none: the */
      k->typeCut = true;                /* cost model reads the root's */
      break;
    }
    snprintf(k->type + used, sizeof k->type - used, "%s%s", used ? "+" : "",
             cls);
    used += add;
  }
}

/* The kernel outgrew a fixed-size field: say so where it is. */
static void warnLimits(MlirOperation root, const LatKernel *k) {
  char text[200];
  if (k->typeCut) {
    snprintf(text, sizeof text,
             "latency: kernel type name cut to its first classes (%zu "
             "bytes): '%.60s...'",
             sizeof k->type, k->type);
    warnAt(root, text);
  }
  if (k->fieldsCut) {
    snprintf(text, sizeof text,
             "latency: %d query fields beyond the first %d dropped",
             k->fieldsCut, LAT_MAX_FIELDS);
    warnAt(root, text);
  }
}

void latKernelDescribe(LatGraph *g, int kernel, bool warn) {
  LatKernel *k = &g->kernels[kernel];
  const LatNode *rootNode = &g->nodes[k->root];
  MlirOperation root = rootNode->op;
  bool batched = false;
  int weightCopy = -1; /* priced as the copy, not as scratch */
  k->numFields = 0;
  k->fieldsCut = 0;
  k->axes[0] = '\0';
  k->flops = 0;
  k->sizeOverflow = false;
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel) {
    bool overflows = sizeOverflows(g->nodes[i].op);
    if (warn)
      checkOp(g->nodes[i].op, &g->nodes[i], overflows);
    k->sizeOverflow |= overflows;
    k->flops += opFlops(&g->nodes[i]);
  }
  const char *attention = NULL;
  k->isCall = false;
  k->callee = mlirStringRefCreate(NULL, 0);
  if (rootNode->cls.id == LAT_CLASS_CALL)
    describeCall(k, root);
  else if (rootNode->group >= 0 && rootNode->groupClass == LAT_CLASS_ATTENTION)
    attention = describeAttention(g, k, attentionScores(g, k->root));
  else if (rootNode->cls.id == LAT_CLASS_MATMUL)
    describeMatmul(g, k, root, kernel, &batched, &weightCopy);
  else if (rootNode->cls.id == LAT_CLASS_CONV2D ||
           rootNode->cls.id == LAT_CLASS_DEPTHWISE_CONV2D ||
           rootNode->cls.id == LAT_CLASS_TRANSPOSE_CONV2D)
    describeConv(k, root);
  else if (mlirOperationGetNumResults(root) > 0) {
    double elements = largestTensor(g, k);
    addField(k, "elements", elements);
    snprintf(k->axes, sizeof k->axes, "elements=%.0f", elements);
    if (rootNode->cls.id == LAT_CLASS_POOL)
      addPoolWindow(k, root);
    if (rootNode->cls.id == LAT_CLASS_TRANSPOSE)
      addTransposeWalk(k, root);
  }
  k->accBits = rootNode->cls.id == LAT_CLASS_MATMUL ||
                       rootNode->cls.id == LAT_CLASS_CONV2D ||
                       rootNode->cls.id == LAT_CLASS_DEPTHWISE_CONV2D ||
                       rootNode->cls.id == LAT_CLASS_TRANSPOSE_CONV2D
                   ? accumulatorBits(root)
                   : 0;
  kernelType(g, k, batched, attention);
  LatShape first = mlirOperationGetNumOperands(root) > 0
                       ? latShapeOf(latOperand(root, 0))
                       : latShapeOf(latResult(root, 0));
  snprintf(k->dtype, sizeof k->dtype, "%s", first.dtype);
  snprintf(k->costDtype, sizeof k->costDtype, "%s",
           g->precision && cmDtypeIsFloat(first.dtype) ? g->precision
                                                       : first.dtype);
  if (strcmp(k->costDtype, k->dtype))
    k->accBits = 0; /* `precision=` retypes it: its own width, as costed */
  if (warn && !k->isCall && (!first.dtype[0] || first.elementBytes <= 0)) {
    char text[160];
    snprintf(text, sizeof text,
             "latency: unsupported element type '%s': bytes counted as 4 per "
             "element, compute at the device's default peak",
             first.dtype[0] ? first.dtype : "?");
    warnAt(root, text);
  }
  if (k->costDtype[0]) {
    addFieldText(k, "dtype", k->costDtype);
    if (attention)
      addFieldText(k, "kv_dtype", k->costDtype);
  }
  k->bytes = boundaryBytes(g, kernel);
  k->scratchBytes =
      latScratchBytes(g, kernel, weightCopy, &k->warmScratchBytes);
  k->epiloguePasses = latEpiloguePasses(g, kernel, &k->epilogueElements);
  k->padElements = padCopyElements(g, kernel);
  if (warn) /* printing a location is costly; imagined kernels need none */
    latLocationText(root, k->loc, sizeof k->loc);
  if (warn)
    warnLimits(root, k);
}

void latGraphDescribe(LatGraph *g) {
  for (size_t k = 0; k < g->numKernels; k++)
    latKernelDescribe(g, (int)k, true);
}
