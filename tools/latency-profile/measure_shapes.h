/*===- measure_shapes.h - measure the shapes of a set, a child each -------===*/
#ifndef LATENCY_PROFILE_MEASURE_SHAPES_H
#define LATENCY_PROFILE_MEASURE_SHAPES_H

#include "measure.h"
#include "shapes.h"

#include <stddef.h>

/// Measures shape `i` of `set` into `*out` in a child of its own, whose
/// stderr goes to `logDir`/NNN`logSuffix`.log; the log is kept, and named
/// in the error, only when the measurement failed.
void lpMeasureShape(const LpShapeSet *set, size_t i,
                    const LpMeasureConfig *config, const char *logDir,
                    const char *logSuffix, LpMeasurement *out);

/// Measures the shapes of `set` from index `from` on that are neither
/// skipped nor measured, printing one line per shape; child stderr goes to
/// `logDir`/NNN.log, kept only when the measurement failed.
void lpMeasureShapes(LpShapeSet *set, size_t from,
                     const LpMeasureConfig *config, const char *logDir);

/// lpMeasureShapes watching the host (canary.h): the shapes a slow spell
/// of the host touched are drawn again and priced from their draws. For
/// a pass over many shapes; the sweep, which measures one at a time,
/// goes without.
void lpMeasureShapesWithCanary(LpShapeSet *set, size_t from,
                               const LpMeasureConfig *config,
                               const char *logDir);

#endif /* LATENCY_PROFILE_MEASURE_SHAPES_H */
