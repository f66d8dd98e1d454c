// A pool's table keys on its window (kh x kw) and stride as regimes, as a
// conv's does: a VGG's 2 x 2 max pool, ResNet's 3 x 3 one over a padded
// input and a global average run at different rates per element, and
// interpolating between them along `elements` alone was 250 times off.
// Named linalg pools read the window off their shape-only operand, TOSA's
// off the `kernel` attribute; `elements` is the input's.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s
// CHECK: | pool | 1 | elements=262144 window=4 stride=2 | f32 |
// CHECK: | pool | 1 | elements=25088 window=49 stride=1 | f32 |
// CHECK: | pool | 1 | elements=50176 window=9 stride=2 | f32 |
// CHECK: | pool | 1 | elements=3136 window=49 stride=7 | f32 |
// A generic that reads windows names neither: elements only.
// RUN: %mlir_opt --linalg-generalize-named-ops %s | %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -o /dev/null | FileCheck %s --check-prefix=GENERIC
// GENERIC: | pool | 1 | elements=262144 | f32 |
// GENERIC: | pool | 1 | elements=25088 | f32 |
// GENERIC: | pool | 1 | elements=50176 window=9 stride=2 | f32 |
func.func @linalg_pools(%x: tensor<1x64x64x64xf32>, %g: tensor<1x512x7x7xf32>) -> (tensor<1x64x32x32xf32>, tensor<1x512x1x1xf32>) {
  %ninf = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x64x32x32xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %w = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x64x64x64xf32>, tensor<2x2xf32>) outs(%f : tensor<1x64x32x32xf32>) -> tensor<1x64x32x32xf32>
  %ge = tensor.empty() : tensor<1x512x1x1xf32>
  %gf = linalg.fill ins(%zero : f32) outs(%ge : tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  %gw = tensor.empty() : tensor<7x7xf32>
  %s = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%g, %gw : tensor<1x512x7x7xf32>, tensor<7x7xf32>) outs(%gf : tensor<1x512x1x1xf32>) -> tensor<1x512x1x1xf32>
  return %p, %s : tensor<1x64x32x32xf32>, tensor<1x512x1x1xf32>
}

func.func @tosa_pools(%x: tensor<1x56x56x16xf32>, %y: tensor<1x14x14x16xf32>) -> (tensor<1x28x28x16xf32>, tensor<1x2x2x16xf32>) {
  %m = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x56x56x16xf32>) -> tensor<1x28x28x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = tosa.avg_pool2d %y, %zp, %zp {acc_type = f32, kernel = array<i64: 7, 7>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 7, 7>} : (tensor<1x14x14x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x16xf32>
  return %m, %a : tensor<1x28x28x16xf32>, tensor<1x2x2x16xf32>
}
