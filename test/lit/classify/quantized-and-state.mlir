// Quantized linalg matmuls are matmuls, TOSA state (a KV cache kept in a
// tosa.variable) is read in place, and weights kept as ml_program globals
// are constants: no warning, no kernel for the reads.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -verify-diagnostics %s -o /dev/null | FileCheck %s
// CHECK-LABEL: ## @qmm
// CHECK: | 0 | matmul | 1 | m=16 n=32 k=64 | i8 |
// CHECK: | 1 | matmul | 1 | m=16 n=32 k=64 | i8 |
// CHECK-LABEL: ## @step
// CHECK: in 1 kernels
// CHECK: | 0 | add | 1 | elements=128 | f32 |
// CHECK-LABEL: ## @f
// CHECK: in 1 kernels
// CHECK: | 0 | matmul | 1 | m=16 n=32 k=64 | f32 |
module {
  func.func @qmm(%a: tensor<1x16x64xi8>, %b: tensor<1x64x32xi8>, %x: tensor<16x64xi8>, %y: tensor<64x32xi8>) -> (tensor<1x16x32xi32>, tensor<16x32xi32>) {
    %za = arith.constant 0 : i32
    %e = tensor.empty() : tensor<1x16x32xi32>
    %f = linalg.fill ins(%za : i32) outs(%e : tensor<1x16x32xi32>) -> tensor<1x16x32xi32>
    %r = linalg.quantized_batch_matmul ins(%a, %b, %za, %za : tensor<1x16x64xi8>, tensor<1x64x32xi8>, i32, i32) outs(%f : tensor<1x16x32xi32>) -> tensor<1x16x32xi32>
    %e2 = tensor.empty() : tensor<16x32xi32>
    %f2 = linalg.fill ins(%za : i32) outs(%e2 : tensor<16x32xi32>) -> tensor<16x32xi32>
    %r2 = linalg.quantized_matmul ins(%x, %y, %za, %za : tensor<16x64xi8>, tensor<64x32xi8>, i32, i32) outs(%f2 : tensor<16x32xi32>) -> tensor<16x32xi32>
    return %r, %r2 : tensor<1x16x32xi32>, tensor<16x32xi32>
  }
  tosa.variable @kv_cache = dense<0.0> : tensor<1x8x16xf32>
  func.func @step(%x: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
    %c = tosa.variable_read @kv_cache : tensor<1x8x16xf32>
    %y = tosa.add %c, %x : (tensor<1x8x16xf32>, tensor<1x8x16xf32>) -> tensor<1x8x16xf32>
    tosa.variable_write @kv_cache, %y : tensor<1x8x16xf32>
    return %y : tensor<1x8x16xf32>
  }
  ml_program.global private @w(dense<1.0> : tensor<64x32xf32>) : tensor<64x32xf32>
  func.func @f(%x: tensor<16x64xf32>) -> tensor<16x32xf32> {
    %w = ml_program.global_load_const @w : tensor<64x32xf32>
    %z = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<16x32xf32>
    %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x32xf32>) -> tensor<16x32xf32>
    %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x32xf32>) outs(%f : tensor<16x32xf32>) -> tensor<16x32xf32>
    return %r : tensor<16x32xf32>
  }
}
