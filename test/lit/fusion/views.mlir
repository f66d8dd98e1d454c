// Views cost what they produce (issue 11): slices and reshapes of a function
// argument select part of a buffer the caller holds, so the op reading one
// counts the bytes it selects, not the whole argument; a gather reads the
// rows it selects, not its whole table.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency='report=%t.json' %s -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: %python %S/../Inputs/check_report.py %t.mlir %t.json
// RUN: %python -c "import json,sys; f={x['name']: x for x in json.load(open(sys.argv[1]))['functions']}; p=f['packed_weights']; assert [k['type'] for k in p['kernels']] == ['matmul', 'matmul'], p; assert all(k['bytes'] < 2 * 4 * 4096 * 4096 for k in p['kernels']), p; g=f['embedding_gather']['kernels'][0]; assert g['type'] == 'gather' and g['bytes'] < 2 * 4 * 12 * 1024 + 100, g" %t.json

// A LLaMA export (torch-mlir, linalg) passes every weight in one packed
// argument and slices each weight out of it: 27 GB read once per slice
// before, now each matmul reads its 64 MB weight.
// CHECK-LABEL: func.func @packed_weights
// CHECK-SAME: latency.kernels = 2 : i64
// CHECK-NOT: tensor.extract_slice {{.*}}latency.kernel
func.func @packed_weights(%x: tensor<32x4096xf32>, %packed: tensor<6755192832xf32>) -> tensor<32x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  %w0 = tensor.extract_slice %packed[0] [16777216] [1] : tensor<6755192832xf32> to tensor<16777216xf32>
  %m0 = tensor.expand_shape %w0 [[0, 1]] output_shape [4096, 4096] : tensor<16777216xf32> into tensor<4096x4096xf32>
  %y0 = linalg.matmul ins(%x, %m0 : tensor<32x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  %w1 = tensor.extract_slice %packed[16777216] [16777216] [1] : tensor<6755192832xf32> to tensor<16777216xf32>
  %m1 = tensor.expand_shape %w1 [[0, 1]] output_shape [4096, 4096] : tensor<16777216xf32> into tensor<4096x4096xf32>
  %y1 = linalg.matmul ins(%y0, %m1 : tensor<32x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<32x4096xf32>) -> tensor<32x4096xf32>
  return %y1 : tensor<32x4096xf32>
}

// CLIP's token embedding: 12 rows of a 49408 x 1024 table (202 MB).
// CHECK-LABEL: func.func @embedding_gather
// CHECK-SAME: latency.kernels = 1 : i64
func.func @embedding_gather(%table: tensor<1x49408x1024xf32>, %ids: tensor<1x12xi32>) -> tensor<1x12x1024xf32> {
  %r = tosa.gather %table, %ids : (tensor<1x49408x1024xf32>, tensor<1x12xi32>) -> tensor<1x12x1024xf32>
  return %r : tensor<1x12x1024xf32>
}
