/*===- constants.h - give elided weights random values --------------------===*/
#ifndef LATENCY_PROFILE_CONSTANTS_H
#define LATENCY_PROFILE_CONSTANTS_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

/// Replaces every elided constant of `module` (`dense_resource<__elided__>`
/// in a `value` or `values` attribute: exporters drop the weights) by a
/// dense constant of random values from `seed`, so the module can be
/// lowered and run. Returns how many were replaced, or -1 when out of
/// memory or a constant's type is not supported (`err` says which).
long lpRandomizeElidedConstants(MlirModule module, uint64_t *seed, char *err,
                                size_t size);

#endif /* LATENCY_PROFILE_CONSTANTS_H */
