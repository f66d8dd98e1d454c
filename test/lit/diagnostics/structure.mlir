// Module shapes the bundled models do not have: declarations (no body) are
// skipped, every function with a body gets its own total, and the ops in a
// loop's body are costed, times its trip count (control-flow.mlir has the
// rest); nothing crashes.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency -verify-diagnostics %s | FileCheck %s

// CHECK: func.func private @declared(tensor<4xf32>) -> tensor<4xf32>
// CHECK-NOT: latency.total_us
func.func private @declared(tensor<4xf32>) -> tensor<4xf32>

// CHECK-LABEL: func.func @first
// CHECK-SAME: latency.kernels = 1 : i64
func.func @first(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// CHECK-LABEL: func.func @with_loop
// CHECK-SAME: latency.kernels = 1 : i64
// CHECK: tosa.exp
// CHECK-SAME: count = 4.000000e+00 : f64
func.func @with_loop(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> (tensor<4xf32>) {
    %e = tosa.exp %t : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @empty
// CHECK-SAME: latency.kernels = 0 : i64, latency.total_us = 0.000000e+00 : f64
func.func @empty() {
  return
}
