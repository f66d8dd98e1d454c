// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency='report=r.csv' csv-function-name.mlir
// Broken CSV report (plugin at de9fbaf and 76bb3d4): writeCsv (passes/report.c, "%s,%zu,...") writes
// the function name unquoted, so a name with a comma (or a quote or newline) shifts every
// column: the kernel row has 15 fields under a 14-field header. The loc column is quoted;
// "axes" is not either (a callee's name lands there: "callee=@a,b").
// Graph fuzz: names(func-name) with "new\nline", report-md-csv run.
// Status: fixed in 5e99936 (quoted CSV cells).
func.func @"a,b"(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
