// Attention written with the named linalg.softmax (as IREE's and some
// torch-mlir pipelines keep it) is the same attention kernel as the
// decomposed spelling: batch_matmul(Q, K^T) -> scale -> softmax -> batch_matmul(P, V).
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -verify-diagnostics %s -o /dev/null | FileCheck %s
// CHECK: in 1 kernels
// CHECK: | attention | 4 | batch=1 seq=128 kv_len=128 heads=12 kv_heads=12 head_dim=64 | f32 |
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @attn(%q: tensor<12x128x64xf32>, %kt: tensor<12x64x128xf32>, %v: tensor<12x128x64xf32>) -> tensor<12x128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e0 = tensor.empty() : tensor<12x128x128xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%f0 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %e1 = tensor.empty() : tensor<12x128x128xf32>
  %sc = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<12x128x128xf32>) outs(%e1 : tensor<12x128x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %scale : f32
    linalg.yield %m : f32
  } -> tensor<12x128x128xf32>
  %e2 = tensor.empty() : tensor<12x128x128xf32>
  %p = linalg.softmax dimension(2) ins(%sc : tensor<12x128x128xf32>) outs(%e2 : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %e3 = tensor.empty() : tensor<12x128x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<12x128x128xf32>, tensor<12x128x64xf32>) outs(%f3 : tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  return %o : tensor<12x128x64xf32>
}
