// A kernel no tier can answer (no table, and a device.csv without peaks or
// bandwidth) is warned about at its location and annotated as unknown, 0 us.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{profile=%inputs/profile-no-device-numbers})' -verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: func.func @negative_annotate_unknown_estimate
// CHECK: latency.estimate = {{{.*}}source = "unknown"{{.*}}us = 0.000000e+00 : f64}
func.func @negative_annotate_unknown_estimate(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning@+1 {{no estimate for this kernel (unknown)}}
  %0 = tosa.add %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
