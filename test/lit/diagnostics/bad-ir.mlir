// Bad input never crashes mlir-opt: each problem is a diagnostic at the op's
// location and the pass still annotates a best-effort answer.
// RUN: %mlir_opt --load-pass-plugin=%plugin --allow-unregistered-dialect --annotate-latency -verify-diagnostics %s | FileCheck %s

// CHECK-LABEL: func.func @negative_annotate_dynamic_shape
// CHECK-SAME: latency.total_us
func.func @negative_annotate_dynamic_shape(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-warning@+1 {{dynamic shape: dynamic dims counted as 1}}
  %0 = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @negative_annotate_unknown_op
// CHECK: "foo.bar"{{.*}}latency.estimate = {{{.*}}source = "roofline"
func.func @negative_annotate_unknown_op(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-warning@+1 {{unknown op 'foo.bar': costed as a memory-bound copy}}
  %0 = "foo.bar"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @negative_annotate_unsupported_dtype
func.func @negative_annotate_unsupported_dtype(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-warning@+2 {{unknown op 'foo.cplx'}}
  // expected-warning@+1 {{unsupported element type}}
  %0 = "foo.cplx"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// CHECK-LABEL: func.func @negative_annotate_zero_sized
func.func @negative_annotate_zero_sized(%a: tensor<0x4xf32>, %b: tensor<0x4xf32>) -> tensor<0x4xf32> {
  // expected-warning@+2 {{unknown op 'foo.zero'}}
  // expected-remark@+1 {{zero-sized tensor: no work}}
  %0 = "foo.zero"(%a, %b) : (tensor<0x4xf32>, tensor<0x4xf32>) -> tensor<0x4xf32>
  return %0 : tensor<0x4xf32>
}

// An element count past int64 makes every figure of the kernel made up:
// it has none (source unknown), and the function's total leaves it out.
// CHECK-LABEL: func.func @negative_annotate_overflowing_dims
// CHECK-SAME: latency.total_us = 0.0
// CHECK: "foo.big"{{.*}}source = "unknown", us = 0.0
func.func @negative_annotate_overflowing_dims(%a: tensor<4294967296x4294967296x4294967296xf32>) -> tensor<4294967296x4294967296x4294967296xf32> {
  // expected-warning@+2 {{unknown op 'foo.big'}}
  // expected-warning@+1 {{tensor size overflows 64-bit}}
  %0 = "foo.big"(%a) : (tensor<4294967296x4294967296x4294967296xf32>) -> tensor<4294967296x4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296x4294967296xf32>
}
