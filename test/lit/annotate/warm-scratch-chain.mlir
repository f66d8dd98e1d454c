// A chain of ops frees each buffer once the next op has read it, and glibc
// serves the one after from the chunk just freed: the warm heap's budget
// (one and a half times its largest chunk, warm-scratch.mlir) holds the
// buffers live at once, not all of a kernel's. Here 1 MiB of weights and
// 512 B of batch-norm constants make the largest chunk 699392 B and the
// budget 1049088 B; a TOSA conv
// with torch-mlir's batch norm and ReLU6 allocates six 409600 B buffers
// (the conv's NHWC output, the transpose, sub, mul, mul, add), two of them
// live at a time: all six are warm (counted against the sum, only two
// were). Its six members besides the conv are the query's epilogue: six
// passes over 102400 elements (passes/epilogue.c). With fresh-memory=true
// nothing is warm. The same conv on an NCHW input has its input's
// transpose folded in, listed after the kernel's last op: the buffers are
// taken in program order, and all seven are warm.
// (warm-scratch-live.mlir has a budget two buffers do not fit.)
// RUN: rm -rf %t && mkdir -p %t/p/tables
// RUN: cp %S/../Inputs/profile-scratch/device.csv %t/p/
// RUN: printf 'producer,consumer\ntranspose,conv2d\nconv2d,transpose\nconv2d,batchnorm\nbatchnorm,relu6\n' > %t/p/fusion.csv
// RUN: printf 'kernel,axes,regime,transform\n' > %t/p/policy.csv
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t/p report=%t/r.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=WARM < %t/r.json
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t/p report=%t/fresh.json fresh-memory=true' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRESH < %t/fresh.json

// WARM: "type":"conv2d+batchnorm+relu6"
// WARM-SAME: "scratch_bytes":2457600,"warm_scratch_bytes":2457600,"epilogue_passes":6,"epilogue_elements":614400
// FRESH: "type":"conv2d+batchnorm+relu6"
// FRESH-SAME: "scratch_bytes":2457600,"epilogue_passes":6
// WARM: "name":"conv_bn_nchw"
// WARM: "type":"conv2d+batchnorm+relu6"
// WARM-SAME: "scratch_bytes":2867200,"warm_scratch_bytes":2867200,"epilogue_passes":7,"epilogue_elements":716800
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

func.func @conv_bn_nchw(%xin: tensor<1x16x80x80xf32>, %w: tensor<16x1x1x16xf32>) -> tensor<1x16x80x80xf32> {
  %b = "tosa.const"() <{values = dense<0.0> : tensor<16xf32>}> : () -> tensor<16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = "tosa.const"() <{values = dense<0.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %v = "tosa.const"() <{values = dense<0.9> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %g = "tosa.const"() <{values = dense<1.1> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %be = "tosa.const"() <{values = dense<0.2> : tensor<1x16x1x1xf32>}> : () -> tensor<1x16x1x1xf32>
  %x = tosa.transpose %xin {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x16x80x80xf32>) -> tensor<1x80x80x16xf32>
  %c = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x80x80x16xf32>, tensor<16x1x1x16xf32>, tensor<16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x80x80x16xf32>
  %t = tosa.transpose %c {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x80x80x16xf32>) -> tensor<1x16x80x80xf32>
  %s = tosa.sub %t, %m : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %p = tosa.mul %s, %v, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %q = tosa.mul %p, %g, %shift : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>, tensor<1xi8>) -> tensor<1x16x80x80xf32>
  %a = tosa.add %q, %be : (tensor<1x16x80x80xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x80x80xf32>
  %r = tosa.clamp %a {min_val = 0.000000e+00 : f32, max_val = 6.0 : f32} : (tensor<1x16x80x80xf32>) -> tensor<1x16x80x80xf32>
  return %r : tensor<1x16x80x80xf32>
}

// 1 MiB of weights.
func.func @weights() -> tensor<262144xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<262144xf32>}> : () -> tensor<262144xf32>
  return %w : tensor<262144xf32>
}
