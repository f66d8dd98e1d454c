// A matmul with a ReLU epilogue in f16: a kernel family latency-profile's
// sweep generates points around, in a dtype the device probes measure
// besides f32 (docs/profiling.md).
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @forward(%x: tensor<16x32xf16>, %w: tensor<32x24xf16>)
    -> tensor<16x24xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x24xf16>
  %acc = linalg.fill ins(%zero : f16) outs(%e : tensor<16x24xf16>) -> tensor<16x24xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<16x32xf16>, tensor<32x24xf16>)
                      outs(%acc : tensor<16x24xf16>) -> tensor<16x24xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<16x24xf16>) outs(%e : tensor<16x24xf16>) {
  ^bb0(%a: f16, %o: f16):
    %v = arith.maximumf %a, %zero : f16
    linalg.yield %v : f16
  } -> tensor<16x24xf16>
  return %r : tensor<16x24xf16>
}
