/*===- device_probe.h - the host's roofline numbers through the pipeline --===*/
#ifndef LATENCY_PROFILE_DEVICE_PROBE_H
#define LATENCY_PROFILE_DEVICE_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Measures, through `config`'s pipeline, a 512^3 matmul for every float
/// dtype of `dtypes` (f32 first), a streaming elementwise op over 64 MiB
/// and an empty call (`quick`: a 128^3 matmul and 8 MiB); writes the probe
/// modules under `kernelDir` and prints one line per probe to `log`; then,
/// unless `quick`, what weights read from memory cost (cold_probe.h) and,
/// through `loops`, the column-walk grid (column_walk_probe.h).
/// Probes that fail are left at 0.
void lpProbeDevice(const LpMeasureConfig *config, bool quick,
                   const char *kernelDir, const char *const *dtypes,
                   int numDtypes, LpDeviceNumbers *out, FILE *log);

/// Measures the streaming probe over `elements` f32 values in and out (saved
/// as kernelDir/probe-NAME.mlir); returns the time of one call in us, or 0
/// with a line to `log` when it failed.
double lpProbeStream(const LpMeasureConfig *config, const char *kernelDir,
                     const char *name, long elements, FILE *log);

/// Measures the probe in `text` (saved as kernelDir/probe-NAME.mlir);
/// returns the time of one call in us, or 0 with a line to `log` when it
/// failed.
double lpProbeText(const LpMeasureConfig *config, const char *kernelDir,
                   const char *name, const char *text, FILE *log);

/// lpProbeText for a text a builder wrote into a buffer of `size` bytes:
/// with `fits` false (the builder's answer: it was cut short), 0 and a line
/// to `log` saying so, nothing measured.
double lpProbeBuiltText(const LpMeasureConfig *config, const char *kernelDir,
                        const char *name, bool fits, const char *text,
                        size_t size, FILE *log);

/// Writes into `out` a probe function `@probe` multiplying an m x k `dtype`
/// tensor by each of `weights` k x n ones, returning every product; false
/// when it does not fit `size` bytes.
bool lpMatmulProbeText(long m, long n, long k, int weights, const char *dtype,
                       char *out, size_t size);

#endif /* LATENCY_PROFILE_DEVICE_PROBE_H */
