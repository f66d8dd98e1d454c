/*===- buffers.c - the buffers a kernel allocates in a whole run ----------===*/
#include "buffers.h"

#include "ir_util.h"

#include <stdlib.h>
#include <string.h>

double latValueBytes(const LatGraph *g, MlirValue v) {
  LatShape s = latShapeOf(v);
  if (!s.isTensor)
    return 0;
  double size = s.elementBytes > 0 ? s.elementBytes : 4;
  if (g->precision && cmDtypeIsFloat(s.dtype))
    size = g->precisionBytes;
  return s.elements * size;
}

/* True when `v` is used outside kernel `kernel`, itself or through views
 * in the kernel (a matmul's result reshaped on its way out is the
 * kernel's output buffer). */
static bool leavesKernelThroughViews(const LatGraph *g, MlirValue v, int kernel,
                                     int depth) {
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    int n = latGraphFind(g, user);
    if (n < 0 || g->nodes[n].kernel != kernel)
      return true;
    if (g->nodes[n].cls.role != LAT_ROLE_VIEW || depth >= 8)
      continue;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++)
      if (leavesKernelThroughViews(g, latResult(user, r), kernel, depth + 1))
        return true;
  }
  return false;
}

/* True for an op that writes its results into its init operands (the
 * last operands, one per result): a linalg op in destination-passing
 * style. */
static bool writesIntoInits(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 7 && !strncmp(name.data, "linalg.", 7) &&
         mlirOperationGetNumResults(op) > 0;
}

/* True when a linalg op takes `v` as an init (`outs`) operand: in
 * destination-passing style the last operands, one per result. Its buffer
 * is then that op's result, written in place (a conv's result that batch
 * norm overwrites, a broadcast bias a matmul accumulates into). */
static bool initOfAnotherOp(MlirValue v) {
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t first =
        mlirOperationGetNumOperands(user) - mlirOperationGetNumResults(user);
    if (writesIntoInits(user) &&
        (intptr_t)mlirOpOperandGetOperandNumber(u) >= first)
      return true;
  }
  return false;
}

/* The tensor.empty result `r` of `op` is written into (its init, or the
 * init of the fill that is its init), or a null op when the init is any
 * other value: the buffer of another op or of an argument. */
static MlirOperation initEmpty(MlirOperation op, intptr_t r,
                               MlirOperation *fill) {
  MlirOperation none = {NULL};
  intptr_t first =
      mlirOperationGetNumOperands(op) - mlirOperationGetNumResults(op);
  MlirOperation p = latProducer(latOperand(op, first + r));
  *fill = none;
  if (!mlirOperationIsNull(p) && latOpIs(p, "linalg.fill")) {
    *fill = p;
    p = latProducer(latOperand(p, mlirOperationGetNumOperands(p) - 1));
  }
  return !mlirOperationIsNull(p) && latOpIs(p, "tensor.empty") ? p : none;
}

/* True when every use of every result of `writer` is an op before `op` in
 * `block` (none is `op`): the value it wrote is dead when `op` writes. */
static bool deadBefore(MlirOperation writer, MlirOperation op,
                       MlirBlock block) {
  for (intptr_t r = 0; r < mlirOperationGetNumResults(writer); r++)
    for (MlirOpOperand u = latFirstUse(latResult(writer, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (!mlirBlockEqual(mlirOperationGetBlock(user), block) ||
          mlirOperationEqual(user, op) ||
          !mlirOperationIsBeforeInBlock(user, op))
        return false;
    }
  return true;
}

/* True when an op before `op` in its block writes into `empty` too (not
 * through `fill`, `op`'s own) and its value is dead by then (deadBefore).
 * Exports share one tensor.empty among ops of different layers
 * (torch-mlir's BERT: the two layers' weight transposes), and
 * bufferization then gives them one buffer, mapped once per call; while
 * the earlier value is still read, the later write gets a buffer of its
 * own. */
static bool writtenBefore(MlirOperation empty, MlirOperation fill,
                          MlirOperation op) {
  MlirBlock block = mlirOperationGetBlock(op);
  for (MlirOpOperand u = latFirstUse(latResult(empty, 0));
       !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation writer = mlirOpOperandGetOwner(u);
    if (!mlirOperationEqual(writer, op) && !mlirOperationEqual(writer, fill) &&
        mlirBlockEqual(mlirOperationGetBlock(writer), block) &&
        mlirOperationIsBeforeInBlock(writer, op) &&
        deadBefore(writer, op, block))
      return true;
  }
  return false;
}

/* True when result `r` of `op` is written into a buffer an earlier op
 * allocated (writtenBefore). */
static bool sharesEarlierBuffer(MlirOperation op, intptr_t r) {
  MlirOperation fill;
  MlirOperation empty =
      writesIntoInits(op) ? initEmpty(op, r, &fill) : (MlirOperation){NULL};
  return !mlirOperationIsNull(empty) && writtenBefore(empty, fill, op);
}

/* True when result `r` of `op` gets a buffer of its own on each call: a
 * result of an op that does not write into inits (TOSA's ops, pads,
 * concats), or one written into a tensor.empty no earlier op writes. */
static bool ownsBuffer(MlirOperation op, intptr_t r) {
  if (!writesIntoInits(op))
    return true;
  MlirOperation fill;
  MlirOperation empty = initEmpty(op, r, &fill);
  return !mlirOperationIsNull(empty) && !writtenBefore(empty, fill, op);
}

/* Whether result `r` (`v`) of `op`, a node of kernel `kernel`, is one of
 * the buffers a count is after. */
typedef bool (*BufferTest)(const LatGraph *g, int kernel, MlirOperation op,
                           intptr_t r, MlirValue v);

enum { kMaxLiveWarm = 32 };

/* The part of a count that a whole run carves from the warm heap: each
 * buffer smaller than `below`, and the warm buffers live at once (`live`:
 * their writers and sizes) `budget` at most, taken in program order. A
 * chain of ops frees each buffer once the next op has read it, and glibc
 * serves the one after from that chunk: a TOSA conv's six buffers over a
 * 4.8 MB output use two chunks, not six (a whole MobileNet-V2 ran them at
 * the rate of warm buffers, docs/passes.md "Warm scratch bytes"). */
typedef struct {
  double below, budget;
  double bytes;
  MlirOperation live[kMaxLiveWarm];
  double liveBytes[kMaxLiveWarm];
  int numLive;
} WarmPart;

/* True when `v`, or a view or slice of it (up to a depth of 8: both
 * bufferize to views of its buffer), is read by `op` or by an op after it
 * in `block`, or outside `block`: its buffer is not free when `op`
 * writes. */
static bool readFrom(const LatGraph *g, MlirValue v, MlirOperation op,
                     MlirBlock block, int depth) {
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!mlirBlockEqual(mlirOperationGetBlock(user), block) ||
        mlirOperationEqual(user, op) || !mlirOperationIsBeforeInBlock(user, op))
      return true;
    int n = latGraphFind(g, user);
    if (n < 0 || (g->nodes[n].cls.role != LAT_ROLE_VIEW &&
                  g->nodes[n].cls.id != LAT_CLASS_SLICE))
      continue;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(user); r++)
      if (depth >= 8 || readFrom(g, latResult(user, r), op, block, depth + 1))
        return true;
  }
  return false;
}

/* True when the buffer of `size` that `op` writes is carved from the warm
 * heap of `warm`, which then counts it: smaller than its largest chunk,
 * and within its budget with the warm buffers still read at `op`. Asked in
 * program order (sumBuffers). */
static bool takeWarm(const LatGraph *g, WarmPart *warm, MlirOperation op,
                     double size) {
  if (!(size < warm->below))
    return false;
  MlirBlock block = mlirOperationGetBlock(op);
  double liveBytesTotal = size;
  int kept = 0;
  for (int i = 0; i < warm->numLive; i++) {
    bool read = false;
    for (intptr_t r = 0; !read && r < mlirOperationGetNumResults(warm->live[i]);
         r++)
      read = readFrom(g, latResult(warm->live[i], r), op, block, 0);
    if (!read)
      continue; /* its chunk is free again */
    liveBytesTotal += warm->liveBytes[i];
    warm->live[kept] = warm->live[i];
    warm->liveBytes[kept++] = warm->liveBytes[i];
  }
  warm->numLive = kept;
  if (liveBytesTotal > warm->budget || kept >= kMaxLiveWarm)
    return false;
  warm->live[warm->numLive] = op;
  warm->liveBytes[warm->numLive++] = size;
  warm->bytes += size;
  return true;
}

/* A buffer a count found, for its warm part. */
typedef struct {
  MlirOperation op;
  double size;
} Buffer;

/* True when `a` runs before `b`: by position in one block. A kernel's
 * members share one block (graph.h), where this is a total order; ops of
 * different blocks would keep the order they were found in. */
static bool runsBefore(MlirOperation a, MlirOperation b) {
  return mlirBlockEqual(mlirOperationGetBlock(a), mlirOperationGetBlock(b)) &&
         mlirOperationIsBeforeInBlock(a, b);
}

/* Takes the warm part of the `n` buffers of `found` into `warm`, in
 * program order: a kernel's members are listed from its root, and a
 * transpose of its input folded into it comes after its last op. */
static void takeWarmInOrder(const LatGraph *g, Buffer *found, size_t n,
                            WarmPart *warm) {
  for (size_t i = 1; i < n; i++) /* insertion sort: a kernel's few buffers */
    for (size_t j = i; j > 0 && runsBefore(found[j].op, found[j - 1].op); j--) {
      Buffer t = found[j];
      found[j] = found[j - 1];
      found[j - 1] = t;
    }
  for (size_t i = 0; i < n; i++)
    takeWarm(g, warm, found[i].op, found[i].size);
}

bool latNodeWritesOwnBuffer(const LatNode *node) {
  return node->cls.role != LAT_ROLE_VIEW && node->cls.id != LAT_CLASS_SLICE &&
         !latIsInitProducer(node->op);
}

/* Bytes of the results of kernel `kernel`'s nodes (but node `skip`, or -1)
 * that write buffers of their own (latNodeWritesOwnBuffer), of at least
 * `minBytes` and that `counts`, and in `warm` (or NULL) its warm part
 * (none when out of memory). */
static double sumBuffers(const LatGraph *g, int kernel, int skip,
                         double minBytes, BufferTest counts, WarmPart *warm) {
  size_t results = 0;
  for (int i = g->kernels[kernel].root; warm && i >= 0;
       i = g->nodes[i].nextInKernel)
    results += (size_t)mlirOperationGetNumResults(g->nodes[i].op);
  Buffer *found = results ? malloc(results * sizeof *found) : NULL;
  double bytes = 0;
  size_t n = 0;
  for (int i = g->kernels[kernel].root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *node = &g->nodes[i];
    if (i == skip || !latNodeWritesOwnBuffer(node))
      continue;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(node->op); r++) {
      MlirValue v = latResult(node->op, r);
      double size = latValueBytes(g, v);
      if (size < minBytes || !counts(g, kernel, node->op, r, v))
        continue;
      bytes += size;
      if (found)
        found[n++] = (Buffer){node->op, size};
    }
  }
  if (found)
    takeWarmInOrder(g, found, n, warm);
  free(found);
  return bytes;
}

/* A scratch buffer: used only inside the kernel (not through views on the
 * way out either), not another linalg op's init (that op's result is the
 * buffer), and not written into a buffer an earlier op allocated. */
static bool isScratch(const LatGraph *g, int kernel, MlirOperation op,
                      intptr_t r, MlirValue v) {
  return !initOfAnotherOp(v) && !sharesEarlierBuffer(op, r) &&
         !leavesKernelThroughViews(g, v, kernel, 0);
}

/* Bytes of the buffers kernel `kernel` allocates inside and frees before
 * it returns, counting those of at least LAT_FRESH_BUFFER_BYTES: results
 * of its costed ops used only inside it (isScratch). A matmul's transposed
 * weight is priced as the transposed copy instead (weight_transposed: node
 * `weightCopy`, or -1). A lowering that fuses ops allocates less than
 * this; the `loops` pipeline fuses none. The warm part: each buffer must
 * fit the largest free chunk (warmHeapBytes), and those live at once the
 * free chunks' total, taken as the constants' bytes (ResNet-18 TOSA: 110
 * MB free in chunks of 0.5 MB and more for 46.7 MB of constants). */
double latScratchBytes(const LatGraph *g, int kernel, int weightCopy,
                       double *warmBytes) {
  WarmPart warm = {.below = g->warmHeapBytes,
                   .budget = g->warmHeapBytes * 3 / 2};
  double bytes = sumBuffers(g, kernel, weightCopy, LAT_FRESH_BUFFER_BYTES,
                            isScratch, &warm);
  *warmBytes = warm.bytes;
  return bytes;
}

/* Adds the bytes of a constant tensor (arith.constant, tosa.const: their
 * data, elided or not, becomes the module's; a zero splat does not) to
 * `*bytes`. */
static MlirWalkResult addConstantBytes(MlirOperation op, void *bytes) {
  if ((!latOpIs(op, "arith.constant") && !latOpIs(op, "tosa.const")) ||
      mlirOperationGetNumResults(op) != 1 ||
      latIsZeroSplat(latConstantValue(latResult(op, 0))))
    return MlirWalkResultAdvance;
  LatShape s = latShapeOf(latResult(op, 0));
  if (s.isTensor && !s.overflow)
    *(double *)bytes += s.elements * (s.elementBytes > 0 ? s.elementBytes : 4);
  return MlirWalkResultAdvance;
}

double latModuleWarmHeapBytes(MlirOperation module) {
  double bytes = 0;
  mlirOperationWalk(module, addConstantBytes, &bytes, MlirWalkPreOrder);
  return bytes * 2 / 3;
}

/* How `v` leaves kernel `kernel` directly (not through a view): read by
 * an op outside it, and returned by the function. */
static void directUses(const LatGraph *g, MlirValue v, int kernel,
                       bool *readOutside, bool *returned) {
  *readOutside = *returned = false;
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    int n = latGraphFind(g, user);
    if (latOpIs(user, "func.return"))
      *returned = true;
    else if (n < 0 || g->nodes[n].kernel != kernel)
      *readOutside = true;
  }
}

/* A fresh result (latFreshResultBytes): read directly by another kernel,
 * not returned by the function, and a buffer of its own (ownsBuffer). */
static bool isFreshResult(const LatGraph *g, int kernel, MlirOperation op,
                          intptr_t r, MlirValue v) {
  bool readOutside, returned;
  directUses(g, v, kernel, &readOutside, &returned);
  return readOutside && !returned && ownsBuffer(op, r);
}

/* Bytes of kernel `kernel`'s results of at least `minBytes` that other
 * kernels read and the function frees before it returns,
 * counted where their buffer is allocated (ownsBuffer: a matmul
 * accumulating into a bias broadcast from another kernel writes that
 * kernel's buffer). Only results that leave the kernel directly: the
 * kernel measured alone returns them, and its result becomes the caller's
 * warm out-parameter. One that leaves through a view (a reshape) is
 * allocated and copied out alone as well, its pages in the measurement;
 * and the function's own results are the caller's buffers in both. */
double latFreshResultBytes(const LatGraph *g, int kernel, double minBytes) {
  return sumBuffers(g, kernel, -1, minBytes, isFreshResult, NULL);
}
