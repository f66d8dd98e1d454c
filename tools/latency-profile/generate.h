/*===- generate.h - kernels of a known family at any shape ----------------===*
 *
 * The sweep measures kernel types the models showed at shapes they did not:
 * a generator writes a small linalg-on-tensors function in the form the
 * bundled exporters use (NCHW convolutions with a padding op, batch norm,
 * residual add and ReLU as linalg.generic epilogues; matmuls with a bias
 * add; elementwise ops), and the pass's own detection then names and
 * describes it, so a generated row is keyed exactly as the pass looks it up.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_GENERATE_H
#define LATENCY_PROFILE_GENERATE_H

#include "shapes.h"

#include <stdbool.h>
#include <stddef.h>

/// Returns true when the sweep should generate kernels of `shape`'s type
/// and element type: convolutions, matmuls and plain attention (K and V
/// with the query's heads, generate_attention.h). Elementwise kernels are
/// described by their element count alone, and their time depends on the
/// shape the exporter gave them (a [1, 144, 4, 4] ReLU costs 20 times a
/// 1-D one of the same size through `loops`): generated 1-D ones would only
/// blur their tables.
bool lpCanGenerate(const LpShape *shape);

/// Field `name` of `shape` as a whole number, or `value` when `name` is
/// `axis` (the axis a generated kernel moves); -1 when absent. For the
/// generators (generate.c, generate_attention.c).
long lpGeneratedField(const LpShape *shape, const char *name, const char *axis,
                      double value);

/// Writes to `out` (`size` bytes) a module with `func.func @forward` holding
/// one kernel of `shape`'s type whose fields are `shape`'s with axis `axis`
/// set to `value` (`axis` NULL: unchanged); false when the generator does
/// not know the type or the shape cannot be built (a non-square hw, a
/// window that is not a square).
bool lpGenerateKernel(const LpShape *shape, const char *axis, double value,
                      char *out, size_t size);

#endif /* LATENCY_PROFILE_GENERATE_H */
