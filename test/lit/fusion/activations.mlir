// SiLU and tanh-GELU use their input twice, so pairwise rules alone cannot
// fuse them into the producer; as patterns they are one op and join it.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(detect-fusion-kernels)' %s | FileCheck %s

// CHECK-LABEL: func.func @conv_silu
// CHECK: tosa.conv2d {{.*}}latency.kernel = [[K:[0-9]+]] : i64, latency.kernel_type = "conv2d+silu"
// CHECK: tosa.sigmoid {{.*}}latency.kernel = [[K]] : i64
// CHECK: tosa.mul {{.*}}latency.kernel = [[K]] : i64
func.func @conv_silu(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = tosa.conv2d %x, %w, %b, %z, %z {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x8x8x8xf32>
  %g = tosa.sigmoid %c : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %y = tosa.mul %c, %g, %s : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>, tensor<1xi8>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// CHECK-LABEL: func.func @matmul_tanh_gelu
// CHECK: tosa.matmul {{.*}}latency.kernel = [[G:[0-9]+]] : i64, latency.kernel_type = "matmul+gelu"
// CHECK: tosa.tanh {{.*}}latency.kernel = [[G]] : i64
func.func @matmul_tanh_gelu(%a: tensor<1x4x8xf32>, %b: tensor<1x8x16xf32>) -> tensor<1x4x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x4x16xf32>}> : () -> tensor<1x4x16xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x4x16xf32>}> : () -> tensor<1x4x16xf32>
  %k = "tosa.const"() <{values = dense<0.0447> : tensor<1x4x16xf32>}> : () -> tensor<1x4x16xf32>
  %r = "tosa.const"() <{values = dense<0.797> : tensor<1x4x16xf32>}> : () -> tensor<1x4x16xf32>
  %x = tosa.matmul %a, %b, %z, %z : (tensor<1x4x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x16xf32>
  %x2 = tosa.mul %x, %x, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  %x3 = tosa.mul %x2, %x, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  %kx3 = tosa.mul %x3, %k, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  %in = tosa.add %x, %kx3 : (tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %sc = tosa.mul %in, %r, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  %t = tosa.tanh %sc : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %t1 = tosa.add %t, %one : (tensor<1x4x16xf32>, tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
  %hx = tosa.mul %x, %half, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  %y = tosa.mul %hx, %t1, %s : (tensor<1x4x16xf32>, tensor<1x4x16xf32>, tensor<1xi8>) -> tensor<1x4x16xf32>
  return %y : tensor<1x4x16xf32>
}
