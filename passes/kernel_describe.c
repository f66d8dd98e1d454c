/*===- kernel_describe.c - type, axes, flops and boundary bytes of kernels -===*
 *
 * Bytes count only tensors that cross the kernel boundary: operands produced
 * outside the kernel (weights included; empty or filled init tensors are not
 * data) and results used outside it. That is why fusion pays in the
 * roofline. Problems with the IR become warnings at the op's location; the
 * kernel still gets a best-effort description.
 *
 *===----------------------------------------------------------------------===*/
#include "graph.h"

#include "ir_util.h"
#include "latency/diagnostics.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool inKernel(const LatGraph *g, MlirOperation op, int kernel) {
  int n = latGraphFind(g, op);
  return n >= 0 && g->nodes[n].kernel == kernel;
}

/* Init tensors carry no data into a kernel. */
static bool isInitProducer(MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         (latOpIs(op, "tensor.empty") || latOpIs(op, "linalg.fill"));
}

static double valueBytes(MlirValue v) {
  LatShape s = latShapeOf(v);
  return s.isTensor ? s.elements * (s.elementBytes > 0 ? s.elementBytes : 4)
                    : 0;
}

static double boundaryBytes(const LatGraph *g, int kernel) {
  double bytes = 0;
  MlirValue seen[64];
  int numSeen = 0;
  for (int i = g->kernels[kernel].root; i >= 0; i = g->nodes[i].nextInKernel) {
    MlirOperation op = g->nodes[i].op;
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(op); o++) {
      MlirValue v = mlirOperationGetOperand(op, o);
      MlirOperation producer = latProducer(v);
      if (inKernel(g, producer, kernel) || isInitProducer(producer))
        continue;
      bool dup = false;
      for (int s = 0; s < numSeen && !dup; s++)
        dup = mlirValueEqual(seen[s], v);
      if (dup)
        continue;
      if (numSeen < 64)
        seen[numSeen++] = v;
      bytes += valueBytes(v);
    }
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = mlirOperationGetResult(op, r);
      bool escapes = false;
      for (MlirOpOperand u = mlirValueGetFirstUse(v);
           !mlirOpOperandIsNull(u) && !escapes; u = mlirOpOperandGetNextUse(u))
        escapes = !inKernel(g, mlirOpOperandGetOwner(u), kernel);
      if (escapes)
        bytes += valueBytes(v);
    }
  }
  return bytes;
}

static void addField(LatKernel *k, const char *name, double value) {
  if (k->numFields == 8)
    return;
  snprintf(k->fieldText[k->numFields], sizeof k->fieldText[0], "%.17g", value);
  k->fields[k->numFields].name = name;
  k->fields[k->numFields].value = k->fieldText[k->numFields];
  k->numFields++;
}

/* Matmul axes from the result [.., m, n] and the first operand [.., m, k]. */
static double describeMatmul(LatKernel *k, MlirOperation op, bool *batched) {
  LatShape a = latShapeOf(mlirOperationGetOperand(op, 0));
  LatShape c = latShapeOf(mlirOperationGetResult(op, 0));
  if (c.rank < 2 || a.rank < 2)
    return c.elements;
  double m = (double)c.dims[c.rank - 2], n = (double)c.dims[c.rank - 1];
  double kk = (double)(a.dims[a.rank - 2] == (int64_t)m && a.rank >= 2
                           ? a.dims[a.rank - 1]
                           : a.dims[a.rank - 2]);
  double batch = c.elements / (m * n);
  *batched = batch > 1;
  addField(k, "m", m);
  addField(k, "n", n);
  addField(k, "k", kk);
  if (batch > 1)
    addField(k, "batch", batch);
  snprintf(k->axes, sizeof k->axes, "m=%.0f n=%.0f k=%.0f%s", m, n, kk,
           batch > 1 ? " batch" : "");
  if (batch > 1)
    snprintf(k->axes + strlen(k->axes), sizeof k->axes - strlen(k->axes),
             "=%.0f", batch);
  return 2 * m * n * kk * batch;
}

/* Conv work: 2 * output elements * (weight elements / output channels). */
static double describeConv(LatKernel *k, MlirOperation op) {
  LatShape in = latShapeOf(mlirOperationGetOperand(op, 0));
  LatShape w = latShapeOf(mlirOperationGetOperand(op, 1));
  LatShape out = latShapeOf(mlirOperationGetResult(op, 0));
  char name[96];
  latOpName(op, name, sizeof name);
  bool nchw = strstr(name, "nchw") != NULL;
  if (out.rank != 4 || in.rank != 4)
    return 2 * out.elements;
  int c = nchw ? 1 : 3, h = nchw ? 2 : 1;
  double cout = (double)out.dims[c], cin = (double)in.dims[c];
  double perOutput = cout > 0 ? w.elements / cout : 0;
  if (strstr(name, "depthwise") && w.elements > 0 && cin > 0)
    perOutput = w.elements / (out.dims[c] > 0 ? (double)out.dims[c] : 1);
  int64_t stride = latI64ArrayAttr(op, nchw || strstr(name, "linalg")
                                           ? "strides"
                                           : "stride",
                                   0, 1);
  addField(k, "batch", (double)out.dims[0]);
  addField(k, "hw", (double)(out.dims[h] * out.dims[h + 1]));
  addField(k, "cin", cin);
  addField(k, "cout", cout);
  addField(k, "stride", (double)stride);
  snprintf(k->axes, sizeof k->axes,
           "batch=%lld hw=%lldx%lld cin=%.0f cout=%.0f window=%.0f stride=%lld",
           (long long)out.dims[0], (long long)out.dims[h],
           (long long)out.dims[h + 1], cin, cout,
           perOutput / (strstr(name, "depthwise") ? 1 : (cin > 0 ? cin : 1)),
           (long long)stride);
  return 2 * out.elements * perOutput;
}

static void warnOnce(MlirOperation op, const char *message) {
  latEmitWarning(mlirOperationGetLocation(op), message);
}

/* Checks the shapes of a member op; warns at its location. */
static void checkOp(MlirOperation op, const LatNode *node) {
  char text[256], name[96];
  latOpName(op, name, sizeof name);
  if (node->cls.role == LAT_ROLE_UNKNOWN) {
    snprintf(text, sizeof text,
             "latency: unknown op '%s': costed as a memory-bound copy", name);
    warnOnce(op, text);
  }
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
    LatShape s = latShapeOf(mlirOperationGetResult(op, r));
    if (s.dynamic)
      warnOnce(op, "latency: dynamic shape: dynamic dims counted as 1, the "
                   "estimate is a lower bound");
    if (s.overflow)
      warnOnce(op, "latency: tensor size overflows 64-bit: estimate unknown");
    if (s.isTensor && s.elements == 0)
      latEmitRemark(mlirOperationGetLocation(op),
                    "latency: zero-sized tensor: no work");
  }
}

static void describeKernel(LatGraph *g, int kernel) {
  LatKernel *k = &g->kernels[kernel];
  MlirOperation root = g->nodes[k->root].op;
  const char *anchor = g->nodes[k->root].cls.name;
  double flops = 0;
  bool batched = false;
  k->numFields = 0;
  k->axes[0] = '\0';
  if (!strcmp(anchor, "matmul"))
    flops += describeMatmul(k, root, &batched);
  else if (strstr(anchor, "conv2d"))
    flops += describeConv(k, root);
  size_t used = 0;
  for (int i = k->root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    checkOp(n->op, n);
    if (i != k->root && mlirOperationGetNumResults(n->op) > 0)
      flops += n->cls.flopsPerElement *
               latShapeOf(mlirOperationGetResult(n->op, 0)).elements;
    if (n->transparent)
      continue;
    const char *cls = (i == k->root && batched) ? "batch_matmul" : n->cls.name;
    used += (size_t)snprintf(k->type + used, sizeof k->type - used, "%s%s",
                             used ? "+" : "", cls);
    if (used >= sizeof k->type)
      used = sizeof k->type - 1;
  }
  if (mlirOperationGetNumResults(root) > 0 && strcmp(anchor, "matmul") &&
      !strstr(anchor, "conv2d")) {
    LatShape out = latShapeOf(mlirOperationGetResult(root, 0));
    flops += g->nodes[k->root].cls.flopsPerElement * out.elements;
    addField(k, "elements", out.elements);
    snprintf(k->axes, sizeof k->axes, "elements=%.0f", out.elements);
  }
  LatShape first = mlirOperationGetNumOperands(root) > 0
                       ? latShapeOf(mlirOperationGetOperand(root, 0))
                       : latShapeOf(mlirOperationGetResult(root, 0));
  snprintf(k->dtype, sizeof k->dtype, "%s", first.dtype);
  if (!first.dtype[0] || first.elementBytes <= 0) {
    char text[160];
    snprintf(text, sizeof text,
             "latency: unsupported element type '%s': bytes counted as 4 per "
             "element, compute at the device's default peak",
             first.dtype[0] ? first.dtype : "?");
    warnOnce(root, text);
  }
  if (k->numFields < 8 && k->dtype[0]) {
    k->fields[k->numFields].name = "dtype";
    k->fields[k->numFields].value = k->dtype;
    k->numFields++;
  }
  k->flops = flops;
  k->bytes = boundaryBytes(g, kernel);
  latLocationText(root, k->loc, sizeof k->loc);
}

void latGraphDescribe(LatGraph *g) {
  for (size_t k = 0; k < g->numKernels; k++)
    describeKernel(g, (int)k);
}
