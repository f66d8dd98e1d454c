// Half-precision products for converted-chain.test: TOSA 1 x 1 convs in
// f16 over 64 channels accumulating in f16 and in f32, one over 16
// channels (a reduction LLVM unrolls), and a linalg f16 matmul with an f32
// result (its accumulator), k = 96. Arguments, not constants: nothing folds.
func.func @forward(%x: tensor<1x14x14x64xf16>, %w: tensor<64x1x1x64xf16>,
                   %b: tensor<64xf16>, %x16: tensor<1x14x14x16xf16>,
                   %w16: tensor<64x1x1x16xf16>, %a: tensor<64x96xf16>,
                   %m: tensor<96x32xf16>)
    -> (tensor<1x14x14x64xf16>, tensor<1x14x14x64xf16>,
        tensor<1x14x14x64xf16>, tensor<64x32xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %c16 = "tosa.conv2d"(%x, %w, %b, %zp, %zp) <{acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x14x14x64xf16>, tensor<64x1x1x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x14x14x64xf16>
  %c32 = "tosa.conv2d"(%x, %w, %b, %zp, %zp) <{acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x14x14x64xf16>, tensor<64x1x1x64xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x14x14x64xf16>
  %short = "tosa.conv2d"(%x16, %w16, %b, %zp, %zp) <{acc_type = f16, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}> : (tensor<1x14x14x16xf16>, tensor<64x1x1x16xf16>, tensor<64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x14x14x64xf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %mm = linalg.matmul ins(%a, %m : tensor<64x96xf16>, tensor<96x32xf16>)
                      outs(%acc : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %c16, %c32, %short, %mm : tensor<1x14x14x64xf16>, tensor<1x14x14x64xf16>, tensor<1x14x14x64xf16>, tensor<64x32xf32>
}
