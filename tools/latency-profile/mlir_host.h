/*===- mlir_host.h - one MLIR context for latency-profile -----------------===*
 *
 * Every process of latency-profile (the driver and each measuring child)
 * holds one context with every upstream dialect, pass and LLVM translation
 * registered, and one diagnostic handler that keeps the text of the last
 * errors so a failure can say why (diagnostics are never printed directly).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_MLIR_HOST_H
#define LATENCY_PROFILE_MLIR_HOST_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

enum { LP_DIAG_SIZE = 1024 };

/// A context and the errors it reported since the last lpHostClearErrors.
typedef struct {
  MlirContext ctx;
  char errors[LP_DIAG_SIZE]; /* "file:line:col: message; ..." */
  size_t numErrors;
} LpHost;

/// Creates `host->ctx` with everything registered and multithreading off
/// (the driver spawns children; measurements run one at a time). Release
/// with lpHostDestroy.
void lpHostCreate(LpHost *host);

/// Destroys the context of `host`; a host without one is a no-op.
void lpHostDestroy(LpHost *host);

/// Forgets the errors collected so far.
void lpHostClearErrors(LpHost *host);

/// Parses the MLIR file at `path`; a null module on failure, with the
/// reason in `err` (`size` bytes).
MlirModule lpHostParseFile(LpHost *host, const char *path, char *err,
                           size_t size);

/// Parses the MLIR module in `text`; a null module on failure, with the
/// reason in `err`.
MlirModule lpHostParseText(LpHost *host, const char *text, char *err,
                           size_t size);

/// Runs the textual pass pipeline `pipeline` (anchored on builtin.module)
/// on `module`; false with the reason in `err` when it does not parse or a
/// pass fails.
bool lpHostRunPipeline(LpHost *host, MlirModule module, const char *pipeline,
                       char *err, size_t size);

/// Writes `op` as MLIR text to `path` (generic form when `generic`); false
/// with the reason in `err` when the file cannot be written.
bool lpWriteOperation(MlirOperation op, const char *path, bool generic,
                      char *err, size_t size);

/// Returns the func.func named `name` directly inside `module`, or when
/// `name` is NULL or "" the last public function with a body (else the last
/// private one: a model's entry, not its helpers); a null op when there is
/// none.
MlirOperation lpFindFunction(MlirModule module, const char *name);

/// Returns true when `op` is a func.func with a body.
bool lpIsFunctionWithBody(MlirOperation op);

/// Copies the symbol name of function `func` into `out`.
void lpFunctionName(MlirOperation func, char *out, size_t size);

#endif /* LATENCY_PROFILE_MLIR_HOST_H */
