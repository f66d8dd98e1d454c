// A channels-last conv runs at a rate set by its reduction per output
// (cin x window): a host profile with the curve
// channels_last_efficiency.conv2d.k<2^i> prices each such conv at its own
// reduction, linear in ln k between the points and the edge one beyond
// (docs/profiling.md, "Channels last, by reduction"). At 1 GFLOP/s with
// 8 at k16, 4 at k64 and 2 at k256: a 1 x 1 conv over 16 channels at 8,
// a 3 x 3 one over 16 (k144) at 4 - 2 ln(144/64) / ln 4 = 2.830, a 1 x 1
// one over 2048 at the edge, 2 (the median, 4, would give 131, 1180 and
// 16777 us). The profile's conv table, as a host profile's has, gives the
// queries their fields; its one row (stride 2) measures none of them.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-channels-last-curve report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "name":"pointwise_16"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":65.53{{[0-9]*}},
func.func @pointwise_16(%x: tensor<1x16x16x16xf32>, %w: tensor<64x1x1x16xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<64x1x1x16xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}

// CHECK: "name":"window_144"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":1667.30{{[0-9]*}},
func.func @window_144(%x: tensor<1x16x16x16xf32>, %w: tensor<64x3x3x16xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x16xf32>, tensor<64x3x3x16xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}

// CHECK: "name":"pointwise_2048"
// CHECK: "type":"conv2d"
// CHECK-SAME: "latency_us":33554.4{{[0-9]*}},
func.func @pointwise_2048(%x: tensor<1x16x16x2048xf32>, %w: tensor<64x1x1x2048xf32>, %b: tensor<64xf32>) -> tensor<1x16x16x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x16x16x2048xf32>, tensor<64x1x1x2048xf32>, tensor<64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16x64xf32>
  return %y : tensor<1x16x16x64xf32>
}
