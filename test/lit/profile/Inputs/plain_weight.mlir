// transposed_weight.mlir's linear layer with its weight already [k, n]:
// no transposed copy on any call (weight-transposed.test).
func.func @forward(%w: tensor<512x512xf32>, %x: tensor<8x512xf32>)
    -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
  %y = linalg.matmul ins(%x, %w : tensor<8x512xf32>, tensor<512x512xf32>)
                     outs(%acc : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %y : tensor<8x512xf32>
}
