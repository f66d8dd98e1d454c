// A pool's and a reduction's work is a step per element read, not per
// element written: a 2 x 2 max pool compares 4 taps an output (65536
// outputs, 262144 flops), a 3 x 3 TOSA one 9 (12544 x 9 = 112896), a sum
// over a plane adds all of it (3136). Counted per output they were nothing
// (named pools) or one step (nelli SqueezeNet's 3 x 3 max pools were
// predicted ten times too fast on a host profile).
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json
// The generic form of the same pool iterates output x window, as well.
// RUN: %mlir_opt --linalg-generalize-named-ops %s | %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.generic.json' -o /dev/null
// RUN: FileCheck %s --check-prefix=GENERIC < %t.generic.json

// CHECK: "type":"pool"
// CHECK-SAME: "axes":"elements=262144 window=4 stride=2"
// CHECK-SAME: "flops":262144,
// CHECK: "type":"pool"
// CHECK-SAME: "axes":"elements=50176 window=9 stride=2"
// CHECK-SAME: "flops":112896,
// CHECK: "type":"reduce"
// CHECK-SAME: "flops":3136,
// GENERIC: "type":"pool"
// GENERIC-SAME: "flops":262144,
func.func @pools(%x: tensor<1x64x64x64xf32>, %t: tensor<1x56x56x16xf32>, %r: tensor<1x64x49xf32>) -> (tensor<1x64x32x32xf32>, tensor<1x28x28x16xf32>, tensor<1x64x1xf32>) {
  %ninf = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<1x64x32x32xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x64x64x64xf32>, tensor<2x2xf32>) outs(%f : tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %m = tosa.max_pool2d %t {kernel = array<i64: 3, 3>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x56x56x16xf32>) -> tensor<1x28x28x16xf32>
  %s = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x64x49xf32>) -> tensor<1x64x1xf32>
  return %p, %m, %s : tensor<1x64x32x32xf32>, tensor<1x28x28x16xf32>, tensor<1x64x1xf32>
}
