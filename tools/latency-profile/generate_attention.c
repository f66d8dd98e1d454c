/*===- generate_attention.c - prefill attention at any sequence length ----===*
 *
 * The bundled transformers run attention at 5 and 12 tokens (the buddy
 * BERT exports), where through `loops` a multiply-add of its two matmuls
 * costs 0.35 ns; at 512 tokens it costs 1.56 (two heads of 64, session 17:
 * the score matrix and the columns of K^T outgrow the caches). Measured
 * only at the models' lengths, the profile prices every longer sequence at
 * the short one's rate (a GPT-2 block at 64 tokens: 4x too fast), so the
 * sweep measures attention along the sequence too.
 *
 * The kernel is written as the exporters write it (bert_tiny's cut-out,
 * minus its mask and layout copies): Q, K, V as [batch, heads, seq,
 * head_dim] arguments; K transposed by a generic; batch_matmul of the
 * collapsed Q and K^T; a scale; softmax as max, subtract-and-exp, sum and
 * divide generics; batch_matmul with V; the result expanded back. The
 * pass's attention template (passes/detect_patterns.c) finds it, and the
 * row is keyed by what it finds. Plain multi-head attention only: K and V
 * have the query's heads, no sliding window, one element type.
 *
 *===----------------------------------------------------------------------===*/
#include "generate_attention.h"
#include "generate.h"

#include <math.h>
#include <string.h>

bool lpIsPlainAttention(const LpShape *shape) {
  if (strcmp(shape->type, "attention"))
    return false;
  const char *dtype = lpShapeField(shape, "dtype");
  const char *kvDtype = lpShapeField(shape, "kv_dtype");
  double heads = lpShapeNumber(shape, "heads");
  double kvHeads = lpShapeNumber(shape, "kv_heads");
  double window = lpShapeNumber(shape, "window");
  return dtype && (!kvDtype || !strcmp(kvDtype, dtype)) &&
         (isnan(kvHeads) || kvHeads == heads) && (isnan(window) || window == 0);
}

/* -inf in element type `T` as MLIR spells it: a hexadecimal literal of the
 * type's own width (0xFF800000 is out of range for f16). */
static const char *negativeInfinity(const char *T) {
  return !strcmp(T, "f16")    ? "0xFC00"
         : !strcmp(T, "bf16") ? "0xFF80"
                              : "0xFF800000";
}

/* A generic named %`result` whose `body` computes %z from its block
 * arguments `args` (an empty body: it yields %a, a copy). */
static void scoresGeneric(LpText *t, const char *result, const char *maps,
                          const char *iterators, const char *ins,
                          const char *types, const char *init,
                          const char *outType, const char *args,
                          const char *body, const char *T) {
  lpTextPut(t,
            "  %%%s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[%s]} ins(%s : %s) outs(%%%s : %s) {\n"
            "  ^bb0(%s):\n%s    linalg.yield %%%s : %s\n  } -> %s\n",
            result, maps, iterators, ins, types, init, outType, args, body,
            body[0] ? "z" : "a", T, outType);
}

bool lpGenerateAttention(LpText *t, const LpShape *s, const char *axis,
                         double value, const char *T) {
  long b = lpGeneratedField(s, "batch", axis, value);
  long h = lpGeneratedField(s, "heads", axis, value);
  long n = lpGeneratedField(s, "seq", axis, value);
  long d = lpGeneratedField(s, "head_dim", axis, value);
  if (b < 1 || h < 1 || n < 1 || d < 1)
    return false;
  char qkv[128], kt[128], sc[128], row[128], flatQ[128], flatK[128], flatS[128];
  snprintf(qkv, sizeof qkv, "tensor<%ldx%ldx%ldx%ldx%s>", b, h, n, d, T);
  snprintf(kt, sizeof kt, "tensor<%ldx%ldx%ldx%ldx%s>", b, h, d, n, T);
  snprintf(sc, sizeof sc, "tensor<%ldx%ldx%ldx%ldx%s>", b, h, n, n, T);
  snprintf(row, sizeof row, "tensor<%ldx%ldx%ldx1x%s>", b, h, n, T);
  snprintf(flatQ, sizeof flatQ, "tensor<%ldx%ldx%ldx%s>", b * h, n, d, T);
  snprintf(flatK, sizeof flatK, "tensor<%ldx%ldx%ldx%s>", b * h, d, n, T);
  snprintf(flatS, sizeof flatS, "tensor<%ldx%ldx%ldx%s>", b * h, n, n, T);
  const char *parallel4 = "\"parallel\", \"parallel\", \"parallel\", "
                          "\"parallel\"";
  const char *rows4 = "\"parallel\", \"parallel\", \"parallel\", "
                      "\"reduction\"";
  char one[32], two[40], sub[160], body[200], types[272];
  snprintf(one, sizeof one, "%%a: %s, %%o: %s", T, T);
  snprintf(two, sizeof two, "%%a: %s, %%m: %s, %%o: %s", T, T, T);
  lpTextPut(t,
            "#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>\n"
            "#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>\n"
            "#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>\n"
            "func.func @forward(%%q: %s, %%k: %s, %%v: %s) -> %s {\n"
            "  %%zero = arith.constant 0.0 : %s\n"
            "  %%ninf = arith.constant %s : %s\n"
            "  %%scale = arith.constant %.17e : %s\n"
            "  %%ekt = tensor.empty() : %s\n",
            qkv, qkv, qkv, qkv, T, negativeInfinity(T), T, sqrt((double)d), T,
            kt);
  scoresGeneric(t, "kt", "#id, #tr", parallel4, "%k", qkv, "ekt", kt, one, "",
                T);
  lpTextPut(
      t,
      "  %%qc = tensor.collapse_shape %%q [[0, 1], [2], [3]] : %s into %s\n"
      "  %%kc = tensor.collapse_shape %%kt [[0, 1], [2], [3]] : %s into %s\n"
      "  %%es = tensor.empty() : %s\n"
      "  %%fs = linalg.fill ins(%%zero : %s) outs(%%es : %s) -> %s\n"
      "  %%s0 = linalg.batch_matmul ins(%%qc, %%kc : %s, %s) outs(%%fs : %s) "
      "-> %s\n"
      "  %%s1 = tensor.expand_shape %%s0 [[0, 1], [2], [3]] output_shape "
      "[%ld, %ld, %ld, %ld] : %s into %s\n"
      "  %%e4 = tensor.empty() : %s\n"
      "  %%er = tensor.empty() : %s\n"
      "  %%fm = linalg.fill ins(%%ninf : %s) outs(%%er : %s) -> %s\n"
      "  %%fz = linalg.fill ins(%%zero : %s) outs(%%er : %s) -> %s\n",
      qkv, flatQ, kt, flatK, flatS, T, flatS, flatS, flatQ, flatK, flatS, flatS,
      b, h, n, n, flatS, sc, sc, row, T, row, row, T, row, row);
  snprintf(body, sizeof body, "    %%z = arith.divf %%a, %%scale : %s\n", T);
  scoresGeneric(t, "s2", "#id, #id", parallel4, "%s1", sc, "e4", sc, one, body,
                T);
  snprintf(body, sizeof body, "    %%z = arith.maximumf %%a, %%o : %s\n", T);
  scoresGeneric(t, "mx", "#id, #row", rows4, "%s2", sc, "fm", row, one, body,
                T);
  snprintf(types, sizeof types, "%s, %s", sc, row);
  snprintf(sub, sizeof sub,
           "    %%x = arith.subf %%a, %%m : %s\n"
           "    %%z = math.exp %%x : %s\n",
           T, T);
  scoresGeneric(t, "ex", "#id, #row, #id", parallel4, "%s2, %mx", types, "e4",
                sc, two, sub, T);
  snprintf(body, sizeof body, "    %%z = arith.addf %%a, %%o : %s\n", T);
  scoresGeneric(t, "sm", "#id, #row", rows4, "%ex", sc, "fz", row, one, body,
                T);
  snprintf(body, sizeof body, "    %%z = arith.divf %%a, %%m : %s\n", T);
  scoresGeneric(t, "p", "#id, #row, #id", parallel4, "%ex, %sm", types, "e4",
                sc, two, body, T);
  lpTextPut(
      t,
      "  %%pc = tensor.collapse_shape %%p [[0, 1], [2], [3]] : %s into %s\n"
      "  %%vc = tensor.collapse_shape %%v [[0, 1], [2], [3]] : %s into %s\n"
      "  %%eo = tensor.empty() : %s\n"
      "  %%fo = linalg.fill ins(%%zero : %s) outs(%%eo : %s) -> %s\n"
      "  %%o0 = linalg.batch_matmul ins(%%pc, %%vc : %s, %s) outs(%%fo : %s) "
      "-> %s\n"
      "  %%o1 = tensor.expand_shape %%o0 [[0, 1], [2], [3]] output_shape "
      "[%ld, %ld, %ld, %ld] : %s into %s\n"
      "  return %%o1 : %s\n}\n",
      sc, flatS, qkv, flatQ, flatQ, T, flatQ, flatQ, flatS, flatQ, flatQ, flatQ,
      b, h, n, d, flatQ, qkv, qkv);
  return true;
}
