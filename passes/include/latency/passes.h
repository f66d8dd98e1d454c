/*===- latency/passes.h - C entry points of the latency passes -------------===*
 *
 * The passes are written in C against the MLIR C API. The C++ pass wrappers in
 * plugin/ parse the options and call these functions; they report problems as
 * diagnostics at op locations and return failure only when the pass cannot
 * run at all (e.g. an unreadable profile).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PASSES_H
#define LATENCY_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Options of the annotate-latency pass; strings are borrowed, "" = unset.
typedef struct {
  const char *profile;   /* profile name or directory; "" = default    */
  bool interpolation;    /* false: exact lookup, then roofline          */
  const char *fusion;    /* rules ("" / true), false (single-op kernels)
                            or greedy (merged by estimated gain)      */
  const char *report;    /* .json/.md/.csv path, "-" = Markdown stdout  */
  const char *trace;     /* Chrome trace event JSON path                */
  const int64_t *inputs; /* argument indices that change per inference */
  size_t numInputs;
  bool inputsGiven;      /* false: every argument is an input (default) */
  bool gains;            /* false: no fusion analysis (latency.fusion) */
  const char *precision; /* as-is (""), bf16, f16, fp8, int8: the type
                            float kernels are costed in             */
  bool freshMemory;      /* predict a whole run whose buffers of 128 KiB
                            or more are all mapped anew on every call:
                            kernels' results other kernels read pay their
                            pages too (latency-profile --validate
                            --fresh-memory measures so); false: only
                            those of 32 MiB or more, always mapped   */
} LatAnnotateOptions;

/// Annotates every function in `module` with kernel ids and latency
/// estimates; returns failure only when the pass cannot run (the reason has
/// been emitted as an error diagnostic).
MlirLogicalResult latAnnotateLatency(MlirOperation module,
                                     const LatAnnotateOptions *options);

/// Groups the ops of every function in `module` into fusion kernels and tags
/// them with `latency.kernel`; `rules` (a fusion.csv path, "" = unset)
/// overrides the rules of `profile`; `compare` (another fusion.csv, "" =
/// unset) prints both partitions' kernels and predicted totals to stdout.
MlirLogicalResult latDetectFusionKernels(MlirOperation module,
                                         const char *profile, const char *rules,
                                         const char *compare);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_PASSES_H */
