// One kernel the `loops` pipeline cannot lower: convert-linalg-to-loops
// does not decompose linalg.softmax, so the module fails to translate.
func.func @forward(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %e = tensor.empty() : tensor<8x64xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<8x64xf32>)
                                   outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
