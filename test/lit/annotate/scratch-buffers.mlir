// A kernel's own buffers of 128 KiB or more (LAT_FRESH_BUFFER_BYTES) are
// mapped fresh on every call on a host; a profile with scratch_ns_per_byte
// (latency-profile's scratch probe) charges their bytes at that rate in the
// roofline (here 2 ns/B). The report names the bytes per kernel.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch fresh-memory=true report=%t.fresh.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRESH < %t.fresh.json

// SiLU over 1x320x32x32 f32: the sigmoid's 1310720 B result stays inside
// the kernel: 2621.44 us of pages on top of 26.2 us streaming and 1 us.
// CHECK: "name":"silu_large"
// CHECK: "type":"silu"
// CHECK-SAME: "latency_us":2648.6{{[0-9]*}},
// CHECK-SAME: "scratch_bytes":1310720,"epilogue_passes":1,"epilogue_elements":327680}
func.func @silu_large(%x: tensor<1x320x32x32xf32>) -> tensor<1x320x32x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<1x320x32x32xf32>) -> tensor<1x320x32x32xf32>
  %y = tosa.mul %x, %s, %shift : (tensor<1x320x32x32xf32>, tensor<1x320x32x32xf32>, tensor<1xi8>) -> tensor<1x320x32x32xf32>
  return %y : tensor<1x320x32x32xf32>
}

// At 1x320x8x8 the sigmoid's 81920 B come from the heap: nothing charged.
// CHECK: "name":"silu_small"
// CHECK-NOT: scratch_bytes
// CHECK: "name":"matmul_reshaped_out"
func.func @silu_small(%x: tensor<1x320x8x8xf32>) -> tensor<1x320x8x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<1x320x8x8xf32>) -> tensor<1x320x8x8xf32>
  %y = tosa.mul %x, %s, %shift : (tensor<1x320x8x8xf32>, tensor<1x320x8x8xf32>, tensor<1xi8>) -> tensor<1x320x8x8xf32>
  return %y : tensor<1x320x8x8xf32>
}

// A matmul's 1310720 B result reshaped on its way out is the kernel's
// output buffer, not scratch.
// CHECK-NOT: scratch_bytes
// CHECK: "name":"matmul_then_transpose"
func.func @matmul_reshaped_out(%x: tensor<1x1024x320xf32>, %w: tensor<1x320x320xf32>) -> tensor<1024x320xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x1024x320xf32>, tensor<1x320x320xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x320xf32>
  %s2 = tosa.const_shape {values = dense<[1024, 320]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %m, %s2 : (tensor<1x1024x320xf32>, !tosa.shape<2>) -> tensor<1024x320xf32>
  return %y : tensor<1024x320xf32>
}

// A matmul whose result is transposed inside the kernel (a projection
// split into heads) writes it to a buffer of its own: 1310720 B.
// CHECK: "scratch_bytes":1310720,"epilogue_passes":1,"epilogue_elements":327680,"acc_bits":32}
func.func @matmul_then_transpose(%x: tensor<1x1024x320xf32>, %w: tensor<1x320x320xf32>) -> tensor<1x8x1024x40xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x1024x320xf32>, tensor<1x320x320xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x320xf32>
  %s4 = tosa.const_shape {values = dense<[1, 1024, 8, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r = tosa.reshape %m, %s4 : (tensor<1x1024x320xf32>, !tosa.shape<4>) -> tensor<1x1024x8x40xf32>
  %t = tosa.transpose %r {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x1024x8x40xf32>) -> tensor<1x8x1024x40xf32>
  return %t : tensor<1x8x1024x40xf32>
}

// In linalg a bias added in place (the matmul's result is the add's `outs`)
// writes one buffer, the kernel's output: no scratch.
// CHECK: "name":"matmul_bias_in_place"
// CHECK-NOT: scratch_bytes
// CHECK: "type":"matmul+add"
// CHECK-NOT: scratch_bytes
// CHECK: "fusion"
#bias = affine_map<(d0, d1) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_bias_in_place(%x: tensor<1024x320xf32>, %w: tensor<320x320xf32>, %b: tensor<320xf32>) -> tensor<1024x320xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x320xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x320xf32>) -> tensor<1024x320xf32>
  %m = linalg.matmul ins(%x, %w : tensor<1024x320xf32>, tensor<320x320xf32>) outs(%c : tensor<1024x320xf32>) -> tensor<1024x320xf32>
  %r = linalg.generic {indexing_maps = [#bias, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<320xf32>) outs(%m : tensor<1024x320xf32>) {
  ^bb0(%bi: f32, %o: f32):
    %s = arith.addf %o, %bi : f32
    linalg.yield %s : f32
  } -> tensor<1024x320xf32>
  return %r : tensor<1024x320xf32>
}

// With fresh-memory=true (a whole run mapping every large buffer anew, as
// latency-profile --validate --fresh-memory measures), a kernel's result
// another kernel reads is such a buffer, where a kernel measured alone
// writes the caller's warm output: the first matmul is charged its
// 1310720 B result at the scratch rate (2621.44 us, part of latency_us).
// The second one's result is the function's own (the caller's buffer),
// also through a reshape: nothing charged. By default nothing is.
// CHECK: "name":"two_matmuls"
// CHECK-NOT: result_pages_us
// FRESH: "name":"two_matmuls"
// FRESH: "id":0,"type":"matmul"
// FRESH-SAME: "result_pages_us":2621.44{{[0-9]*}},"fresh_result_bytes":1310720
// FRESH: "id":1,"type":"matmul"
// FRESH-NOT: result_pages_us
// FRESH: "fusion"
func.func @two_matmuls(%x: tensor<1x1024x320xf32>, %w: tensor<1x320x320xf32>, %v: tensor<1x320x320xf32>) -> tensor<1024x320xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x1024x320xf32>, tensor<1x320x320xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x320xf32>
  %n = tosa.matmul %m, %v, %zp, %zp : (tensor<1x1024x320xf32>, tensor<1x320x320xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1024x320xf32>
  %s2 = tosa.const_shape {values = dense<[1024, 320]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %y = tosa.reshape %n, %s2 : (tensor<1x1024x320xf32>, !tosa.shape<2>) -> tensor<1024x320xf32>
  return %y : tensor<1024x320xf32>
}
