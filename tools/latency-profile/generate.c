/*===- generate.c - kernels of a known family at any shape ----------------===*
 *
 * Families: conv2d / depthwise_conv2d (NCHW, or NHWC with an FHWC weight
 * when the shape says `channels_last=1`, as TOSA's convs lower; square
 * output and window, padding k/2 by tensor.pad) with any of +batchnorm,
 * +add, +relu in that order; matmul with any of +add (a bias), +relu, its
 * weight an argument [k, n] or, when the shape says `weight_transposed=1`,
 * [n, k] transposed by a linalg.transpose on every call; and the
 * elementwise relu, add and mul over `elements`; and plain attention
 * (generate_attention.c). Weights and parameters
 * are arguments, so nothing folds. The text is generated; the pass's
 * detection decides what it is (generated rows are keyed by what it finds,
 * shapes.c).
 *
 *===----------------------------------------------------------------------===*/
#include "generate.h"
#include "generate_attention.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int anchor; /* 0 conv2d, 1 depthwise_conv2d, 2 matmul, 3 elementwise */
  const char *elementwise;   /* relu, add, mul (anchor 3)              */
  bool batchnorm, add, relu; /* epilogues, in this order               */
} Family;

static bool parseFamily(const char *type, Family *f) {
  char copy[192];
  snprintf(copy, sizeof copy, "%s", type);
  memset(f, 0, sizeof *f);
  char *save = NULL;
  char *word = strtok_r(copy, "+", &save);
  static const char *const anchors[] = {"conv2d", "depthwise_conv2d", "matmul"};
  f->anchor = 3;
  for (int a = 0; word && a < 3; a++)
    if (!strcmp(word, anchors[a]))
      f->anchor = a;
  if (f->anchor == 3) {
    static const char *const ops[] = {"relu", "add", "mul"};
    for (int i = 0; word && i < 3; i++)
      if (!strcmp(word, ops[i]))
        f->elementwise = ops[i];
    return f->elementwise && !strtok_r(NULL, "+", &save);
  }
  int stage = 0; /* epilogues must come in order: batchnorm, add, relu */
  while ((word = strtok_r(NULL, "+", &save))) {
    bool bn = !strcmp(word, "batchnorm") && f->anchor != 2 && stage < 1;
    bool add = !strcmp(word, "add") && stage < 2;
    bool relu = !strcmp(word, "relu") && stage < 3;
    if (!bn && !add && !relu)
      return false;
    f->batchnorm |= bn, f->add |= add, f->relu |= relu;
    stage = bn ? 1 : add ? 2 : 3;
  }
  return true;
}

static bool isFloatType(const char *dtype) {
  return dtype && (!strcmp(dtype, "f32") || !strcmp(dtype, "f16") ||
                   !strcmp(dtype, "bf16"));
}

bool lpCanGenerate(const LpShape *shape) {
  Family f;
  return (lpIsPlainAttention(shape) ||
          (parseFamily(shape->type, &f) && f.anchor != 3)) &&
         isFloatType(lpShapeField(shape, "dtype"));
}

long lpGeneratedField(const LpShape *shape, const char *name, const char *axis,
                      double value) {
  if (axis && !strcmp(axis, name))
    return lround(value);
  const char *text = lpShapeField(shape, name);
  return text ? lround(strtod(text, NULL)) : -1;
}

static long exactRoot(long n) {
  long r = lround(sqrt((double)n));
  return r > 0 && r * r == n ? r : -1;
}

static void iterators(LpText *t, int rank) {
  lpTextPut(t, "iterator_types = [");
  for (int i = 0; i < rank; i++)
    lpTextPut(t, "%s\"parallel\"", i ? ", " : "");
  lpTextPut(t, "]");
}

/* Batch norm in the form the exporters write it: (x - mean) * rsqrt(var +
 * eps) * gamma + beta, one generic, per-channel parameters (#ch). */
static void batchnorm(LpText *t, const char *T, const char *out,
                      const char *param, int rank) {
  lpTextPut(
      t, "  %%bn = linalg.generic {indexing_maps = [#id, #ch, #ch, #ch, #ch, "
         "#id], ");
  iterators(t, rank);
  lpTextPut(t,
            "} ins(%%v, %%gamma, %%beta, %%mean, %%var : %s, %s, %s, %s, %s) "
            "outs(%%v : %s) {\n"
            "  ^bb0(%%x: %s, %%g: %s, %%b: %s, %%m: %s, %%s: %s, %%o: %s):\n"
            "    %%eps = arith.constant 1.0e-05 : %s\n"
            "    %%a = arith.addf %%s, %%eps : %s\n"
            "    %%r = math.rsqrt %%a : %s\n"
            "    %%d = arith.subf %%x, %%m : %s\n"
            "    %%n = arith.mulf %%d, %%r : %s\n"
            "    %%y = arith.mulf %%n, %%g : %s\n"
            "    %%z = arith.addf %%y, %%b : %s\n"
            "    linalg.yield %%z : %s\n  } -> %s\n",
            out, param, param, param, param, out, T, T, T, T, T, T, T, T, T, T,
            T, T, T, T, out);
}

/* An elementwise generic over `ins` (names and maps given), with `body`
 * computing %z from %x (and %w), assigned to `%result`. */
static void elementwise(LpText *t, const char *result, const char *ins,
                        const char *types, const char *maps, const char *args,
                        const char *body, const char *T, const char *out,
                        int rank) {
  lpTextPut(t, "  %%%s = linalg.generic {indexing_maps = [%s, #id], ", result,
            maps);
  iterators(t, rank);
  lpTextPut(t,
            "} ins(%s : %s) outs(%%e : %s) {\n  ^bb0(%s, %%o: %s):\n%s"
            "    linalg.yield %%z : %s\n  } -> %s\n",
            ins, types, out, args, T, body, T, out);
}

/* Writes the epilogues of `f` after %v; returns the last value's name. */
static const char *epilogues(LpText *t, const Family *f, const char *T,
                             const char *out, const char *param,
                             const char *second, int rank) {
  char body[256], types[160], args[96];
  const char *last = "v";
  if (f->batchnorm) {
    batchnorm(t, T, out, param, rank);
    last = "bn";
  }
  if (f->add) {
    snprintf(body, sizeof body, "    %%z = arith.addf %%x, %%w : %s\n", T);
    snprintf(types, sizeof types, "%s, %s", out, second);
    snprintf(args, sizeof args, "%%x: %s, %%w: %s", T, T);
    char ins[64];
    snprintf(ins, sizeof ins, "%%%s, %%second", last);
    elementwise(t, "sum", ins, types, rank == 4 ? "#id, #id" : "#id, #ch", args,
                body, T, out, rank);
    last = "sum";
  }
  if (f->relu) {
    snprintf(body, sizeof body,
             "    %%zero = arith.constant 0.0 : %s\n"
             "    %%c = arith.cmpf ugt, %%x, %%zero : %s\n"
             "    %%z = arith.select %%c, %%x, %%zero : %s\n",
             T, T, T);
    snprintf(args, sizeof args, "%%x: %s", T);
    char ins[32];
    snprintf(ins, sizeof ins, "%%%s", last);
    elementwise(t, "act", ins, out, "#id", args, body, T, out, rank);
    last = "act";
  }
  return last;
}

/* The function's header: activation, weight, then the epilogues' inputs. */
static void header(LpText *t, const Family *f, const char *in, const char *w,
                   const char *param, const char *second, const char *out) {
  lpTextPut(t, "func.func @forward(%%x0: %s, %%w0: %s", in, w);
  if (f->batchnorm)
    lpTextPut(t, ", %%gamma: %s, %%beta: %s, %%mean: %s, %%var: %s", param,
              param, param, param);
  if (f->add)
    lpTextPut(t, ", %%second: %s", second);
  lpTextPut(t, ") -> %s {\n", out);
}

static bool convolution(LpText *t, const Family *f, const LpShape *s,
                        const char *axis, double value, const char *T) {
  long b = lpGeneratedField(s, "batch", axis, value),
       cin = lpGeneratedField(s, "cin", axis, value);
  long cout = lpGeneratedField(s, "cout", axis, value);
  long stride = lpGeneratedField(s, "stride", axis, value);
  long oh = exactRoot(lpGeneratedField(s, "hw", axis, value));
  long k = exactRoot(lpGeneratedField(s, "window", axis, value));
  if (f->anchor == 1) /* depthwise: one filter per channel */
    cin = cout = axis && !strcmp(axis, "cin") ? cin : cout;
  long pad = k / 2, h = (oh - 1) * stride + k - 2 * pad;
  if (b < 1 || cin < 1 || cout < 1 || stride < 1 || oh < 1 || k < 1 || h < 1)
    return false;
  /* channels last as TOSA lowers its convs (conv_2d_nhwc_fhwc): the loop
     nest of their own regime, docs/profiling.md "Channels last" */
  bool last = lpChannelsLast(s); /* a regime key: the sweep never moves it */
  char in[96], padded[96], w[96], out[96], param[48];
  const char *rank4 = "tensor<%ldx%ldx%ldx%ldx%s>";
  if (last) {
    snprintf(in, sizeof in, rank4, b, h, h, cin, T);
    snprintf(padded, sizeof padded, rank4, b, h + 2 * pad, h + 2 * pad, cin, T);
    snprintf(out, sizeof out, rank4, b, oh, oh, cout, T);
  } else {
    snprintf(in, sizeof in, rank4, b, cin, h, h, T);
    snprintf(padded, sizeof padded, rank4, b, cin, h + 2 * pad, h + 2 * pad, T);
    snprintf(out, sizeof out, rank4, b, cout, oh, oh, T);
  }
  if (f->anchor == 1 && last)
    snprintf(w, sizeof w, "tensor<%ldx%ldx%ldx%s>", k, k, cout, T);
  else if (f->anchor == 1)
    snprintf(w, sizeof w, "tensor<%ldx%ldx%ldx%s>", cout, k, k, T);
  else if (last)
    snprintf(w, sizeof w, rank4, cout, k, k, cin, T);
  else
    snprintf(w, sizeof w, rank4, cout, cin, k, k, T);
  snprintf(param, sizeof param, "tensor<%ldx%s>", cout, T);
  lpTextPut(t,
            "#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>\n"
            "#ch = affine_map<(d0, d1, d2, d3) -> (%s)>\n",
            last ? "d3" : "d1");
  header(t, f, in, w, param, out, out);
  lpTextPut(t, "  %%cst = arith.constant 0.0 : %s\n", T);
  char spatial[48]; /* the padding of each dim: the spatial ones only */
  snprintf(spatial, sizeof spatial, last ? "0, %ld, %ld, 0" : "0, 0, %ld, %ld",
           pad, pad);
  if (pad > 0)
    lpTextPut(t,
              "  %%xp = tensor.pad %%x0 low[%s] high[%s] {\n"
              "  ^bb0(%%i0: index, %%i1: index, %%i2: index, %%i3: index):\n"
              "    tensor.yield %%cst : %s\n  } : %s to %s\n",
              spatial, spatial, T, in, padded);
  lpTextPut(
      t,
      "  %%e = tensor.empty() : %s\n"
      "  %%f = linalg.fill ins(%%cst : %s) outs(%%e : %s) -> %s\n"
      "  %%v = linalg.%s {dilations = dense<1> : vector<2xi64>, strides = "
      "dense<%ld> : vector<2xi64>} ins(%s, %%w0 : %s, %s) outs(%%f : %s) -> "
      "%s\n",
      out, T, out, out,
      f->anchor == 1
          ? (last ? "depthwise_conv_2d_nhwc_hwc" : "depthwise_conv_2d_nchw_chw")
          : (last ? "conv_2d_nhwc_fhwc" : "conv_2d_nchw_fchw"),
      stride, pad > 0 ? "%xp" : "%x0", pad > 0 ? padded : in, w, out, out);
  lpTextPut(t, "  return %%%s : %s\n}\n",
            epilogues(t, f, T, out, param, out, 4), out);
  return true;
}

static bool matmul(LpText *t, const Family *f, const LpShape *s,
                   const char *axis, double value, const char *T) {
  long m = lpGeneratedField(s, "m", axis, value),
       n = lpGeneratedField(s, "n", axis, value);
  long k = lpGeneratedField(s, "k", axis, value);
  if (m < 1 || n < 1 || k < 1 || lpShapeField(s, "batch"))
    return false;
  bool transpose = axis && !strcmp(axis, "weight_transposed")
                       ? value == 1
                       : lpTransposesWeight(s);
  char a[64], w[64], wArg[64], out[64], bias[48];
  snprintf(a, sizeof a, "tensor<%ldx%ldx%s>", m, k, T);
  snprintf(w, sizeof w, "tensor<%ldx%ldx%s>", k, n, T);
  snprintf(wArg, sizeof wArg, "tensor<%ldx%ldx%s>", transpose ? n : k,
           transpose ? k : n, T);
  snprintf(out, sizeof out, "tensor<%ldx%ldx%s>", m, n, T);
  snprintf(bias, sizeof bias, "tensor<%ldx%s>", n, T);
  lpTextPut(t, "#id = affine_map<(d0, d1) -> (d0, d1)>\n"
               "#ch = affine_map<(d0, d1) -> (d1)>\n");
  header(t, f, a, wArg, bias, bias, out);
  if (transpose)
    lpTextPut(t,
              "  %%we = tensor.empty() : %s\n"
              "  %%wt = linalg.transpose ins(%%w0 : %s) outs(%%we : %s) "
              "permutation = [1, 0]\n",
              w, wArg, w);
  lpTextPut(
      t,
      "  %%cst = arith.constant 0.0 : %s\n"
      "  %%e = tensor.empty() : %s\n"
      "  %%f = linalg.fill ins(%%cst : %s) outs(%%e : %s) -> %s\n"
      "  %%v = linalg.matmul ins(%%x0, %%%s : %s, %s) outs(%%f : %s) -> %s\n",
      T, out, T, out, out, transpose ? "wt" : "w0", a, w, out, out);
  lpTextPut(t, "  return %%%s : %s\n}\n",
            epilogues(t, f, T, out, bias, bias, 2), out);
  return true;
}

static bool pointwise(LpText *t, const Family *f, const LpShape *s,
                      const char *axis, double value, const char *T) {
  long n = lpGeneratedField(s, "elements", axis, value);
  if (n < 1)
    return false;
  char out[48], body[200], args[64], types[112];
  snprintf(out, sizeof out, "tensor<%ldx%s>", n, T);
  bool relu = !strcmp(f->elementwise, "relu");
  lpTextPut(t,
            "#id = affine_map<(d0) -> (d0)>\n"
            "func.func @forward(%%x0: %s%s%s) -> %s {\n"
            "  %%e = tensor.empty() : %s\n",
            out, relu ? "" : ", %w0: ", relu ? "" : out, out, out);
  if (relu)
    snprintf(body, sizeof body,
             "    %%zero = arith.constant 0.0 : %s\n"
             "    %%c = arith.cmpf ugt, %%x, %%zero : %s\n"
             "    %%z = arith.select %%c, %%x, %%zero : %s\n",
             T, T, T);
  else
    snprintf(body, sizeof body, "    %%z = arith.%s %%x, %%w : %s\n",
             strcmp(f->elementwise, "add") ? "mulf" : "addf", T);
  snprintf(args, sizeof args, relu ? "%%x: %s" : "%%x: %s, %%w: %s", T, T);
  snprintf(types, sizeof types, relu ? "%s" : "%s, %s", out, out);
  elementwise(t, "r", relu ? "%x0" : "%x0, %w0", types,
              relu ? "#id" : "#id, #id", args, body, T, out, 1);
  lpTextPut(t, "  return %%r : %s\n}\n", out);
  return true;
}

bool lpGenerateKernel(const LpShape *shape, const char *axis, double value,
                      char *out, size_t size) {
  Family f;
  const char *T = lpShapeField(shape, "dtype");
  LpText t = {out, size, 0};
  if (lpIsPlainAttention(shape) && isFloatType(T))
    return lpGenerateAttention(&t, shape, axis, value, T) && lpTextFits(&t);
  if (!parseFamily(shape->type, &f) || !isFloatType(T))
    return false;
  bool ok = f.anchor <= 1   ? convolution(&t, &f, shape, axis, value, T)
            : f.anchor == 2 ? matmul(&t, &f, shape, axis, value, T)
                            : pointwise(&t, &f, shape, axis, value, T);
  return ok && lpTextFits(&t);
}
