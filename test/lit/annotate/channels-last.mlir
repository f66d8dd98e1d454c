// Through a CPU pipeline a conv's loop nest follows its layout: the pass
// tells the cost model which (query field channels_last), and a host
// profile with channels_last_efficiency.<anchor> (latency-profile fits it
// on the channels-last convs it measured) prices channels-last convs at
// that efficiency, channels-first ones as before. Here 4 and 2 at 1
// GFLOP/s: the same 3x3 conv over 16x16x64, 18874368 flops, takes 4718.6
// us channels last and twice that channels first.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-channels-last report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "name":"tosa_nhwc"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":4718.5{{[0-9]*}},
func.func @tosa_nhwc(%x: tensor<1x16x16x64xf32>, %w: tensor<64x3x3x64xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x64xf32>, tensor<64x3x3x64xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}

// CHECK: "name":"linalg_nchw"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":9437.{{[0-9]*}},
func.func @linalg_nchw(%x: tensor<1x64x18x18xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x16x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x16x16xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x64x18x18xf32>, tensor<64x64x3x3xf32>) outs(%z : tensor<1x64x16x16xf32>) -> tensor<1x64x16x16xf32>
  return %y : tensor<1x64x16x16xf32>
}

// The same NHWC conv in linalg's spelling is channels last too.
// CHECK: "name":"linalg_nhwc"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":4718.5{{[0-9]*}},
func.func @linalg_nhwc(%x: tensor<1x18x18x64xf32>, %w: tensor<64x3x3x64xf32>) -> tensor<1x16x16x64xf32> {
  %c0 = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x16x64xf32>
  %z = linalg.fill ins(%c0 : f32) outs(%e : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  %y = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x18x18x64xf32>, tensor<64x3x3x64xf32>) outs(%z : tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}
