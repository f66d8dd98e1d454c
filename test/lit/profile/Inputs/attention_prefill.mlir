// Prefill attention over 8 tokens, two heads of 16: Q K^T, scale, softmax,
// P V, as generate_attention.c writes it (for the sweep's attention test).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @forward(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 4.0 : f32
  %et = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x8x16xf32>) outs(%et : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x16x8xf32>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %es = tensor.empty() : tensor<2x8x8xf32>
  %fs = linalg.fill ins(%zero : f32) outs(%es : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%qc, %kc : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%fs : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s1 = tensor.expand_shape %s0 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %e4 = tensor.empty() : tensor<1x2x8x8xf32>
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<1x2x8x8xf32>) outs(%e4 : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.divf %a, %scale : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x8xf32>
  %er = tensor.empty() : tensor<1x2x8x1xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%er : tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<1x2x8x8xf32>) outs(%fm : tensor<1x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.maximumf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x1xf32>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %mx : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%e4 : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %x = arith.subf %a, %m : f32
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %fz = linalg.fill ins(%zero : f32) outs(%er : tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x8x8xf32>) outs(%fz : tensor<1x2x8x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.addf %a, %o : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) outs(%e4 : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %x = arith.divf %a, %m : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x8xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf32> into tensor<2x8x8xf32>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %eo = tensor.empty() : tensor<2x8x16xf32>
  %fo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o0 = linalg.batch_matmul ins(%pc, %vc : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%fo : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o1 = tensor.expand_shape %o0 [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf32> into tensor<1x2x8x16xf32>
  return %o1 : tensor<1x2x8x16xf32>
}
