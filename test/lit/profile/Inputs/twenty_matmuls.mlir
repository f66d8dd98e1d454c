// Twenty matmuls of distinct shapes, each tens to hundreds of microseconds
// through `loops`: enough shapes for latency-profile to read its canary
// between them (every 8 shapes, docs/profiling.md), each one a canary can be.
func.func @mm1(%x: tensor<8x64xf32>, %w: tensor<64x64xf32>) -> tensor<8x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<8x64xf32>) -> tensor<8x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<8x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}
func.func @mm2(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x64xf32>) -> tensor<16x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<16x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}
func.func @mm3(%x: tensor<24x64xf32>, %w: tensor<64x64xf32>) -> tensor<24x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<24x64xf32>) -> tensor<24x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<24x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<24x64xf32>) -> tensor<24x64xf32>
  return %r : tensor<24x64xf32>
}
func.func @mm4(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
func.func @mm5(%x: tensor<40x64xf32>, %w: tensor<64x64xf32>) -> tensor<40x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<40x64xf32>) -> tensor<40x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<40x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<40x64xf32>) -> tensor<40x64xf32>
  return %r : tensor<40x64xf32>
}
func.func @mm6(%x: tensor<48x64xf32>, %w: tensor<64x64xf32>) -> tensor<48x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<48x64xf32>) -> tensor<48x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<48x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<48x64xf32>) -> tensor<48x64xf32>
  return %r : tensor<48x64xf32>
}
func.func @mm7(%x: tensor<56x64xf32>, %w: tensor<64x64xf32>) -> tensor<56x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<56x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<56x64xf32>) -> tensor<56x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<56x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<56x64xf32>) -> tensor<56x64xf32>
  return %r : tensor<56x64xf32>
}
func.func @mm8(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}
func.func @mm9(%x: tensor<72x64xf32>, %w: tensor<64x64xf32>) -> tensor<72x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<72x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<72x64xf32>) -> tensor<72x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<72x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<72x64xf32>) -> tensor<72x64xf32>
  return %r : tensor<72x64xf32>
}
func.func @mm10(%x: tensor<80x64xf32>, %w: tensor<64x64xf32>) -> tensor<80x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<80x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<80x64xf32>) -> tensor<80x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<80x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<80x64xf32>) -> tensor<80x64xf32>
  return %r : tensor<80x64xf32>
}
func.func @mm11(%x: tensor<88x64xf32>, %w: tensor<64x64xf32>) -> tensor<88x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<88x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<88x64xf32>) -> tensor<88x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<88x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<88x64xf32>) -> tensor<88x64xf32>
  return %r : tensor<88x64xf32>
}
func.func @mm12(%x: tensor<96x64xf32>, %w: tensor<64x64xf32>) -> tensor<96x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<96x64xf32>) -> tensor<96x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<96x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<96x64xf32>) -> tensor<96x64xf32>
  return %r : tensor<96x64xf32>
}
func.func @mm13(%x: tensor<104x64xf32>, %w: tensor<64x64xf32>) -> tensor<104x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<104x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<104x64xf32>) -> tensor<104x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<104x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<104x64xf32>) -> tensor<104x64xf32>
  return %r : tensor<104x64xf32>
}
func.func @mm14(%x: tensor<112x64xf32>, %w: tensor<64x64xf32>) -> tensor<112x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<112x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<112x64xf32>) -> tensor<112x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<112x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<112x64xf32>) -> tensor<112x64xf32>
  return %r : tensor<112x64xf32>
}
func.func @mm15(%x: tensor<120x64xf32>, %w: tensor<64x64xf32>) -> tensor<120x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<120x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<120x64xf32>) -> tensor<120x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<120x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<120x64xf32>) -> tensor<120x64xf32>
  return %r : tensor<120x64xf32>
}
func.func @mm16(%x: tensor<128x64xf32>, %w: tensor<64x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<128x64xf32>) -> tensor<128x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<128x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}
func.func @mm17(%x: tensor<136x64xf32>, %w: tensor<64x64xf32>) -> tensor<136x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<136x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<136x64xf32>) -> tensor<136x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<136x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<136x64xf32>) -> tensor<136x64xf32>
  return %r : tensor<136x64xf32>
}
func.func @mm18(%x: tensor<144x64xf32>, %w: tensor<64x64xf32>) -> tensor<144x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<144x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<144x64xf32>) -> tensor<144x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<144x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<144x64xf32>) -> tensor<144x64xf32>
  return %r : tensor<144x64xf32>
}
func.func @mm19(%x: tensor<152x64xf32>, %w: tensor<64x64xf32>) -> tensor<152x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<152x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<152x64xf32>) -> tensor<152x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<152x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<152x64xf32>) -> tensor<152x64xf32>
  return %r : tensor<152x64xf32>
}
func.func @mm20(%x: tensor<160x64xf32>, %w: tensor<64x64xf32>) -> tensor<160x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<160x64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<160x64xf32>) -> tensor<160x64xf32>
  %r = linalg.matmul ins(%x, %w : tensor<160x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<160x64xf32>) -> tensor<160x64xf32>
  return %r : tensor<160x64xf32>
}
