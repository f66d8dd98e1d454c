/*===- pipelines.c - the lowering pipelines a profile is measured with ----===*
 *
 * `loops` is a stock pipeline of upstream passes only (docs/profiling.md
 * lists it): TOSA constant folding (weights are transposed once, as the
 * pass assumes), TOSA to linalg, elementwise tensor ops to linalg,
 * canonicalize, one-shot bufferization with results as out-parameters,
 * buffer deallocation, linalg to plain loops, everything to LLVM; the JIT
 * then compiles at -O3.
 *
 *===----------------------------------------------------------------------===*/
#include "pipelines.h"

#include <string.h>

#define LP_FRONT                                                               \
  "func.func(tosa-layerwise-constant-fold,tosa-optional-decompositions,"       \
  "tosa-infer-shapes,"                                                         \
  "tosa-make-broadcastable,tosa-to-linalg-named,tosa-to-linalg,"               \
  "tosa-to-arith,tosa-to-tensor,tosa-to-scf,convert-elementwise-to-linalg),"   \
  "canonicalize,"

#define LP_BUFFERIZE                                                           \
  "one-shot-bufferize{bufferize-function-boundaries "                          \
  "function-boundary-type-conversion=identity-layout-map},"                    \
  "buffer-results-to-out-params{hoist-static-allocs "                          \
  "modify-public-functions},"                                                  \
  "buffer-deallocation-pipeline,"

#define LP_TO_LLVM                                                             \
  "expand-strided-metadata,lower-affine,convert-scf-to-cf,"                    \
  "convert-math-to-llvm,convert-math-to-libm,convert-arith-to-llvm,"           \
  "convert-index-to-llvm,finalize-memref-to-llvm,convert-func-to-llvm,"        \
  "convert-cf-to-llvm,reconcile-unrealized-casts"

static const char loopsPipeline[] = "builtin.module(" LP_FRONT LP_BUFFERIZE
                                    "convert-linalg-to-loops," LP_TO_LLVM ")";

LpPipeline lpPipelineResolve(const char *spec) {
  if (!spec || !*spec || !strcmp(spec, "loops"))
    return (LpPipeline){"loops", loopsPipeline, NULL};
  return (LpPipeline){"custom", spec, NULL};
}
