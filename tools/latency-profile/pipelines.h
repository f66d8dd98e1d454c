/*===- pipelines.h - the lowering pipelines a profile is measured with ----===*
 *
 * A profile answers only for the pipeline it was measured with: the name
 * and the pass string go into device.csv and into every table row.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_PIPELINES_H
#define LATENCY_PROFILE_PIPELINES_H

#include <stdbool.h>
#include <stddef.h>

/// A pipeline: its short name and the pass pipeline string that lowers a
/// module of TOSA / linalg-on-tensors functions to the LLVM dialect, with
/// tensor results turned into out-parameters (the calling convention
/// runner.c uses).
typedef struct {
  const char *name;     /* "loops", "vectorized" or "custom"             */
  const char *passes;   /* builtin.module(...)                            */
  const char *fallback; /* per-kernel fallback when it fails, or NULL     */
  const char *schedule; /* transform library its passes load, or NULL;
                           LP_SCHEDULE_PATH in `passes` names its file */
} LpPipeline;

/// The placeholder for the schedule file's path in a pipeline's passes.
#define LP_SCHEDULE_PATH "@SCHEDULE@"

/// Resolves `spec`: "loops" and "vectorized" name the built-in pipelines;
/// any other text is taken as a pipeline string of its own ("custom").
LpPipeline lpPipelineResolve(const char *spec);

/// Writes `pipeline`'s passes to `out` with the schedule placeholder
/// replaced by `schedulePath`; false when `out` is too small.
bool lpPipelinePasses(const LpPipeline *pipeline, const char *schedulePath,
                      char *out, size_t size);

/// Returns true when `passes` folds TOSA ops on constants at compile time
/// (tosa-layerwise-constant-fold); no pipeline folds other constant work.
bool lpPipelineFoldsTosaConstants(const char *passes);

#endif /* LATENCY_PROFILE_PIPELINES_H */
