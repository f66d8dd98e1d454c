// Shapes of real graphs that once crashed mlir-opt (docs/passes.md, "Fixed"
// table). Each must now annotate, exit 0 and keep its kernels sensible.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{fusion=false})' %s -o /dev/null

// A Qwen-style decoder lowered to linalg: the attention mask is a
// collapse_shape ([1, 1, s, s] -> [s, s]) placed before the scores matmul,
// so it became the attention group's first op, and the description read
// operand 1 of the collapse_shape as the scores matmul's K (null value).
// CHECK-LABEL: @attention_mask_view_first
// CHECK: | attention | 5 | batch=1 seq=40 kv_len=40 heads=1 kv_heads=1 head_dim=64 | f32 |
func.func @attention_mask_view_first(%q: tensor<40x64xf32>, %kt: tensor<64x40xf32>, %v: tensor<40x64xf32>, %mask: tensor<1x1x40x40xf32>) -> tensor<40x64xf32> {
  %mc = tensor.collapse_shape %mask [[0, 1, 2], [3]] : tensor<1x1x40x40xf32> into tensor<40x40xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x40xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<40x40xf32>) -> tensor<40x40xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<40x64xf32>, tensor<64x40xf32>) outs(%f : tensor<40x40xf32>) -> tensor<40x40xf32>
  %sm = linalg.add ins(%s, %mc : tensor<40x40xf32>, tensor<40x40xf32>) outs(%e : tensor<40x40xf32>) -> tensor<40x40xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<40x40xf32>) outs(%e : tensor<40x40xf32>) -> tensor<40x40xf32>
  %e2 = tensor.empty() : tensor<40x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<40x64xf32>) -> tensor<40x64xf32>
  %o = linalg.matmul ins(%p, %v : tensor<40x40xf32>, tensor<40x64xf32>) outs(%f2 : tensor<40x64xf32>) -> tensor<40x64xf32>
  return %o : tensor<40x64xf32>
}
