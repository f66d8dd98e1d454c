// Two streaming ops with a 256 KiB buffer between them: a buffer of its own
// on every call, large enough to be mapped fresh (128 KiB or more).
#id = affine_map<(d0) -> (d0)>
func.func @scratch_chain(%a: tensor<65536xf32>) -> tensor<65536xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<65536xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %one : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %f = tensor.empty() : tensor<65536xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : tensor<65536xf32>) outs(%f : tensor<65536xf32>) {
  ^bb0(%x: f32, %y: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  return %r : tensor<65536xf32>
}
