// Two small kernels for latency-profile's tests: matmul+tanh (a matmul
// with its epilogue) and mul (a broadcast multiply), f32.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<32x64xf32>, %w: tensor<64x48xf32>,
                   %b: tensor<48xf32>) -> tensor<32x48xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x48xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x48xf32>)
                      outs(%acc : tensor<32x48xf32>) -> tensor<32x48xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.tanh %a : f32
    linalg.yield %v : f32
  } -> tensor<32x48xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %b : tensor<32x48xf32>, tensor<48xf32>) outs(%e : tensor<32x48xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %v = arith.mulf %a, %c : f32
    linalg.yield %v : f32
  } -> tensor<32x48xf32>
  return %r : tensor<32x48xf32>
}
