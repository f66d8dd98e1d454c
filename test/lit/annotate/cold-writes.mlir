// A profile with `llc_bytes`, a cache geometry and
// `cold_column_write_ns_per_byte.llc<share>` charges a transpose that
// writes its output's column within L1 or L2 for writing those lines from
// memory: the call's other kernels move a share of the last-level cache (1
// KiB here; each function negates an argument %x besides its transpose)
// and the rate at that share applies to the bytes written. Such a
// transpose is not also charged for its weight (the probe had it cold
// too); a column that spills L2 (here L1 is 16 sets x 4 ways, L2 64 sets
// x 4 ways, 64 B lines), and one read rather than written, get the
// cold-weight charge alone.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='profile=%S/../Inputs/profile-cold-writes report=%t.json' %s 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

// [16, 32] written as [32, 16]: a column of 32 elements 64 B apart, 32
// lines in L1's 16 sets x 4 ways. The negation moves 2 x 2048 B, four
// times the cache: 4 ns a byte, 2048 B written: 8.192 us.
// CHECK-LABEL: func.func @cached_column_charged
// CHECK: linalg.generic {{.*}}latency.estimate = {bound = "memory", cold_writes_us = 8.192{{[0-9]*}}e+00
// CHECK: return
// REMARK: remark: latency: the call moves 0.0 MB (8 x the profile's last-level cache): 1 transposes charged 8.192 us for writing 0.0 MB of columns the cache lost since the previous call (cold_writes_us)
// JSON: "name":"cached_column_charged"
// JSON-NEXT: "bound":"memory","cold_writes_us":8.19{{[0-9]*}},"cold_write_bytes":2048}
#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d1, d0)>
#flat = affine_map<(d0) -> (d0)>
func.func @cached_column_charged(%w: tensor<16x32xf32>, %x: tensor<512xf32>) -> (tensor<32x16xf32>, tensor<512xf32>) {
  %e = tensor.empty() : tensor<32x16xf32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x32xf32>) outs(%e : tensor<32x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x16xf32>
  %ex = tensor.empty() : tensor<512xf32>
  %n = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]} ins(%x : tensor<512xf32>) outs(%ex : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<512xf32>
  return %t, %n : tensor<32x16xf32>, tensor<512xf32>
}

// Half the bytes: the negation moves twice the cache, 3 ns a byte over
// 1024 B written: 3.072 us.
// CHECK-LABEL: func.func @rate_at_the_share_moved
// CHECK: linalg.generic {{.*}}cold_writes_us = 3.072{{[0-9]*}}e+00
func.func @rate_at_the_share_moved(%w: tensor<16x16xf32>, %x: tensor<256xf32>) -> (tensor<16x16xf32>, tensor<256xf32>) {
  %e = tensor.empty() : tensor<16x16xf32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x16xf32>
  %ex = tensor.empty() : tensor<256xf32>
  %n = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]} ins(%x : tensor<256xf32>) outs(%ex : tensor<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<256xf32>
  return %t, %n : tensor<16x16xf32>, tensor<256xf32>
}

// [256, 32] written as [32, 256]: 32 elements 1 KiB apart, all in one L1
// set and four L2 sets, 16 ways in all: the walk spills L2 and writes
// through to memory alone already. Its weight (32768 B) is read cold at
// the device-wide 1 ns a byte.
// CHECK-LABEL: func.func @spilled_column_not_charged
// CHECK-NOT: cold_writes_us
// CHECK: linalg.generic {{.*}}cold_weights_us = 3.2768{{[0-9]*}}e+01
// CHECK-NOT: cold_writes_us
// CHECK: return
func.func @spilled_column_not_charged(%w: tensor<256x32xf32>, %x: tensor<512xf32>) -> (tensor<32x256xf32>, tensor<512xf32>) {
  %e = tensor.empty() : tensor<32x256xf32>
  %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<256x32xf32>) outs(%e : tensor<32x256xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<32x256xf32>
  %ex = tensor.empty() : tensor<512xf32>
  %n = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]} ins(%x : tensor<512xf32>) outs(%ex : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<512xf32>
  return %t, %n : tensor<32x256xf32>, tensor<512xf32>
}

// The same shapes as the first, the column read and the output written in
// order: no written column to lose, the weight read cold (2048 B).
// CHECK-LABEL: func.func @read_column_not_charged
// CHECK-NOT: cold_writes_us
// CHECK: linalg.generic {{.*}}cold_weights_us = 2.048{{[0-9]*}}e+00
// CHECK-NOT: cold_writes_us
// CHECK: return
func.func @read_column_not_charged(%w: tensor<32x16xf32>, %x: tensor<512xf32>) -> (tensor<16x32xf32>, tensor<512xf32>) {
  %e = tensor.empty() : tensor<16x32xf32>
  %t = linalg.generic {indexing_maps = [#out, #in], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<32x16xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<16x32xf32>
  %ex = tensor.empty() : tensor<512xf32>
  %n = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]} ins(%x : tensor<512xf32>) outs(%ex : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<512xf32>
  return %t, %n : tensor<16x32xf32>, tensor<512xf32>
}

// The first function's transpose in a loop of four: between two of its runs
// only one iteration moves, not the call: not charged.
// CHECK-LABEL: func.func @in_a_loop_not_charged
// CHECK-NOT: cold_writes_us
// CHECK: return
func.func @in_a_loop_not_charged(%w: tensor<16x32xf32>, %x: tensor<512xf32>) -> tensor<32x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<32x16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %e) -> (tensor<32x16xf32>) {
    %t = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<16x32xf32>) outs(%acc : tensor<32x16xf32>) {
    ^bb0(%a: f32, %b: f32):
      linalg.yield %a : f32
    } -> tensor<32x16xf32>
    scf.yield %t : tensor<32x16xf32>
  }
  %ex = tensor.empty() : tensor<512xf32>
  %n = linalg.generic {indexing_maps = [#flat, #flat], iterator_types = ["parallel"]} ins(%x : tensor<512xf32>) outs(%ex : tensor<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<512xf32>
  return %r : tensor<32x16xf32>
}
