// Left to glibc's thresholds (no fresh-memory), a whole run carves a
// kernel's scratch buffers from the free chunks the JIT compiler left in
// the heap when they fit: no new pages. The largest such chunk is taken as
// two thirds of the module's constant bytes (latModuleWarmHeapBytes): here
// a 4 MiB constant, so the SiLU's 1310720 B sigmoid buffer is warm. The
// roofline then leaves its pages out (26.2 us streaming + 1 us), and a
// measured answer, taken with fresh pages, gives them back at the
// profile's rate: 3000 - 1310720 B x 2 ns/B = 378.56 us. With
// fresh-memory=true nothing is warm.
// RUN: rm -rf %t && mkdir -p %t/p/tables
// RUN: cp %S/../Inputs/profile-scratch/device.csv %S/../Inputs/profile-scratch/fusion.csv %t/p/
// RUN: printf 'kernel,axes,regime,transform\nsilu,elements,dtype,\n' > %t/p/policy.csv
// RUN: printf 'kernel,elements,dtype,latency_us\nsilu,327680,f32,3000\n' > %t/p/tables/silu.csv
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch report=%t/roofline.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=ROOFLINE < %t/roofline.json
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t/p report=%t/table.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.json
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%t/p fresh-memory=true report=%t/fresh.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRESH < %t/fresh.json

// ROOFLINE: "name":"silu"
// ROOFLINE: "type":"silu"
// ROOFLINE-SAME: "latency_us":27.2{{[0-9]*}},
// ROOFLINE-SAME: "scratch_bytes":1310720,"warm_scratch_bytes":1310720,"epilogue_passes":1
// TABLE: "type":"silu"
// TABLE-SAME: "latency_us":378.5{{[0-9]*}},"source":"measured"
// TABLE-SAME: "warm_scratch_bytes":1310720,"epilogue_passes":1
// FRESH: "type":"silu"
// FRESH-SAME: "latency_us":3000,"source":"measured"
// FRESH-NOT: warm_scratch_bytes
func.func @silu(%x: tensor<1x320x32x32xf32>) -> tensor<1x320x32x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.sigmoid %x : (tensor<1x320x32x32xf32>) -> tensor<1x320x32x32xf32>
  %y = tosa.mul %x, %s, %shift : (tensor<1x320x32x32xf32>, tensor<1x320x32x32xf32>, tensor<1xi8>) -> tensor<1x320x32x32xf32>
  return %y : tensor<1x320x32x32xf32>
}

// The module's weights: 1048576 f32, 4 MiB.
func.func @weights() -> tensor<1048576xf32> {
  %w = "tosa.const"() <{values = dense<0.5> : tensor<1048576xf32>}> : () -> tensor<1048576xf32>
  return %w : tensor<1048576xf32>
}
