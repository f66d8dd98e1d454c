/*===- cutout.h - one kernel of a model as a function of its own ----------===*
 *
 * A kernel found by the passes' detection (passes/graph.h) becomes
 * `func.func @kernel`: clones of its member ops in program order; every
 * tensor it reads from outside (activations, weights, constants larger
 * than a few thousand elements) an argument; every result used outside the
 * kernel returned. Init tensors, scalars and small constants the kernel
 * reads are cloned in with it, as the lowering needs them constant.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_CUTOUT_H
#define LATENCY_PROFILE_CUTOUT_H

#include "graph.h"
#include "mlir_host.h"

#include <stdbool.h>
#include <stddef.h>

/// Writes a module holding kernel `kernel` of `graph` as `func.func
/// @kernel` to `path`; false with the reason in `err` (a value it cannot
/// pass as an argument, a cut-out that does not verify: `host` collects
/// the verifier's errors, an unwritable file). The graph's IR is left as
/// it was.
bool lpCutoutWrite(LpHost *host, const LatGraph *graph, int kernel,
                   const char *path, char *err, size_t size);

#endif /* LATENCY_PROFILE_CUTOUT_H */
