// Elementwise work on constants only is folded away (no kernel), but a
// matmul stays a kernel even when all its operands are constants (merging a
// LoRA update into a weight): every matmul is promised a kernel and a latency.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- -verify-diagnostics %s -o /dev/null | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%plugin --detect-fusion-kernels %s | FileCheck %s --check-prefix=IR
// CHECK: in 2 kernels
// CHECK: | 0 | matmul+add | 2 | m=64 n=64 k=8 | f32 |
// CHECK: | 1 | matmul | 2 | m=16 n=64 k=64 | f32 |
// IR: tosa.matmul {{.*}}latency.kernel = 0 : i64
// IR: tosa.rsqrt %{{[0-9a-z_]+}} : (tensor<1x1x1xf32>)
// IR: tosa.mul %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} : (tensor<1x64x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>)
// IR: tosa.matmul {{.*}}latency.kernel = 1 : i64
func.func @lora(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %a = "tosa.const"() <{values = dense<0.5> : tensor<1x64x8xf32>}> : () -> tensor<1x64x8xf32>
  %b = "tosa.const"() <{values = dense<0.25> : tensor<1x8x64xf32>}> : () -> tensor<1x8x64xf32>
  %w = "tosa.const"() <{values = dense<1.0> : tensor<1x64x64xf32>}> : () -> tensor<1x64x64xf32>
  %ab = tosa.matmul %a, %b, %z, %z : (tensor<1x64x8xf32>, tensor<1x8x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x64xf32>
  %eps = "tosa.const"() <{values = dense<1.0e-5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %inv = tosa.rsqrt %eps : (tensor<1x1x1xf32>) -> tensor<1x1x1xf32>
  %scaled = tosa.mul %w, %inv, %sh : (tensor<1x64x64xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x64x64xf32>
  %merged = tosa.add %scaled, %ab : (tensor<1x64x64xf32>, tensor<1x64x64xf32>) -> tensor<1x64x64xf32>
  %s = tosa.const_shape {values = dense<[1, 16, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %s : (tensor<16x64xf32>, !tosa.shape<3>) -> tensor<1x16x64xf32>
  %y = tosa.matmul %x3, %merged, %z, %z : (tensor<1x16x64xf32>, tensor<1x64x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x64xf32>
  %s2 = tosa.const_shape {values = dense<[16, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y2 = tosa.reshape %y, %s2 : (tensor<1x16x64xf32>, !tosa.shape<2>) -> tensor<16x64xf32>
  return %y2 : tensor<16x64xf32>
}
