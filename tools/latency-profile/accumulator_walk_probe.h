/*===- accumulator_walk_probe.h - a depthwise conv's aliased output ------===*/
#ifndef LATENCY_PROFILE_ACCUMULATOR_WALK_PROBE_H
#define LATENCY_PROFILE_ACCUMULATOR_WALK_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Times, through `config`'s pipeline, an f32 3 x 3 depthwise conv whose
/// output plane is one L1 way, at every channel count of the accumulator
/// walk (latency/column_walk.h), and keeps its time per multiply-add in
/// `out->accumulatorWalkNs`; a point whose probe fails, or every point when
/// `out->caches` has no way a plane can fill, stays 0. One line per probe
/// to `log`.
void lpProbeAccumulatorWalk(const LpMeasureConfig *config,
                            const char *kernelDir, LpDeviceNumbers *out,
                            FILE *log);

#endif /* LATENCY_PROFILE_ACCUMULATOR_WALK_PROBE_H */
