// Named linalg contractions, convolutions, softmax, elementwise ops and
// arith/math on tensors are classified, not reported as unknown.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -verify-diagnostics %s -o /dev/null | FileCheck %s
// CHECK: | matvec |
// CHECK: | conv2d | 1 | batch=1 hw=6x14 cin=4 cout=8 window=9 stride=1 |
// CHECK: | softmax+elementwise+elementwise+elementwise+elementwise+tanh | 6 |
// CHECK: | concat |
func.func @linalg_more(%A: tensor<16x32xf32>, %x: tensor<32xf32>, %y: tensor<16xf32>, %I: tensor<1x8x16x4xf32>, %W: tensor<3x3x4x8xf32>, %S: tensor<2x16x32xf32>) -> tensor<2x16x32xf32> {
  %e16 = tensor.empty() : tensor<16xf32>
  %mv = linalg.matvec ins(%A, %x : tensor<16x32xf32>, tensor<32xf32>) outs(%e16 : tensor<16xf32>) -> tensor<16xf32>
  %ec = tensor.empty() : tensor<1x6x14x8xf32>
  %cv = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%I, %W : tensor<1x8x16x4xf32>, tensor<3x3x4x8xf32>) outs(%ec : tensor<1x6x14x8xf32>) -> tensor<1x6x14x8xf32>
  %es = tensor.empty() : tensor<2x16x32xf32>
  %sm = linalg.softmax dimension(2) ins(%S : tensor<2x16x32xf32>) outs(%es : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %ab = linalg.abs ins(%sm : tensor<2x16x32xf32>) outs(%es : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %mx = linalg.max ins(%ab, %S : tensor<2x16x32xf32>, tensor<2x16x32xf32>) outs(%es : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %el = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%mx : tensor<2x16x32xf32>) outs(%es : tensor<2x16x32xf32>) -> tensor<2x16x32xf32>
  %ad = arith.addf %el, %S : tensor<2x16x32xf32>
  %th = math.tanh %ad : tensor<2x16x32xf32>
  %cc = tensor.concat dim(0) %th, %th : (tensor<2x16x32xf32>, tensor<2x16x32xf32>) -> tensor<4x16x32xf32>
  %sl = tensor.extract_slice %cc[0, 0, 0] [2, 16, 32] [1, 1, 1] : tensor<4x16x32xf32> to tensor<2x16x32xf32>
  return %sl : tensor<2x16x32xf32>
}

// A linalg.map is classified by its body, as a generic is: tanh here (not a
// plain elementwise op, which would never ask the tanh table); one whose
// body only yields its input is a copy.
// CHECK: | tanh | 1 | elements=512 |
// CHECK: | copy | 1 | elements=512 |
func.func @linalg_map(%x: tensor<512xf32>) -> (tensor<512xf32>, tensor<512xf32>) {
  %e = tensor.empty() : tensor<512xf32>
  %t = linalg.map ins(%x : tensor<512xf32>) outs(%e : tensor<512xf32>)
    (%v: f32, %o: f32) {
      %r = math.tanh %v : f32
      linalg.yield %r : f32
    }
  %f = tensor.empty() : tensor<512xf32>
  %c = linalg.map ins(%x : tensor<512xf32>) outs(%f : tensor<512xf32>)
    (%v: f32, %o: f32) {
      linalg.yield %v : f32
    }
  return %t, %c : tensor<512xf32>, tensor<512xf32>
}
