// Left to glibc's own thresholds (the default, no fresh-memory), a whole
// run maps anew on every call only the buffers its mmap threshold can
// never reach, 32 MiB or more (passes/graph.h, LAT_ALWAYS_MAPPED_BYTES):
// such a result, read by another kernel, is charged its pages at the
// profile's scratch rate (2 ns/B): 33554432 B -> 67108.864 us. A 16 MiB
// one is reused warm by default and charged only with fresh-memory=true.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch report=%t.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=NATURAL < %t.json
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch fresh-memory=true report=%t.fresh.json' %s -o /dev/null
// RUN: FileCheck %s --check-prefix=FRESH < %t.fresh.json

#id = affine_map<(d0) -> (d0)>

// NATURAL: "name":"mapped_32mib"
// NATURAL: "id":0,"type":"exp"
// NATURAL-SAME: "result_pages_us":67108.864{{[0-9]*}},"fresh_result_bytes":33554432}
// NATURAL: "name":"heap_16mib"
// NATURAL-NOT: fresh_result_bytes
// NATURAL: ]}
// FRESH: "name":"mapped_32mib"
// FRESH: "id":0,"type":"exp"
// FRESH-SAME: "fresh_result_bytes":33554432}
// FRESH: "name":"heap_16mib"
// FRESH: "id":0,"type":"exp"
// FRESH-SAME: "result_pages_us":33554.432{{[0-9]*}},"fresh_result_bytes":16777216}
func.func @mapped_32mib(%a: tensor<8388608xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8388608xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8388608xf32>) outs(%e : tensor<8388608xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<8388608xf32>
  %i = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<8388608xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

func.func @heap_16mib(%a: tensor<4194304xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4194304xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<4194304xf32>) outs(%e : tensor<4194304xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<4194304xf32>
  %i = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%x : tensor<4194304xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
