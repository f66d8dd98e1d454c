/*===- runner.h - lower, JIT and time one function (the child process) ----===*
 *
 * `latency-profile --run FILE` is what the driver spawns for every kernel
 * and every whole model: a crash in the lowering, the JIT or the generated
 * code takes down that child only. The child prints one line to stdout:
 *
 *   ok us=<median> cv=<percent> reps=<n> calls=<per rep> lowering=<name>
 *   error <stage>: <reason>
 *
 * The generated code allocates from glibc's main arena, as it does in
 * `mlir-runner` or any single-threaded program that calls the model, and a
 * kernel measured with `--fresh-memory` gets freshly mapped pages for
 * every buffer it allocates on every call, as it does inside a whole run
 * (allocator.h says why).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_RUNNER_H
#define LATENCY_PROFILE_RUNNER_H

#include "timing.h"

/// What the child measures and how.
typedef struct {
  const char *file;       /* module to run                                */
  const char *entry;      /* function to call; NULL: the last with a body */
  const char *pipeline;   /* "loops", "vectorized" or a pipeline string   */
  const char *kernelType; /* for the crash-test hook; may be NULL         */
  bool freshMemory;       /* every call's buffers freshly mapped          */
  LpTimingOptions timing;
} LpRunOptions;

/// Runs the child: prints the result line and returns its exit status (0
/// when measured, 1 when not).
int lpRunMain(const LpRunOptions *options);

#endif /* LATENCY_PROFILE_RUNNER_H */
