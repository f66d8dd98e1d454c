//===- Diagnostics.cpp - warnings and remarks for the C passes ------------===//
//
// The MLIR C API only offers mlirEmitError; this file supplies the other
// severities to passes/ with C linkage.
//
//===----------------------------------------------------------------------===//
#include "latency/diagnostics.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"

void latEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location), message);
}

void latEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location), message);
}
