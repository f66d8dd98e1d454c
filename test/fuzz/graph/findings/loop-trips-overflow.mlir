// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency loop-trips-overflow.mlir
// Negative latency (plugin at 5b82058 and 76bb3d4, normal and ASan builds, no diagnostic): the loop
// runs 2^64 - 2 times; iterations() (passes/control_flow.c:63-65) computes 1.8e19 trips
// as a double, then rounds up through (double)(int64_t)*trips, a conversion out of
// int64's range (undefined; INT64_MIN here), so the trip count becomes -9.2e18 and the
// function gets latency.total_us = -2.3e19. Found by probing wide loop bounds after the
// fuzzer's scf_wrap(for) runs; since then scf_wrap(for-2^64) makes such loops and finds
// it (7 of 6000 mutants: "annotation count = -9.2233720368547758E+18"). With
// fusion=greedy (76bb3d4) the same loop fails the pass with "error: latency: out of
// memory in the greedy partition" at loc 0:0 (117 MB used, no allocation failed).
// Status: fixed in 5e99936 (trips in doubles): 4.6e19 us at 98cc2bd, greedy runs too.
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %lb = arith.constant -9223372036854775807 : index
  %ub = arith.constant 9223372036854775807 : index
  %st = arith.constant 1 : index
  %r = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> (tensor<64x64xf32>) {
    %0 = tosa.add %a, %a : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    scf.yield %0 : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
