/*===- cold_write_probe.h - a written column in a whole run ---------------===*/
#ifndef LATENCY_PROFILE_COLD_WRITE_PROBE_H
#define LATENCY_PROFILE_COLD_WRITE_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Fills `out`'s coldWriteNs (latency/column_walk.h): at each share of
/// `out->llcBytes`, through `config`'s pipeline, the extra ns per byte
/// written of a chain of transposes that write a cached column, each on
/// its own weight and output, moving that share a call, against one such
/// transpose called over and over. Writes the probes under `kernelDir`, a
/// line each to `log`. Shares it cannot measure stay < 0; without an LLC
/// size nothing is probed.
void lpProbeColdWrites(const LpMeasureConfig *config, const char *kernelDir,
                       LpDeviceNumbers *out, FILE *log);

#endif /* LATENCY_PROFILE_COLD_WRITE_PROBE_H */
