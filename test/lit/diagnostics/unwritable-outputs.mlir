// A report or trace that cannot be written is an error at the module and a
// clean pass failure, not a silent skip.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{report=%t.missing/r.json})' -verify-diagnostics %s
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{trace=%t.missing/t.json})' -verify-diagnostics %s

// expected-error@+1 {{cannot write}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
