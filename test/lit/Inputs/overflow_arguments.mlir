// Arguments of 2^32 x 2^32 x 16 f32: more bytes than any host addresses.
func.func @main(%x: tensor<4294967296x4294967296x16xf32>, %y: tensor<4294967296x4294967296x16xf32>) -> tensor<4294967296x4294967296x16xf32> {
  %e = tensor.empty() : tensor<4294967296x4294967296x16xf32>
  %a = linalg.add ins(%x, %y : tensor<4294967296x4294967296x16xf32>, tensor<4294967296x4294967296x16xf32>) outs(%e : tensor<4294967296x4294967296x16xf32>) -> tensor<4294967296x4294967296x16xf32>
  return %a : tensor<4294967296x4294967296x16xf32>
}
