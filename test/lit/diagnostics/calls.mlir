// A func.call is one kernel that costs what its callee's kernels cost, once
// per call, with the callee's shares by source carried into the caller's
// coverage (check_report.py: totals are sums). A call to a function without
// a body in the module, or a recursive call, is warned about at the call
// and has no estimate (unknown, 0 us).
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.json' -verify-diagnostics %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python %S/../Inputs/check_report.py %t.mlir %t.json | FileCheck %s --check-prefix=REPORT
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=TABLE
// REPORT: report consistent: 6 kernels

// CHECK-LABEL: func.func private @layer
// CHECK-SAME: latency.kernels = 1 : i64, latency.total_us = [[T:[0-9.e+-]+]] : f64
func.func private @layer(%x: tensor<1x16x64xf32>, %w: tensor<1x64x64xf32>) -> tensor<1x16x64xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %x, %w, %z, %z : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %r = tosa.sigmoid %y : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %r : tensor<1x16x64xf32>
}

func.func private @external(%x: tensor<1x16x64xf32>) -> tensor<1x16x64xf32>

// CHECK-LABEL: func.func @forward
// CHECK: call @layer{{.*}}latency.estimate = {{{.*}}kernel = "call", method = "call"{{.*}}us = [[T]] : f64}
// CHECK: call @layer{{.*}}us = [[T]] : f64}
// CHECK: call @external{{.*}}source = "unknown"
// The coverage line names the calls' time, which @layer's line explains.
// TABLE: ## @forward:
// TABLE-NEXT: {{^$}}
// TABLE-NEXT: little from the tables; roofline: calls 5.4 us, their callees' lines say why
// TABLE: | 0 | call | 1 | callee=@layer |
// TABLE: | 2 | call | 1 | callee=@external | f32 | 0.000 | unknown |
func.func @forward(%x: tensor<1x16x64xf32>, %w: tensor<1x64x64xf32>) -> tensor<1x16x64xf32> {
  %a = func.call @layer(%x, %w) : (tensor<1x16x64xf32>, tensor<1x64x64xf32>) -> tensor<1x16x64xf32>
  %b = func.call @layer(%a, %w) : (tensor<1x16x64xf32>, tensor<1x64x64xf32>) -> tensor<1x16x64xf32>
  // expected-warning@+1 {{latency: call to @external, which has no body in this module: no estimate (unknown)}}
  %c = func.call @external(%b) : (tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  return %c : tensor<1x16x64xf32>
}

// CHECK-LABEL: func.func @recursive
func.func @recursive(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-warning@+1 {{latency: recursive call to @recursive: no estimate (unknown)}}
  %y = func.call @recursive(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// A callee without work is answered by the roofline of no work (0 us,
// confidence 0), not `measured`: no share of it came from a table.
// CHECK-LABEL: func.func private @no_work
func.func private @no_work(%x: tensor<4xf32>) {
  return
}

// CHECK-LABEL: func.func @calls_no_work
// CHECK: call @no_work{{.*}}confidence = 0.0{{.*}}source = "roofline", us = 0.0
func.func @calls_no_work(%x: tensor<4xf32>) {
  func.call @no_work(%x) : (tensor<4xf32>) -> ()
  return
}
