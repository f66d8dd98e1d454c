// A profile with `llc_bytes` and `cold_weight_ns_per_byte[.<class>]`
// charges every kernel of a function whose arguments and constants exceed
// the cache the time to read its share of them from memory, at the rate of
// the op class that reads them (matmul: 2 ns/B here, else 1 ns/B); a
// function within the cache, and zero splats (the zero page), are not
// charged; any other splat is a global of its full size through `loops`.
// Each weight is 64 x 128 f32 (32768 B); x is 4 x 64 (1024 B); the cache
// is 65536 B.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-cold-weights report=%t.json' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// Where latency-profile probed how much the cache keeps between two reads
// of a weight (`cold_weight_min_bytes`, here 32 KiB, under the 64 KiB
// cache), one weight and x (33792 B) are read cold too.
// RUN: rm -rf %t.p && cp -r %S/../Inputs/profile-cold-weights %t.p
// RUN: echo cold_weight_min_bytes,32768 >> %t.p/device.csv
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t.p' %s 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT-LABEL: func.func @small_weights_not_charged
// KEPT: linalg.matmul {{.*}}cold_weights_us = 6.7584{{[0-9]*}}e+01
// KEPT-LABEL: func.func @splat_weights_not_charged
// KEPT-NOT: cold_weights_us
// KEPT: return

// Three weights and x in each kernel: 3 x 33792 B > 65536 B. Each matmul
// reads 33792 B at 2 ns/B: 67.584 us on top of its roofline time.
// CHECK-LABEL: func.func @big_weights_charged
// CHECK-COUNT-3: linalg.matmul {{.*}}cold_weights_us = 6.7584{{[0-9]*}}e+01
// REMARK: remark: latency: weights and arguments of 0.1 MB exceed what the profile's cache keeps between calls (0.1 MB): 3 kernels charged 202.752 us
// JSON: "name":"big_weights_charged"
// JSON: "latency_us":68.{{[0-9]+}},{{.*}}"cold_weights_us":67.58{{[0-9]*}},"resident_bytes":33792}
func.func @big_weights_charged(%x: tensor<4x64xf32>, %w0: tensor<64x128xf32>,
                               %w1: tensor<64x128xf32>,
                               %w2: tensor<64x128xf32>) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%c : tensor<4x128xf32>) -> tensor<4x128xf32>
  %b = linalg.matmul ins(%x, %w1 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%a : tensor<4x128xf32>) -> tensor<4x128xf32>
  %d = linalg.matmul ins(%x, %w2 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%b : tensor<4x128xf32>) -> tensor<4x128xf32>
  return %d : tensor<4x128xf32>
}

// One weight: 33792 B fit in the cache; nothing is charged.
// CHECK-LABEL: func.func @small_weights_not_charged
// CHECK-NOT: cold_weights_us
// CHECK: return
func.func @small_weights_not_charged(%x: tensor<4x64xf32>,
                                     %w0: tensor<64x128xf32>) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
  %a = linalg.matmul ins(%x, %w0 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%c : tensor<4x128xf32>) -> tensor<4x128xf32>
  return %a : tensor<4x128xf32>
}

// Zero splat weights of 256 KiB each read the zero page: only x counts
// (3 x 1024 B), within the cache.
// CHECK-LABEL: func.func @splat_weights_not_charged
// CHECK-NOT: cold_weights_us
// CHECK: return
func.func @splat_weights_not_charged(%x: tensor<4x64xf32>) -> tensor<4x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.0> : tensor<64x1024xf32>
  %e = tensor.empty() : tensor<4x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%c : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %b = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%a : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %d = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%b : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  return %d : tensor<4x1024xf32>
}

// A splat of 0.5 is 262144 B of memory through `loops` (nelli's exports
// hold their weights so): each matmul reads it and x, 263168 B at 2 ns/B.
// CHECK-LABEL: func.func @nonzero_splat_weights_charged
// CHECK-COUNT-3: linalg.matmul {{.*}}cold_weights_us = 5.26336{{[0-9]*}}e+02
func.func @nonzero_splat_weights_charged(%x: tensor<4x64xf32>) -> tensor<4x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<64x1024xf32>
  %e = tensor.empty() : tensor<4x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%c : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %b = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%a : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %d = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%b : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  return %d : tensor<4x1024xf32>
}

// A splat of -0.0 is not zero-filled memory either: charged as 0.5 is.
// CHECK-LABEL: func.func @negative_zero_splat_weights_charged
// CHECK-COUNT-3: linalg.matmul {{.*}}cold_weights_us = 5.26336{{[0-9]*}}e+02
func.func @negative_zero_splat_weights_charged(%x: tensor<4x64xf32>) -> tensor<4x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<-0.0> : tensor<64x1024xf32>
  %e = tensor.empty() : tensor<4x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %a = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%c : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %b = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%a : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  %d = linalg.matmul ins(%x, %w : tensor<4x64xf32>, tensor<64x1024xf32>) outs(%b : tensor<4x1024xf32>) -> tensor<4x1024xf32>
  return %d : tensor<4x1024xf32>
}

// Weights stored [128, 64] and transposed each call: the transpose reads
// them (32768 B at the device-wide 1 ns/B, no `.transpose` rate); the
// matmul reads x (1024 B at 2 ns/B) and a transposed copy it was just
// given, warm.
// CHECK-LABEL: func.func @transposed_weights_device_rate
// CHECK: linalg.transpose {{.*}}cold_weights_us = 3.2768{{[0-9]*}}e+01
// CHECK: linalg.matmul {{.*}}cold_weights_us = 2.048{{[0-9]*}}e+00
func.func @transposed_weights_device_rate(%x: tensor<4x64xf32>,
    %w0: tensor<128x64xf32>, %w1: tensor<128x64xf32>) -> tensor<4x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x128xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<4x128xf32>) -> tensor<4x128xf32>
  %te = tensor.empty() : tensor<64x128xf32>
  %t0 = linalg.transpose ins(%w0 : tensor<128x64xf32>) outs(%te : tensor<64x128xf32>) permutation = [1, 0]
  %a = linalg.matmul ins(%x, %t0 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%c : tensor<4x128xf32>) -> tensor<4x128xf32>
  %t1 = linalg.transpose ins(%w1 : tensor<128x64xf32>) outs(%te : tensor<64x128xf32>) permutation = [1, 0]
  %b = linalg.matmul ins(%x, %t1 : tensor<4x64xf32>, tensor<64x128xf32>) outs(%a : tensor<4x128xf32>) -> tensor<4x128xf32>
  return %b : tensor<4x128xf32>
}
