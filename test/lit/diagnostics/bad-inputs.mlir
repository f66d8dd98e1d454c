// `inputs=` names argument indices. One past a function's arguments is
// named at the function (a typo would otherwise turn every argument into a
// weight and fold its work away, silently); a negative one is an error.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='inputs=0,5' -verify-diagnostics %s -o /dev/null
// RUN: not %mlir_opt --load-pass-plugin=%plugin --annotate-latency='inputs=-1' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: latency: inputs=-1: argument indices start at 0

// expected-warning@+1 {{inputs= names argument 5, but this function has 2 arguments: that index is ignored here}}
func.func @two_arguments(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%z : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
