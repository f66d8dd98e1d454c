// A linalg model with an elided weight (as exporters print them), a token-id
// input, its own declaration of the runtime's clock, a module that does not
// start its line and a resource blob after it: the cross-check fills the
// weight, gives the ids 0, adds only the runtime declarations the module
// lacks, inside the module, before the blobs.
 module {
  func.func private @rtclock() -> f64
  func.func @forward(%ids: tensor<1x8xi64>, %x: tensor<8x16xf32>) -> (tensor<8x32xf32>, tensor<1x8xi64>) {
    %w = arith.constant dense_resource<__elided__> : tensor<16x32xf32>
    %scale = arith.constant dense_resource<scale> : tensor<2xf32>
    %zero = arith.constant 0.0 : f32
    %init = tensor.empty() : tensor<8x32xf32>
    %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<8x32xf32>) -> tensor<8x32xf32>
    %y = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%acc : tensor<8x32xf32>) -> tensor<8x32xf32>
    return %y, %ids : tensor<8x32xf32>, tensor<1x8xi64>
  }
}
{-#
  dialect_resources: {
    builtin: {
      scale: "0x040000000000803F0000803F"
    }
  }
#-}
