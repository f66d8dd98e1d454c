func.func @dw(%x: tensor<1x56x56x96xf32>) -> tensor<1x28x28x192xf32> {
  %w = "tosa.const"() <{values = dense<1.0> : tensor<3x3x96x2xf32>}> : () -> tensor<3x3x96x2xf32>
  %b = "tosa.const"() <{values = dense<0.0> : tensor<192xf32>}> : () -> tensor<192xf32>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.depthwise_conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x56x56x96xf32>, tensor<3x3x96x2xf32>, tensor<192xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x28x28x192xf32>
  return %y : tensor<1x28x28x192xf32>
}
