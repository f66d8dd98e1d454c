// The warm heap's budget holds the warm buffers live at once
// (warm-scratch-chain.mlir): here 700000 B of weights and 512 B of batch-norm
// constants make the largest free chunk 467008 B and the budget 700512 B,
// so each of the conv's six
// 409600 B buffers fits a chunk but no two live at once fit the budget.
// In program order: the conv's output is warm; the transpose's is not (the
// conv's is still read); the sub's is (the conv's is free again), the
// mul's not, the second mul's is, the add's not: three of six warm. The
// same when the conv's output reaches the transpose through reshapes
// (views of its buffer): it is still read there.
// RUN: rm -rf %t && mkdir -p %t/p/tables
// RUN: cp %S/../Inputs/profile-scratch/device.csv %t/p/
// RUN: printf 'producer,consumer\nconv2d,transpose\nconv2d,batchnorm\nbatchnorm,relu6\n' > %t/p/fusion.csv
// RUN: printf 'kernel,axes,regime,transform\n' > %t/p/policy.csv
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t/p report=%t/r.json' %s -o /dev/null
// RUN: FileCheck %s < %t/r.json

// CHECK: "name":"conv_bn"
// CHECK: "type":"conv2d+batchnorm+relu6"
// CHECK-SAME: "scratch_bytes":2457600,"warm_scratch_bytes":1228800,
// CHECK: "name":"conv_bn_through_views"
// CHECK: "type":"conv2d+batchnorm+relu6"
// CHECK-SAME: "scratch_bytes":2457600,"warm_scratch_bytes":1228800,
func.func @conv_bn(%x: tensor<1x80x80x16xf32>, %w: tensor<16x1x1x16xf32>) -> tensor<1x16x80x80xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = "tosa.const"() <{values = dense<0.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %v = "tosa.const"() <{values = dense<0.9> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %g = "tosa.const"() <{values = dense<1.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %be = "tosa.const"() <{values = dense<0.2> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x80x80x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x80x80x16xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x80x80x16xf32>) -> tensor<1x16x80x80xf32>
  %s = tosa.sub %t, %m : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %p = tosa.mul %s, %v, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %q = tosa.mul %p, %g, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %a = tosa.add %q, %be : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %r = tosa.clamp %a {min_val = 0.000000e+00 : f32, max_val = 6.0 : f32} : (tensor<1x16x80x80xf32>) -> tensor<1x16x80x80xf32>
  return %r : tensor<1x16x80x80xf32>
}

func.func @conv_bn_through_views(%x: tensor<1x80x80x16xf32>, %w: tensor<16x1x1x16xf32>) -> tensor<1x16x80x80xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = "tosa.const"() <{values = dense<0.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %v = "tosa.const"() <{values = dense<0.9> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %g = "tosa.const"() <{values = dense<1.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %be = "tosa.const"() <{values = dense<0.2> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x80x80x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x80x80x16xf32>
  %s3 = tosa.const_shape {values = dense<[80, 80, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 16, 80, 80]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %c3 = tosa.reshape %c, %s3 : (tensor<1x80x80x16xf32>, !tosa.shape<3>) -> tensor<80x80x16xf32>
  %t3 = tosa.transpose %c3 {perms = array<i32: 2, 0, 1>} : (tensor<80x80x16xf32>) -> tensor<16x80x80xf32>
  %t = tosa.reshape %t3, %s4 : (tensor<16x80x80xf32>, !tosa.shape<4>) -> tensor<1x16x80x80xf32>
  %s = tosa.sub %t, %m : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %p = tosa.mul %s, %v, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %q = tosa.mul %p, %g, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %a = tosa.add %q, %be : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %r = tosa.clamp %a {min_val = 0.000000e+00 : f32, max_val = 6.0 : f32} : (tensor<1x16x80x80xf32>) -> tensor<1x16x80x80xf32>
  return %r : tensor<1x16x80x80xf32>
}

// 700000 B of weights.
func.func @weights() -> tensor<175000xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<175000xf32>}> : () -> tensor<175000xf32>
  return %w : tensor<175000xf32>
}
