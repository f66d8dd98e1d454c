/*===- pipelines.c - the lowering pipelines a profile is measured with ----===*
 *
 * `loops` is a stock pipeline of upstream passes only (docs/profiling.md
 * lists it): TOSA constant folding (weights are transposed once, as the
 * pass assumes), TOSA to linalg, elementwise tensor ops to linalg,
 * canonicalize, one-shot bufferization with results as out-parameters,
 * buffer deallocation, linalg to plain loops, everything to LLVM; the JIT
 * then compiles at -O3.
 *
 * `vectorized` is `loops` with a transform-dialect schedule applied after
 * TOSA is lowered (TOSA convs in the HWCF kernel layout, which the 2D -> 1D
 * decomposition handles): matmuls and batch matmuls tiled 8 x 32 and
 * vectorized with masks, NHWC convs tiled, decomposed to 1D and
 * vectorized, contractions lowered to outer products. Each op's schedule
 * runs with failures suppressed, so an op that does not vectorize stays
 * (tiled) scalar loops; a kernel whose lowering fails as a whole falls back
 * to `loops` (runner.c), recorded per row.
 *
 *===----------------------------------------------------------------------===*/
#include "pipelines.h"

#include "schedule.h"

#include <stdio.h>
#include <string.h>

#define LP_FRONT(NAMED)                                                        \
  "func.func(tosa-layerwise-constant-fold,tosa-optional-decompositions,"       \
  "tosa-infer-shapes,tosa-make-broadcastable," NAMED ",tosa-to-linalg,"        \
  "tosa-to-arith{include-apply-rescale=true},tosa-to-tensor,tosa-to-scf,"      \
  "convert-elementwise-to-linalg),"                                            \
  "canonicalize,"

#define LP_BUFFERIZE                                                           \
  "one-shot-bufferize{bufferize-function-boundaries "                          \
  "function-boundary-type-conversion=identity-layout-map},"                    \
  "buffer-results-to-out-params{hoist-static-allocs "                          \
  "modify-public-functions},"                                                  \
  "buffer-deallocation-pipeline,"

#define LP_TO_LLVM(VECTOR)                                                     \
  "expand-strided-metadata,lower-affine,convert-scf-to-cf," VECTOR             \
  "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"           \
  "convert-index-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,"        \
  "convert-cf-to-llvm,reconcile-unrealized-casts"

static const char loopsPipeline[] =
    "builtin.module(" LP_FRONT("tosa-to-linalg-named") LP_BUFFERIZE
    "convert-linalg-to-loops," LP_TO_LLVM("") ")";

#define LP_HWCF "tosa-to-linalg-named{prefer-conv2d-kernel-layout-hwcf=true}"
#define LP_SCHEDULE                                                            \
  "transform-preload-library{transform-library-paths=" LP_SCHEDULE_PATH "},"   \
  "transform-interpreter,canonicalize,"
#define LP_VECTOR_TO_LLVM "convert-vector-to-llvm,convert-ub-to-llvm,"

// clang-format off
static const char vectorizedPipeline[] =
    "builtin.module(" LP_FRONT(LP_HWCF) LP_SCHEDULE LP_BUFFERIZE
    "convert-linalg-to-loops,convert-vector-to-scf,"
    LP_TO_LLVM(LP_VECTOR_TO_LLVM) ")";
// clang-format on

LpPipeline lpPipelineResolve(const char *spec) {
  if (!spec || !*spec || !strcmp(spec, "loops"))
    return (LpPipeline){"loops", loopsPipeline, NULL, NULL};
  if (!strcmp(spec, "vectorized"))
    return (LpPipeline){"vectorized", vectorizedPipeline, loopsPipeline,
                        lpVectorizeSchedule};
  return (LpPipeline){"custom", spec, NULL, NULL};
}

bool lpPipelinePasses(const LpPipeline *pipeline, const char *schedulePath,
                      char *out, size_t size) {
  const char *at = strstr(pipeline->passes, LP_SCHEDULE_PATH);
  int n = at ? snprintf(out, size, "%.*s%s%s", (int)(at - pipeline->passes),
                        pipeline->passes, schedulePath,
                        at + strlen(LP_SCHEDULE_PATH))
             : snprintf(out, size, "%s", pipeline->passes);
  return n >= 0 && (size_t)n < size;
}

bool lpPipelineFoldsTosaConstants(const char *passes) {
  return passes && strstr(passes, "tosa-layerwise-constant-fold") != NULL;
}
