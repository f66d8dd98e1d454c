// A transposed conv scatters each input pixel's window into the output:
// its work is input pixels x cin x cout x window, here 28 x 28 x 64 x 32 x
// 4 multiply-adds (12845056 flops). Counted over the output pixels it was
// four times that (each output pixel of a stride-2, 2 x 2 transposed conv
// gets one tap, not four): this kernel of a UNet up step was predicted +379%
// against its time measured alone.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-channels-last report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "type":"transpose_conv2d"
// CHECK-SAME: "axes":"batch=1 hw=56x56 cin=64 cout=32 window=4 stride=2"
// CHECK-SAME: "flops":12845056,
func.func @up(%x: tensor<1x28x28x64xf32>, %w: tensor<32x2x2x64xf32>, %b: tensor<32xf32>) -> tensor<1x56x56x32xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x28x28x64xf32>, tensor<32x2x2x64xf32>, tensor<32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x56x56x32xf32>
  return %y : tensor<1x56x56x32xf32>
}
