// mlir-opt --load-pass-plugin=build/lib/LatencyPlugin.so --annotate-latency call-without-results.mlir
// SIGSEGV (plugin at 90654e8): a func.call with no results is a kernel; describeKernel
// (passes/kernel_describe.c:433) reads result 0 of the call, a null value, and
// latShapeOf (passes/ir_util.c:58) calls mlirTypeIsAShaped on its null type.
// Also with --detect-fusion-kernels and fusion=false. Graph fuzz: call(outline),
// call(recursive) after truncate(return-nothing). No crash at 057bed2 (checked
// access), which warns "unsupported element type '?'" at the call instead.
// Status at 98cc2bd: no crash; still warns "unsupported element type '?'" at the call.
func.func private @callee() {
  return
}
func.func @f() {
  call @callee() : () -> ()
  return
}
