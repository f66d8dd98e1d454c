#!/usr/bin/env python3
"""Writes a VGG-style block in torch-mlir's linalg form to stdout: six 3 x 3
convs (3 -> 64 -> 64, 128, 128, 256, 256 channels; no batch norm, so the
kernels are `conv2d+relu`, a type no bundled model has) with relu, and three
2 x 2 max pools, at SIZE x SIZE pixels (default 64). Weights are splat
constants, as the bundled nelli exports print them. Used as a held-out
model for host profiles (docs/accuracy.md, "Families"):

  scripts/make-vgg-block.py 64 > vgg_block.linalg.mlir
  latency-profile --validate --profile host-profile vgg_block.linalg.mlir

usage: scripts/make-vgg-block.py [SIZE]
"""
import sys


def conv_relu(n, v, cin, cout, h):
    t_in = f"tensor<1x{cin}x{h}x{h}xf32>"
    t_pad = f"tensor<1x{cin}x{h + 2}x{h + 2}xf32>"
    t_out = f"tensor<1x{cout}x{h}x{h}xf32>"
    t_w = f"tensor<{cout}x{cin}x3x3xf32>"
    return [
        f"    %w{n} = arith.constant dense<0.0123> : {t_w}",
        f"    %pad{n} = tensor.pad {v} low[0, 0, 1, 1] high[0, 0, 1, 1] {{",
        "    ^bb0(%a: index, %b: index, %c: index, %d: index):",
        "      tensor.yield %zero : f32",
        f"    }} : {t_in} to {t_pad}",
        f"    %e{n} = tensor.empty() : {t_out}",
        f"    %f{n} = linalg.fill ins(%zero : f32) outs(%e{n} : {t_out}) -> {t_out}",
        f"    %c{n} = linalg.conv_2d_nchw_fchw {{dilations = dense<1> : "
        f"vector<2xi64>, strides = dense<1> : vector<2xi64>}} "
        f"ins(%pad{n}, %w{n} : {t_pad}, {t_w}) outs(%f{n} : {t_out}) -> {t_out}",
        f"    %r{n} = linalg.generic {{indexing_maps = [#map, #map], "
        f'iterator_types = ["parallel", "parallel", "parallel", "parallel"]}} '
        f"ins(%c{n} : {t_out}) outs(%e{n} : {t_out}) {{",
        "    ^bb0(%in: f32, %o: f32):",
        "      %g = arith.cmpf ugt, %in, %zero : f32",
        "      %s = arith.select %g, %in, %zero : f32",
        "      linalg.yield %s : f32",
        f"    }} -> {t_out}",
    ]


def max_pool(n, v, c, h):
    t_in = f"tensor<1x{c}x{h}x{h}xf32>"
    t_out = f"tensor<1x{c}x{h // 2}x{h // 2}xf32>"
    return [
        f"    %pe{n} = tensor.empty() : {t_out}",
        f"    %pf{n} = linalg.fill ins(%ninf : f32) outs(%pe{n} : {t_out}) -> {t_out}",
        f"    %pw{n} = tensor.empty() : tensor<2x2xf32>",
        f"    %p{n} = linalg.pooling_nchw_max {{dilations = dense<1> : "
        f"vector<2xi64>, strides = dense<2> : vector<2xi64>}} "
        f"ins({v}, %pw{n} : {t_in}, tensor<2x2xf32>) outs(%pf{n} : {t_out}) -> {t_out}",
    ]


def main():
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    layers = [64, 64, "pool", 128, 128, "pool", 256, 256, "pool"]
    body = ["    %zero = arith.constant 0.000000e+00 : f32",
            "    %ninf = arith.constant -3.40282347E+38 : f32"]
    value, channels, h = "%arg0", 3, size
    for n, layer in enumerate(layers):
        if layer == "pool":
            body += max_pool(n, value, channels, h)
            value, h = f"%p{n}", h // 2
        else:
            body += conv_relu(n, value, channels, layer, h)
            value, channels = f"%r{n}", layer
    result = f"tensor<1x{channels}x{h}x{h}xf32>"
    print("#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>")
    print("module {")
    print(f"  func.func @forward(%arg0: tensor<1x3x{size}x{size}xf32>) -> {result} {{")
    print("\n".join(body))
    print(f"    return {value} : {result}")
    print("  }")
    print("}")


if __name__ == "__main__":
    main()
