/*===- converted_chain_probe.h - half-precision multiply-add chains -------===*/
#ifndef LATENCY_PROFILE_CONVERTED_CHAIN_PROBE_H
#define LATENCY_PROFILE_CONVERTED_CHAIN_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Times, through `config`'s pipeline, a channels-last 1 x 1 conv in f32 and
/// for every half-precision float of `out->dtypes` (f16, bf16), once
/// accumulating in that type and once in f32, and keeps each half rate (ns
/// per multiply-add) that is well over f32's in `out->convertedMacNs`
/// (latency/converted_chain.h); a probe that fails, or a rate near f32's,
/// stays 0. Lines to `log`.
void lpProbeConvertedChains(const LpMeasureConfig *config,
                            const char *kernelDir, LpDeviceNumbers *out,
                            FILE *log);

#endif /* LATENCY_PROFILE_CONVERTED_CHAIN_PROBE_H */
