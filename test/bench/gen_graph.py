#!/usr/bin/python3
"""Writes a synthetic linalg-on-tensors graph with about N ops: a chain of
blocks matmul -> add(bias) -> exp -> mul, each 64x64 f32, each block feeding
the next. Every block is one fusion kernel (matmul+add+exp+mul), so the
annotate pass does real work per op.

usage: gen_graph.py N > graph.mlir
"""
import sys

n = int(sys.argv[1])
blocks = max(1, n // 4)
t = "tensor<64x64xf32>"
out = [f"func.func @chain(%x: {t}, %w: {t}, %b: {t}) -> {t} {{",
       f"  %e = tensor.empty() : {t}"]
prev = "%x"
for i in range(blocks):
    out.append(f"  %m{i} = linalg.matmul ins({prev}, %w : {t}, {t}) outs(%e : {t}) -> {t}")
    out.append(f"  %a{i} = linalg.add ins(%m{i}, %b : {t}, {t}) outs(%e : {t}) -> {t}")
    out.append(f"  %x{i} = linalg.exp ins(%a{i} : {t}) outs(%e : {t}) -> {t}")
    out.append(f"  %y{i} = linalg.mul ins(%x{i}, %a{i} : {t}, {t}) outs(%e : {t}) -> {t}")
    prev = f"%y{i}"
out.append(f"  return {prev} : {t}")
out.append("}")
print("\n".join(out))
