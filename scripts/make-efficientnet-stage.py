#!/usr/bin/env python3
"""Writes an EfficientNet-B0-style stage in torch-mlir's linalg form (NCHW,
f32) to stdout, at SIZE x SIZE pixels (default 128): a 3 x 3 stride-2 stem
conv + batch norm + SiLU, then seven MBConv blocks (1 x 1 expand + batch
norm + SiLU, 3 x 3 or 5 x 5 depthwise + batch norm + SiLU, squeeze and
excitation through a global sum pool, 1 x 1 project + batch norm, a residual
add where shapes allow). Its kernel types (conv2d+batchnorm without relu,
depthwise_conv2d+batchnorm, SiLU as one generic, the SE's 1 x 1 convs on a
1 x 1 map) are ones no bundled model has, at planes up to 64 x 64. Weights
are splat constants. A held-out model for host profiles (docs/accuracy.md,
"Channels-first convs walk their input"):

  scripts/make-efficientnet-stage.py 128 > eff_stage.linalg.mlir
  latency-profile --validate --profile host-profile eff_stage.linalg.mlir

usage: scripts/make-efficientnet-stage.py [SIZE]
"""
import sys
H = int(sys.argv[1]) if len(sys.argv) > 1 else 128
out = []
n = [0]
def fresh(p):
    n[0] += 1
    return f"%{p}{n[0]}"
def t(c, h): return f"tensor<1x{c}x{h}x{h}xf32>"
def conv(v, cin, cout, h, k, s, dw=False):
    pad = k // 2
    hi = h
    ho = (h + 2 * pad - k) // s + 1
    hp = h + 2 * pad
    w = fresh("w"); p = fresh("pad"); e = fresh("e"); f = fresh("f"); c = fresh("c")
    wt = f"tensor<{cout}x{k}x{k}xf32>" if dw else f"tensor<{cout}x{cin}x{k}x{k}xf32>"
    out.append(f"    {w} = arith.constant dense<0.0123> : {wt}")
    if pad:
        out.append(f"    {p} = tensor.pad {v} low[0, 0, {pad}, {pad}] high[0, 0, {pad}, {pad}] {{\n    ^bb0(%a: index, %b: index, %cc: index, %d: index):\n      tensor.yield %zero : f32\n    }} : {t(cin, hi)} to {t(cin, hp)}")
    else:
        p = v
    out.append(f"    {e} = tensor.empty() : {t(cout, ho)}")
    out.append(f"    {f} = linalg.fill ins(%zero : f32) outs({e} : {t(cout, ho)}) -> {t(cout, ho)}")
    op = "depthwise_conv_2d_nchw_chw" if dw else "conv_2d_nchw_fchw"
    out.append(f"    {c} = linalg.{op} {{dilations = dense<1> : vector<2xi64>, strides = dense<{s}> : vector<2xi64>}} ins({p}, {w} : {t(cin, hp)}, {wt}) outs({f} : {t(cout, ho)}) -> {t(cout, ho)}")
    return c, ho
def bn(v, c, h):
    g = fresh("g"); m = fresh("bn")
    out.append(f"    {g} = arith.constant dense<0.5> : tensor<{c}xf32>")
    out.append(f"    {m} = linalg.generic {{indexing_maps = [#map, #map1, #map1, #map1, #map1, #map], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({v}, {g}, {g}, {g}, {g} : {t(c, h)}, tensor<{c}xf32>, tensor<{c}xf32>, tensor<{c}xf32>, tensor<{c}xf32>) outs({v} : {t(c, h)}) {{\n    ^bb0(%in: f32, %a1: f32, %a2: f32, %a3: f32, %a4: f32, %o: f32):\n      %x1 = arith.addf %a4, %eps : f32\n      %x2 = math.rsqrt %x1 : f32\n      %x3 = arith.subf %in, %a3 : f32\n      %x4 = arith.mulf %x3, %x2 : f32\n      %x5 = arith.mulf %x4, %a1 : f32\n      %x6 = arith.addf %x5, %a2 : f32\n      linalg.yield %x6 : f32\n    }} -> {t(c, h)}")
    return m
def unary(v, c, h, body):
    e = fresh("e"); r = fresh("u")
    out.append(f"    {e} = tensor.empty() : {t(c, h)}")
    out.append(f"    {r} = linalg.generic {{indexing_maps = [#map, #map], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({v} : {t(c, h)}) outs({e} : {t(c, h)}) {{\n    ^bb0(%in: f32, %o: f32):\n{body}    }} -> {t(c, h)}")
    return r
SILU = "      %s1 = arith.negf %in : f32\n      %s2 = math.exp %s1 : f32\n      %s3 = arith.addf %s2, %one : f32\n      %s4 = arith.divf %in, %s3 : f32\n      linalg.yield %s4 : f32\n"
SIGM = "      %s1 = arith.negf %in : f32\n      %s2 = math.exp %s1 : f32\n      %s3 = arith.addf %s2, %one : f32\n      %s4 = arith.divf %one, %s3 : f32\n      linalg.yield %s4 : f32\n"
def silu(v, c, h): return unary(v, c, h, SILU)
def se(v, c, h, r):
    pe = fresh("pe"); pf = fresh("pf"); pw = fresh("pw"); ps = fresh("ps")
    out.append(f"    {pe} = tensor.empty() : {t(c, 1)}")
    out.append(f"    {pf} = linalg.fill ins(%zero : f32) outs({pe} : {t(c, 1)}) -> {t(c, 1)}")
    out.append(f"    {pw} = tensor.empty() : tensor<{h}x{h}xf32>")
    out.append(f"    {ps} = linalg.pooling_nchw_sum {{dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}} ins({v}, {pw} : {t(c, h)}, tensor<{h}x{h}xf32>) outs({pf} : {t(c, 1)}) -> {t(c, 1)}")
    a, _ = conv(ps, c, r, 1, 1, 1)
    a = silu(a, r, 1)
    b, _ = conv(a, r, c, 1, 1, 1)
    b = unary(b, c, 1, SIGM)
    return binary(v, b, c, h, "se", "#map3", t(c, 1), "%in", "%sc", "%m1 = arith.mulf %in, %sc", "%m1")
def binary(a, b, c, h, prefix, map_b, type_b, x, y, op, r):
    """An elementwise generic over a (c x h x h) and b (indexed by map_b)."""
    e = fresh("e"); m = fresh(prefix)
    out.append(f"    {e} = tensor.empty() : {t(c, h)}")
    out.append(f"    {m} = linalg.generic {{indexing_maps = [#map, {map_b}, #map], iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\"]}} ins({a}, {b} : {t(c, h)}, {type_b}) outs({e} : {t(c, h)}) {{\n    ^bb0({x}: f32, {y}: f32, %o: f32):\n      {op} : f32\n      linalg.yield {r} : f32\n    }} -> {t(c, h)}")
    return m
def add(a, b, c, h):
    return binary(a, b, c, h, "res", "#map", t(c, h), "%x", "%y", "%a1 = arith.addf %x, %y", "%a1")
def mbconv(v, cin, cout, h, k, s, expand):
    x = v
    mid = cin * expand
    if expand != 1:
        x, _ = conv(x, cin, mid, h, 1, 1); x = silu(bn(x, mid, h), mid, h)
    x, ho = conv(x, mid, mid, h, k, s, dw=True); x = silu(bn(x, mid, ho), mid, ho)
    x = se(x, mid, ho, max(1, cin // 4))
    x, _ = conv(x, mid, cout, ho, 1, 1); x = bn(x, cout, ho)
    if s == 1 and cin == cout:
        x = add(x, v, cout, ho)
    return x, ho
v, h = conv("%arg0", 3, 32, H, 3, 2); v = silu(bn(v, 32, h), 32, h)
c = 32
for cin, cout, k, s, e in [(32, 16, 3, 1, 1), (16, 24, 3, 2, 6), (24, 24, 3, 1, 6), (24, 40, 5, 2, 6), (40, 40, 5, 1, 6), (40, 80, 3, 2, 6), (80, 112, 5, 1, 6)]:
    v, h = mbconv(v, cin, cout, h, k, s, e); c = cout
print("#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
print("#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>")
print("#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>")
print("module {")
print(f"  func.func @forward(%arg0: {t(3, H)}) -> {t(c, h)} {{")
print("    %zero = arith.constant 0.000000e+00 : f32")
print("    %one = arith.constant 1.000000e+00 : f32")
print("    %eps = arith.constant 1.000000e-05 : f32")
print("\n".join(out))
print(f"    return {v} : {t(c, h)}")
print("  }")
print("}")
