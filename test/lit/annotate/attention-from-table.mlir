// A bf16 grouped-query attention layer (32 query heads, 8 key/value heads,
// head_dim 128, seq 512) in TOSA is recognised as one attention kernel and
// answered from the H100 prefill attention table: a measured exact hit. The
// tile that repeats the KV heads folds into the kernel (attention kernels
// read grouped K and V as they are), so the function is that one kernel.
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s
// RUN: %mlir_opt --load-pass-plugin=%plugin --annotate-latency=report=- %s -o /dev/null | FileCheck %s --check-prefix=DECODE
// CHECK: | attention | 11 | batch=1 seq=512 kv_len=512 heads=32 kv_heads=8 head_dim=128 | bf16 | 25.616 | measured | 1.00 | exact |
func.func @llama_attention(%q: tensor<1x32x512x128xbf16>, %k: tensor<1x8x128x512xbf16>, %v: tensor<32x512x128xbf16>) -> tensor<32x512x128xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qshape = tosa.const_shape {values = dense<[32, 512, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kshape = tosa.const_shape {values = dense<[32, 128, 512]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reps = tosa.const_shape {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %qshape : (tensor<1x32x512x128xbf16>, !tosa.shape<3>) -> tensor<32x512x128xbf16>
  %k4 = tosa.tile %k, %reps : (tensor<1x8x128x512xbf16>, !tosa.shape<4>) -> tensor<1x32x128x512xbf16>
  %kt = tosa.reshape %k4, %kshape : (tensor<1x32x128x512xbf16>, !tosa.shape<3>) -> tensor<32x128x512xbf16>
  %scores = tosa.matmul %q3, %kt, %z, %z : (tensor<32x512x128xbf16>, tensor<32x128x512xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<32x512x512xf32>
  %max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<32x512x512xf32>) -> tensor<32x512x1xf32>
  %sub = tosa.sub %scores, %max : (tensor<32x512x512xf32>, tensor<32x512x1xf32>) -> tensor<32x512x512xf32>
  %exp = tosa.exp %sub : (tensor<32x512x512xf32>) -> tensor<32x512x512xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<32x512x512xf32>) -> tensor<32x512x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<32x512x1xf32>) -> tensor<32x512x1xf32>
  %p = tosa.mul %exp, %inv, %s0 : (tensor<32x512x512xf32>, tensor<32x512x1xf32>, tensor<1xi8>) -> tensor<32x512x512xf32>
  %pb = tosa.cast %p : (tensor<32x512x512xf32>) -> tensor<32x512x512xbf16>
  %out = tosa.matmul %pb, %v, %z, %z : (tensor<32x512x512xbf16>, tensor<32x512x128xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<32x512x128xf32>
  return %out : tensor<32x512x128xf32>
}

// One decode step of the same layer (one query row against a 1024-entry KV
// cache) is attention_decode, answered from the H100 decode table along
// kv_len, not the prefill table at seq=1.
// DECODE: | attention_decode | 11 | batch=1 seq=1 kv_len=1024 heads=32 kv_heads=8 head_dim=128 | bf16 | {{[0-9.]+}} | {{measured|interpolated}} |
func.func @llama_decode_attention(%q: tensor<1x32x1x128xbf16>, %k: tensor<1x8x128x1024xbf16>, %v: tensor<32x1024x128xbf16>) -> tensor<32x1x128xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qshape = tosa.const_shape {values = dense<[32, 1, 128]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kshape = tosa.const_shape {values = dense<[32, 128, 1024]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %reps = tosa.const_shape {values = dense<[1, 4, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %qshape : (tensor<1x32x1x128xbf16>, !tosa.shape<3>) -> tensor<32x1x128xbf16>
  %k4 = tosa.tile %k, %reps : (tensor<1x8x128x1024xbf16>, !tosa.shape<4>) -> tensor<1x32x128x1024xbf16>
  %kt = tosa.reshape %k4, %kshape : (tensor<1x32x128x1024xbf16>, !tosa.shape<3>) -> tensor<32x128x1024xbf16>
  %scores = tosa.matmul %q3, %kt, %z, %z : (tensor<32x1x128xbf16>, tensor<32x128x1024xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<32x1x1024xf32>
  %max = tosa.reduce_max %scores {axis = 2 : i32} : (tensor<32x1x1024xf32>) -> tensor<32x1x1xf32>
  %sub = tosa.sub %scores, %max : (tensor<32x1x1024xf32>, tensor<32x1x1xf32>) -> tensor<32x1x1024xf32>
  %exp = tosa.exp %sub : (tensor<32x1x1024xf32>) -> tensor<32x1x1024xf32>
  %sum = tosa.reduce_sum %exp {axis = 2 : i32} : (tensor<32x1x1024xf32>) -> tensor<32x1x1xf32>
  %inv = tosa.reciprocal %sum : (tensor<32x1x1xf32>) -> tensor<32x1x1xf32>
  %p = tosa.mul %exp, %inv, %s0 : (tensor<32x1x1024xf32>, tensor<32x1x1xf32>, tensor<1xi8>) -> tensor<32x1x1024xf32>
  %pb = tosa.cast %p : (tensor<32x1x1024xf32>) -> tensor<32x1x1024xbf16>
  %out = tosa.matmul %pb, %v, %z, %z : (tensor<32x1x1024xbf16>, tensor<32x1024x128xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<32x1x128xf32>
  return %out : tensor<32x1x128xf32>
}
