/*===- latency/diagnostics.h - warnings and remarks for C passes -----------===*
 *
 * The MLIR C API can emit errors only (mlirEmitError). Warnings and remarks
 * are implemented in passes/capi/Diagnostics.cpp, the one place that may unwrap
 *a location into C++.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_DIAGNOSTICS_H
#define LATENCY_DIAGNOSTICS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Emits `message` as a warning at `location`.
void latEmitWarning(MlirLocation location, const char *message);

/// Emits `message` as a remark at `location`.
void latEmitRemark(MlirLocation location, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_DIAGNOSTICS_H */
