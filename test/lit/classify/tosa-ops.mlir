// Ops beyond the bundled models are classified, not reported as unknown:
// -verify-diagnostics fails on any unexpected warning.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -verify-diagnostics %s -o /dev/null | FileCheck %s
// CHECK: | conv3d | 1 |
// CHECK-SAME: compute
// CHECK: | elementwise+elementwise+elementwise+neg+elementwise+elementwise+pow | 7 |
// CHECK: | concat |
// CHECK: | reduce |
// CHECK: | reduce |
// CHECK: | sigmoid |
func.func @tosa_more(%x: tensor<1x8x8x4xf32>, %w3: tensor<8x3x3x3x4xf32>, %v: tensor<1x4x8x8x4xf32>, %a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %i: tensor<2x8xi32>) -> (tensor<2x8xf32>) {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %bias = "tosa.const"() <{values = dense<0.0> : tensor<8xf32>}> : () -> tensor<8xf32>
  %c3 = tosa.conv3d %v, %w3, %bias, %z, %z {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 1, 1, 1>} : (tensor<1x4x8x8x4xf32>, tensor<8x3x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x8x8x8xf32>
  %m = tosa.maximum %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %n = tosa.minimum %m, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %ab = tosa.abs %n : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %ng = tosa.negate %ab, %z, %z : (tensor<2x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8xf32>
  %lg = tosa.log %ng : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %fl = tosa.floor %lg : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %pw = tosa.pow %fl, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %gt = tosa.greater %pw, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xi1>
  %sel = tosa.select %gt, %pw, %b : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %cat = tosa.concat %sel, %a {axis = 0 : i32} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
  %mn = tosa.reduce_min %cat {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %am = tosa.argmax %cat {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<8xi32>
  %s = tosa.sigmoid %sel : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// tosa.clamp is ReLU with bounds (0, FLT_MAX), ReLU6 with (0, 6), else a clamp.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='fusion=false report=-' %s -o /dev/null | FileCheck %s --check-prefix=CLAMP
// CLAMP-LABEL: @clamps
// CLAMP: | relu | 1 |
// CLAMP: | relu6 | 1 |
// CLAMP: | clamp | 1 |
func.func @clamps(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>) {
  %r = tosa.clamp %x {min_val = 0.000000e+00 : f32, max_val = 3.40282347E+38 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %r6 = tosa.clamp %x {min_val = 0.000000e+00 : f32, max_val = 6.000000e+00 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %c = tosa.clamp %x {min_val = -1.000000e+00 : f32, max_val = 1.000000e+00 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %r, %r6, %c : tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8xf32>
}

// A clamp that lets every value of its type through (-inf to +inf; all of
// i8, as TFLite's int8 exports put after each rescale) is no kernel:
// upstream folds it. One bound inside the type keeps it a clamp.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='fusion=false report=-' %s -o /dev/null | FileCheck %s --check-prefix=NOOP
// NOOP-LABEL: @noop_clamps
// NOOP-SAME: in 2 kernels
// NOOP: | clamp | 1 | elements=16 | i8 |
// NOOP: | clamp | 1 | elements=16 | i8 |
func.func @noop_clamps(%x: tensor<2x8xf32>, %q: tensor<2x8xi8>) -> (tensor<2x8xf32>, tensor<2x8xi8>, tensor<2x8xi8>, tensor<2x8xi8>) {
  %f = tosa.clamp %x {min_val = 0xFF800000 : f32, max_val = 0x7F800000 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %all = tosa.clamp %q {min_val = -128 : i8, max_val = 127 : i8} : (tensor<2x8xi8>) -> tensor<2x8xi8>
  %low = tosa.clamp %q {min_val = -127 : i8, max_val = 127 : i8} : (tensor<2x8xi8>) -> tensor<2x8xi8>
  %high = tosa.clamp %q {min_val = -128 : i8, max_val = 126 : i8} : (tensor<2x8xi8>) -> tensor<2x8xi8>
  return %f, %all, %low, %high : tensor<2x8xf32>, tensor<2x8xi8>, tensor<2x8xi8>, tensor<2x8xi8>
}
