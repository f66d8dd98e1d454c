// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency='report=r.json trace=t.json' callee-name-utf8.mlir
// Invalid UTF-8 (plugin at 5b82058 and 76bb3d4): the callee's name (240 bytes of U+00E9) is cut at a
// byte count, inside a character: describeCall (passes/kernel_describe.c:282-283)
// snprintf's it into k->callee[128] and then "callee=@..." into k->axes[160]. The
// warning "call to @..., which has no body" on stderr, the JSON report's "axes" and the
// trace's args carry a lone 0xC3 byte: r.json is not valid JSON (json.load: invalid
// continuation byte).
// Graph fuzz: call(declaration) + names(callee-name).
// Status: fixed in 5e99936 (whole symbol names); valid UTF-8 at 98cc2bd.
func.func private @"éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"(tensor<4xf32>) -> tensor<4xf32>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @"éééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééééé"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
