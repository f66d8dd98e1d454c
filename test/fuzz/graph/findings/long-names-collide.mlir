// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency long-names-collide.mlir
// Wrong estimate, no diagnostic (plugin at 5b82058 and 76bb3d4): symbol names are kept as their
// first 127 bytes (k->callee[128], LatFunctionReport.name[128]), so the call to @x..xB
// (a 4096^3 matmul, 2415.8 us) is costed as @x..xA (an add, 2.5 us): @main gets
// latency.total_us = 2.51 instead of 2415.8. Found while reducing callee-name-utf8.mlir.
// Status: fixed in 5e99936: @main is 2415.8 us at 98cc2bd.
func.func private @xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxA(%a: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = tosa.add %a, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
func.func private @xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxB(%a: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%a : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
func.func @main(%a: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %0 = call @xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxB(%a) : (tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %0 : tensor<4096x4096xf32>
}
