// Attention with batch 2 and 4 heads, folded into the matmuls' leading dim
// by reshapes: the template matches and the description splits batch and
// heads from Q's rank-4 shape.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s
// CHECK: | attention | {{[0-9]+}} | batch=2 seq=8 kv_len=8 heads=4 kv_heads=4 head_dim=16 | f32 |
func.func @attention_b2_h4(%q: tensor<2x4x8x16xf32>, %kt: tensor<8x16x8xf32>, %v: tensor<8x8x16xf32>) -> tensor<8x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %shape = tosa.const_shape {values = dense<[8, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %q3 = tosa.reshape %q, %shape : (tensor<2x4x8x16xf32>, !tosa.shape<3>) -> tensor<8x8x16xf32>
  %scores = tosa.matmul %q3, %kt, %z, %z : (tensor<8x8x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<8x8x8xf32>}> : () -> tensor<8x8x8xf32>
  %scaled = tosa.mul %scores, %scale, %s0 : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<1xi8>) -> tensor<8x8x8xf32>
  %max = tosa.reduce_max %scaled {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %sub = tosa.sub %scaled, %max : (tensor<8x8x8xf32>, tensor<8x8x1xf32>) -> tensor<8x8x8xf32>
  %exp = tosa.exp %sub : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %p = tosa.mul %exp, %inv, %s0 : (tensor<8x8x8xf32>, tensor<8x8x1xf32>, tensor<1xi8>) -> tensor<8x8x8xf32>
  %out = tosa.matmul %p, %v, %z, %z : (tensor<8x8x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x16xf32>
  return %out : tensor<8x8x16xf32>
}

// Grouped-query attention: 2 key/value heads repeated (tile) for 4 query
// heads; kv_heads comes from K's path.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s --check-prefix=GQA
// GQA: | attention | {{[0-9]+}} | batch=2 seq=8 kv_len=8 heads=4 kv_heads=2 head_dim=16 | f32 |
func.func @attention_gqa(%q: tensor<2x4x8x16xf32>, %k: tensor<2x2x16x8xf32>, %v: tensor<8x8x16xf32>) -> tensor<8x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qshape = tosa.const_shape {values = dense<[8, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kshape = tosa.const_shape {values = dense<[8, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reps = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %qshape : (tensor<2x4x8x16xf32>, !tosa.shape<3>) -> tensor<8x8x16xf32>
  %k4 = tosa.tile %k, %reps : (tensor<2x2x16x8xf32>, !tosa.shape<4>) -> tensor<2x4x16x8xf32>
  %kt = tosa.reshape %k4, %kshape : (tensor<2x4x16x8xf32>, !tosa.shape<3>) -> tensor<8x16x8xf32>
  %scores = tosa.matmul %q3, %kt, %z, %z : (tensor<8x8x16xf32>, tensor<8x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x8xf32>
  %max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %sub = tosa.sub %scores, %max : (tensor<8x8x8xf32>, tensor<8x8x1xf32>) -> tensor<8x8x8xf32>
  %exp = tosa.exp %sub : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<8x8x1xf32>) -> tensor<8x8x1xf32>
  %p = tosa.mul %exp, %inv, %s0 : (tensor<8x8x8xf32>, tensor<8x8x1xf32>, tensor<1xi8>) -> tensor<8x8x8xf32>
  %out = tosa.matmul %p, %v, %z, %z : (tensor<8x8x8xf32>, tensor<8x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x8x16xf32>
  return %out : tensor<8x8x16xf32>
}
