// A TFLite-style int8 block in TOSA (hand-written, MLIR 22 syntax): 1x1 conv
// with i32 accumulators, rescale to i8, clamp, stride-2 depthwise 3x3,
// rescale, global average pool. Used by test/lit/models/quantized_cnn_block.test.
func.func @main(%x: tensor<1x56x56x32xi8>, %w: tensor<64x1x1x32xi8>, %b: tensor<64xi32>, %dw: tensor<3x3x64x1xi8>, %db: tensor<64xi32>) -> tensor<1x1x1x64xi8> {
  %izp = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}> : () -> tensor<1xi8>
  %wzp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp32 = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %mul = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sh = "tosa.const"() <{values = dense<38> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x56x56x32xi8>, tensor<64x1x1x32xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x56x56x64xi32>
  %r = tosa.rescale %c, %mul, %sh, %zp32, %izp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x56x56x64xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x56x56x64xi8>
  %cl = tosa.clamp %r {min_val = -128 : i8, max_val = 127 : i8} : (tensor<1x56x56x64xi8>) -> tensor<1x56x56x64xi8>
  %d = tosa.depthwise_conv2d %cl, %dw, %db, %izp, %wzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x56x56x64xi8>, tensor<3x3x64x1xi8>, tensor<64xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x28x28x64xi32>
  %r2 = tosa.rescale %d, %mul, %sh, %zp32, %izp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x28x28x64xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x28x28x64xi8>
  %p = tosa.avg_pool2d %r2, %izp, %izp {acc_type = i32, kernel = array<i64: 28, 28>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x28x28x64xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x64xi8>
  return %p : tensor<1x1x1x64xi8>
}
