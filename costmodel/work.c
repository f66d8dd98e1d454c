/*===- work.c - built-in flops and bytes of known kernels -----------------===*/
#include "work.h"

#include "latency/costmodel.h"

#include <math.h>
#include <string.h>

bool cmKernelIs(const char *kernel, const char *name) {
  size_t n = strlen(name);
  return !strncmp(kernel, name, n) && (kernel[n] == '\0' || kernel[n] == '+');
}

static double sizeOf(const char *dtype) {
  double size = dtype ? cmDtypeGetSize(dtype) : 0;
  return size > 0 ? size : 4;
}

static double orDefault(double v, double fallback) {
  return isnan(v) ? fallback : v;
}

void cmBuiltinWork(const char *kernel, CmValueFn value, const void *ctx,
                   const char *dtype, const char *kvDtype, double *flops,
                   double *bytes) {
  double f = NAN, b = NAN, size = sizeOf(dtype);
  double kvSize = kvDtype && *kvDtype ? sizeOf(kvDtype) : size;
  if (cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul")) {
    double m = value(ctx, "m"), n = value(ctx, "n"), k = value(ctx, "k");
    double batch = orDefault(value(ctx, "batch"), 1);
    f = 2 * m * n * k * batch;
    b = (m * k + k * n + m * n) * batch * size;
  } else if (cmKernelIs(kernel, "attention")) {
    double s = value(ctx, "seq"), batch = orDefault(value(ctx, "batch"), 1);
    double h = value(ctx, "heads"), d = value(ctx, "head_dim");
    double kvh = orDefault(value(ctx, "kv_heads"), h);
    f = 2 * batch * s * s * h * d;
    b = batch * s * d * (2 * h * size + 2 * kvh * kvSize);
  } else if (cmKernelIs(kernel, "cross_attention")) {
    /* seq query rows against kv_len keys, no causal mask: QK^T and PV. */
    double s = value(ctx, "seq"), len = value(ctx, "kv_len");
    double batch = orDefault(value(ctx, "batch"), 1);
    double h = value(ctx, "heads"), d = value(ctx, "head_dim");
    double kvh = orDefault(value(ctx, "kv_heads"), h);
    f = 4 * batch * h * s * len * d;
    b = 2 * batch * s * h * d * size + 2 * batch * len * kvh * d * kvSize;
  } else if (cmKernelIs(kernel, "attention_decode")) {
    double len = value(ctx, "kv_len"),
           batch = orDefault(value(ctx, "batch"), 1);
    double h = value(ctx, "heads"), d = value(ctx, "head_dim");
    double kvh = orDefault(value(ctx, "kv_heads"), h);
    f = 4 * batch * h * d * len;
    b = 2 * batch * len * kvh * d * kvSize + 2 * batch * h * d * size;
  }
  double elements = value(ctx, "elements");
  if (isnan(f) && elements >= 0) { /* elementwise: two inputs, one output */
    f = elements;
    b = 3 * elements * size;
  }
  if (*flops < 0 && f >= 0)
    *flops = f;
  if (*bytes < 0 && b >= 0)
    *bytes = b;
}

double cmBuiltinTiles(const char *kernel, CmValueFn value, const void *ctx) {
  if (cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul"))
    return ceil(value(ctx, "m") / 64) * ceil(value(ctx, "n") / 128) *
           orDefault(value(ctx, "batch"), 1);
  if (cmKernelIs(kernel, "attention") || cmKernelIs(kernel, "cross_attention"))
    return orDefault(value(ctx, "batch"), 1) * value(ctx, "heads") *
           ceil(value(ctx, "seq") / 64);
  if (cmKernelIs(kernel, "attention_decode")) {
    double heads = value(ctx, "heads");
    return orDefault(value(ctx, "batch"), 1) *
           orDefault(value(ctx, "kv_heads"), heads);
  }
  return NAN;
}
