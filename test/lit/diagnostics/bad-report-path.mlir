// A report path with an unknown extension is an error, not a silent skip.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{report=%t.txt})' -verify-diagnostics %s

// expected-error@+1 {{must end in .json, .md or .csv}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
