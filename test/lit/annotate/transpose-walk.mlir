// A transpose through loops walks a column of the side its innermost loop
// strides on (passes/transpose_walk.h), and the pass says which: walk_k
// elements (the innermost trip count) walk_stride elements apart, written
// (walk_writes=1) or read. torch-mlir exports a linear layer's weight
// transposed by a generic that reads in order and writes through a
// permuted output map: that is a transpose too (it was a "copy", priced by
// its element count alone: MobileNet-V3-small's [1024, 576] one ran 2243
// us alone, priced 388). A generic permuting its input reads the column,
// so do linalg.transpose and tosa.transpose (their loops run over the
// result); a transpose whose innermost dim is contiguous on both sides
// walks nothing (walk_k=0, one regime for all of them).
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.json' %s -o /dev/null
// RUN: FileCheck %s < %t.json

// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=589824 walk_k=576 walk_stride=1024 walk_writes=1"
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=512000 walk_k=512 walk_stride=1000 walk_writes=0"
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=589824 walk_k=768 walk_stride=768 walk_writes=0"
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=150528 walk_k=3 walk_stride=50176 walk_writes=0"
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=3840",
// CHECK: "type":"copy"
// CHECK-SAME: "axes":"elements=4096"
// Both maps permuted (rank 3): the larger stride walks, here the input's
// (loops 4 x 8 x 16, the innermost d2 is the input's first dim: 32 apart).
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=512 walk_k=16 walk_stride=32 walk_writes=0"
// A dynamic dim, or a rank beyond the pass's 8, leaves the walk unknown: no
// fields, no claim that it walks nothing.
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements=576",
// CHECK: "type":"transpose"
// CHECK-SAME: "axes":"elements={{[0-9]+}}",
#in = affine_map<(d0, d1) -> (d0, d1)>
#swap = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposes(%w: tensor<1024x576xf32>, %v: tensor<512x1000xf32>,
                      %l: tensor<768x768xf32>, %img: tensor<1x3x224x224xf32>,
                      %h: tensor<1x5x12x64xf32>, %c: tensor<64x64xf32>)
    -> (tensor<576x1024xf32>, tensor<1000x512xf32>, tensor<768x768xf32>,
        tensor<1x224x224x3xf32>, tensor<1x12x5x64xf32>, tensor<64x64xf32>) {
  %e0 = tensor.empty() : tensor<576x1024xf32>
  %written = linalg.generic {indexing_maps = [#in, #swap], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<1024x576xf32>) outs(%e0 : tensor<576x1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<576x1024xf32>
  %e1 = tensor.empty() : tensor<1000x512xf32>
  %read = linalg.generic {indexing_maps = [#swap, #in], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<512x1000xf32>) outs(%e1 : tensor<1000x512xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<1000x512xf32>
  %e2 = tensor.empty() : tensor<768x768xf32>
  %named = linalg.transpose ins(%l : tensor<768x768xf32>) outs(%e2 : tensor<768x768xf32>) permutation = [1, 0]
  %tosa = tosa.transpose %img {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x224x224xf32>) -> tensor<1x224x224x3xf32>
  %heads = tosa.transpose %h {perms = array<i32: 0, 2, 1, 3>} : (tensor<1x5x12x64xf32>) -> tensor<1x12x5x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %copy = linalg.copy ins(%c : tensor<64x64xf32>) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %written, %read, %named, %tosa, %heads, %copy : tensor<576x1024xf32>, tensor<1000x512xf32>, tensor<768x768xf32>, tensor<1x224x224x3xf32>, tensor<1x12x5x64xf32>, tensor<64x64xf32>
}

#rot_in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#rot_out = affine_map<(d0, d1, d2) -> (d1, d2, d0)>
#nine_in = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d8, d0, d1, d2, d3, d4, d5, d6, d7)>
#nine_out = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d0, d1, d2, d3, d4, d5, d6, d7, d8)>
func.func @odd_transposes(%r: tensor<16x4x8xf32>, %d: tensor<?x576xf32>,
                          %n: tensor<3x2x1x1x1x1x1x1x2xf32>)
    -> (tensor<8x16x4xf32>, tensor<576x?xf32>, tensor<2x1x1x1x1x1x1x2x3xf32>) {
  %e = tensor.empty() : tensor<8x16x4xf32>
  %rot = linalg.generic {indexing_maps = [#rot_in, #rot_out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<16x4x8xf32>) outs(%e : tensor<8x16x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<8x16x4xf32>
  %dyn = tosa.transpose %d {perms = array<i32: 1, 0>} : (tensor<?x576xf32>) -> tensor<576x?xf32>
  %en = tensor.empty() : tensor<2x1x1x1x1x1x1x2x3xf32>
  %nine = linalg.generic {indexing_maps = [#nine_in, #nine_out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%n : tensor<3x2x1x1x1x1x1x1x2xf32>) outs(%en : tensor<2x1x1x1x1x1x1x2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x1x1x1x1x1x1x2x3xf32>
  return %rot, %dyn, %nine : tensor<8x16x4xf32>, tensor<576x?xf32>, tensor<2x1x1x1x1x1x1x2x3xf32>
}
