//===- latency-opt.cpp - mlir-opt with every upstream pass plus ours ------===//
//
// A drop-in mlir-opt where our passes are known before the command line is
// parsed, so `latency-opt --canonicalize --annotate-latency` composes.
//
//===----------------------------------------------------------------------===//
#include "PassWrappers.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  latency::registerLatencyPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "mlir-latency optimizer driver\n", registry));
}
