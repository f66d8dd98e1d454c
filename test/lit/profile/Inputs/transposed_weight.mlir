// A linear layer that transposes its weight at run time, as exports that
// keep weights [n, k] do: each call allocates a 1 MiB buffer for the
// transposed weight and frees it (fresh-memory.test).
func.func @forward(%w: tensor<512x512xf32>, %x: tensor<8x512xf32>)
    -> tensor<8x512xf32> {
  %zero = arith.constant 0.0 : f32
  %te = tensor.empty() : tensor<512x512xf32>
  %wt = linalg.transpose ins(%w : tensor<512x512xf32>)
                         outs(%te : tensor<512x512xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<8x512xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x512xf32>) -> tensor<8x512xf32>
  %y = linalg.matmul ins(%x, %wt : tensor<8x512xf32>, tensor<512x512xf32>)
                     outs(%acc : tensor<8x512xf32>) -> tensor<8x512xf32>
  return %y : tensor<8x512xf32>
}
