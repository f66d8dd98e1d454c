// A TOSA 1 x 1 conv over 32 channels (32 multiply-adds per output), a
// reduction convs_two_reductions.tosa.mlir does not measure.
module {
  func.func @forward(%x: tensor<1x8x8x32xf32>, %w: tensor<16x1x1x32xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x32xf32>, tensor<16x1x1x32xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
    %r = tosa.clamp %y {min_val = 0.000000e+00 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    return %r : tensor<1x8x8x16xf32>
  }
}
