// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency='report=r.json trace=t.json' function-name-utf8.mlir
// Invalid UTF-8 (plugin at 5b82058 and 76bb3d4): the function's name is cut to 127 bytes
// (LatFunctionReport.name[128], passes/report.h:12) inside a character, so r.json,
// t.json and the .md / .csv reports hold a lone 0xC3 byte (not valid JSON / UTF-8).
// With one more ASCII byte in front of the name the cut falls between characters and
// the reports are valid. Graph fuzz: names(func-name).
// Status: fixed in 5e99936 (whole symbol names).
func.func @"éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
