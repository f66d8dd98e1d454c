// Which kernel results a whole run maps fresh on every call, as one-shot
// bufferization allocates them (passes/buffers.c), charged with
// fresh-memory=true at the profile's scratch rate (2 ns/B): 262144 B ->
// 524.288 us. Exports share one tensor.empty among ops; bufferization gives
// a later op the earlier op's buffer when the earlier value is dead by
// then, and a buffer of its own while it is still read.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-scratch fresh-memory=true report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json

#id = affine_map<(d0) -> (d0)>

// The first exp's result is read by the first reduction only, dead before
// the second exp writes the same tensor.empty: one buffer, charged once.
// CHECK: "name":"shared_dead"
// CHECK: "id":0,"type":"exp"
// CHECK-SAME: "result_pages_us":524.288{{[0-9]*}},"fresh_result_bytes":262144}
// CHECK: "id":2,"type":"exp"
// CHECK-NOT: fresh_result_bytes
// CHECK: "name":"shared_live"
func.func @shared_dead(%a: tensor<65536xf32>, %b: tensor<65536xf32>) -> (tensor<f32>, tensor<f32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<65536xf32>
  %x1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %i1 = tensor.empty() : tensor<f32>
  %z1 = linalg.fill ins(%zero : f32) outs(%i1 : tensor<f32>) -> tensor<f32>
  %r1 = linalg.reduce ins(%x1 : tensor<65536xf32>) outs(%z1 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %i2 = tensor.empty() : tensor<f32>
  %z2 = linalg.fill ins(%zero : f32) outs(%i2 : tensor<f32>) -> tensor<f32>
  %r2 = linalg.reduce ins(%x2 : tensor<65536xf32>) outs(%z2 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r1, %r2 : tensor<f32>, tensor<f32>
}

// Here the first exp's result is still read after the second exp writes
// the same tensor.empty: two buffers, both charged.
// CHECK: "id":0,"type":"exp"
// CHECK-SAME: "fresh_result_bytes":262144}
// CHECK: "id":1,"type":"exp"
// CHECK-SAME: "fresh_result_bytes":262144}
func.func @shared_live(%a: tensor<65536xf32>, %b: tensor<65536xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<65536xf32>
  %x1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : tensor<65536xf32>) outs(%e : tensor<65536xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = math.exp %v : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %e2 = tensor.empty() : tensor<65536xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x1, %x2 : tensor<65536xf32>, tensor<65536xf32>) outs(%e2 : tensor<65536xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<65536xf32>
  %i = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%i : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%y : tensor<65536xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}
