/*===- cold_probe.h - what reading a weight from memory costs -------------===*/
#ifndef LATENCY_PROFILE_COLD_PROBE_H
#define LATENCY_PROFILE_COLD_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Returns the size in bytes of cpu0's highest-level cache from sysfs, or 0
/// when sysfs does not say.
double lpLastLevelCacheBytes(void);

/// Fills `out`'s llcBytes and, through `config`'s pipeline, the extra ns per
/// byte of a matmul whose weights come from memory (N distinct weights,
/// four times the LLC, against one; read directly and through a
/// transpose), what the cache keeps between two reads of a weight
/// (coldWeightMinBytes, 0: none came out cold), and of a stream beyond the LLC
/// (`coldStreamUs` for `coldStreamBytes` in and out) against one within a
/// quarter of it; writes the probes under `kernelDir`, one line each to
/// `log`. Rates it cannot measure are -1, coldWeightMinBytes then stays 0
/// (lpProbeDevice clears `out` first).
void lpProbeColdWeights(const LpMeasureConfig *config, const char *kernelDir,
                        double coldStreamUs, double coldStreamBytes,
                        LpDeviceNumbers *out, FILE *log);

#endif /* LATENCY_PROFILE_COLD_PROBE_H */
