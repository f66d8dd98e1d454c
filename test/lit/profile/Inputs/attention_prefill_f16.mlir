// attention_prefill.mlir in f16 (its -inf the f16 literal 0xFC00): the sweep
// generates attention in the model's element type.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#tr = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, d2)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @forward(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16> {
  %zero = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %scale = arith.constant 4.0 : f16
  %et = tensor.empty() : tensor<1x2x16x8xf16>
  %kt = linalg.generic {indexing_maps = [#id, #tr], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x8x16xf16>) outs(%et : tensor<1x2x16x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    linalg.yield %a : f16
  } -> tensor<1x2x16x8xf16>
  %qc = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x8x16xf16> into tensor<2x8x16xf16>
  %kc = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x16x8xf16> into tensor<2x16x8xf16>
  %es = tensor.empty() : tensor<2x8x8xf16>
  %fs = linalg.fill ins(%zero : f16) outs(%es : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  %s0 = linalg.batch_matmul ins(%qc, %kc : tensor<2x8x16xf16>, tensor<2x16x8xf16>) outs(%fs : tensor<2x8x8xf16>) -> tensor<2x8x8xf16>
  %s1 = tensor.expand_shape %s0 [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf16> into tensor<1x2x8x8xf16>
  %e4 = tensor.empty() : tensor<1x2x8x8xf16>
  %s2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s1 : tensor<1x2x8x8xf16>) outs(%e4 : tensor<1x2x8x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %x = arith.divf %a, %scale : f16
    linalg.yield %x : f16
  } -> tensor<1x2x8x8xf16>
  %er = tensor.empty() : tensor<1x2x8x1xf16>
  %fm = linalg.fill ins(%ninf : f16) outs(%er : tensor<1x2x8x1xf16>) -> tensor<1x2x8x1xf16>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s2 : tensor<1x2x8x8xf16>) outs(%fm : tensor<1x2x8x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %x = arith.maximumf %a, %o : f16
    linalg.yield %x : f16
  } -> tensor<1x2x8x1xf16>
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s2, %mx : tensor<1x2x8x8xf16>, tensor<1x2x8x1xf16>) outs(%e4 : tensor<1x2x8x8xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %x = arith.subf %a, %m : f16
    %y = math.exp %x : f16
    linalg.yield %y : f16
  } -> tensor<1x2x8x8xf16>
  %fz = linalg.fill ins(%zero : f16) outs(%er : tensor<1x2x8x1xf16>) -> tensor<1x2x8x1xf16>
  %sm = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%ex : tensor<1x2x8x8xf16>) outs(%fz : tensor<1x2x8x1xf16>) {
  ^bb0(%a: f16, %o: f16):
    %x = arith.addf %a, %o : f16
    linalg.yield %x : f16
  } -> tensor<1x2x8x1xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sm : tensor<1x2x8x8xf16>, tensor<1x2x8x1xf16>) outs(%e4 : tensor<1x2x8x8xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %x = arith.divf %a, %m : f16
    linalg.yield %x : f16
  } -> tensor<1x2x8x8xf16>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x8x8xf16> into tensor<2x8x8xf16>
  %vc = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x16xf16> into tensor<2x8x16xf16>
  %eo = tensor.empty() : tensor<2x8x16xf16>
  %fo = linalg.fill ins(%zero : f16) outs(%eo : tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %o0 = linalg.batch_matmul ins(%pc, %vc : tensor<2x8x8xf16>, tensor<2x8x16xf16>) outs(%fo : tensor<2x8x16xf16>) -> tensor<2x8x16xf16>
  %o1 = tensor.expand_shape %o0 [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf16> into tensor<1x2x8x16xf16>
  return %o1 : tensor<1x2x8x16xf16>
}
