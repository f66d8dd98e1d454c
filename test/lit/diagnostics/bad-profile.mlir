// An unreadable profile is an error diagnostic and a clean pass failure.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{profile=%S/no-such-profile})' -verify-diagnostics %s
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(annotate-latency{profile=no-such-name})' -verify-diagnostics %s

// expected-error@+1 {{latency: cannot load profile:}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
