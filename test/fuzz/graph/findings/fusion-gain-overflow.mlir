// LD_PRELOAD=$(gcc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 \
//   mlir-opt --load-pass-plugin=build-asan/lib/LatencyPlugin.so --annotate-latency fusion-gain-overflow.mlir
// ASan heap-buffer-overflow, WRITE of size 4 (ASan build at 76bb3d4; also with
// fusion=greedy): fusedEdges (passes/fusion_gain.c:179, `sides[n + b++] = ...`) writes
// the two sides of a cut at nodes[n .. 3n) of the buffer latFusionAnalyze
// (fusion_gain.c:267) allocates with 2 * numNodes + 2 ints; a kernel of six fused
// elementwise ops (here dead: nothing is returned) has n = 6 > (2 * numNodes + 2) / 3.
// The normal build exits 0 (silent heap corruption). Graph fuzz: fusion=greedy runs on
// BERT-tiny windows (unregistered_op, call(outline-called-twice)).
// Status: fixed in 5e99936 (scratch buffer sized for both sides of a cut).
func.func @f(%a: tensor<1024x1024xf32>) {
  %0 = tosa.exp %a : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %1 = tosa.exp %0 : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %2 = tosa.exp %1 : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %3 = tosa.exp %2 : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %4 = tosa.exp %3 : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %5 = tosa.exp %4 : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return
}
