// Two TOSA convs (channels last) over 16 channels, 1 x 1 and 3 x 3: 16 and
// 144 multiply-adds per output; weights as arguments.
module {
  func.func @forward(%x: tensor<1x8x8x16xf32>, %w1: tensor<16x1x1x16xf32>, %w3: tensor<16x3x3x16xf32>, %b: tensor<16xf32>) -> tensor<1x8x8x16xf32> {
    %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
    %y1 = tosa.conv2d %x, %w1, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
    %r1 = tosa.clamp %y1 {min_val = 0.000000e+00 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    %y3 = tosa.conv2d %r1, %w3, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x16xf32>
    %r3 = tosa.clamp %y3 {min_val = 0.000000e+00 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    return %r3 : tensor<1x8x8x16xf32>
  }
}
