/*===- column_walk_probe.h - the column walk's grid, measured -------------===*/
#ifndef LATENCY_PROFILE_COLUMN_WALK_PROBE_H
#define LATENCY_PROFILE_COLUMN_WALK_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Times, through `config`'s pipeline, 2 f32 rows times four weights at
/// every point of the column-walk grid (latency/column_walk.h) and keeps its
/// time per multiply-add in `out->walkGridNs`; then a transpose writing a
/// column at every point, its time per element in `out->writeWalkGridNs`.
/// A point whose probe fails, or that `out->caches` cannot place, stays 0.
/// One line per probe to `log`.
void lpProbeColumnWalk(const LpMeasureConfig *config, const char *kernelDir,
                       LpDeviceNumbers *out, FILE *log);

#endif /* LATENCY_PROFILE_COLUMN_WALK_PROBE_H */
