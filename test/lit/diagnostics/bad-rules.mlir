// A rules file that cannot be read fails detect-fusion-kernels cleanly.
// RUN: %mlir_opt --load-pass-plugin=%plugin --pass-pipeline='builtin.module(detect-fusion-kernels{rules=%S/no-rules.csv})' -verify-diagnostics %s

// expected-error@+1 {{latency: cannot load rules: }}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
