/*===- integer_mac_probe.h - int8 convs whose reduction is vectorized -----===*/
#ifndef LATENCY_PROFILE_INTEGER_MAC_PROBE_H
#define LATENCY_PROFILE_INTEGER_MAC_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Times, through `config`'s pipeline, a channels-last int8 conv (i32
/// accumulator, TOSA's zero points) at every point of the grid of
/// latency/integer_mac.h and keeps its ns per multiply-add in
/// `out->integerMacNs`; then an int8 depthwise conv
/// (`out->integerDepthwiseNs`) and a pad's copy, ns an element
/// (`out->padCopyNs`). A point already measured keeps the faster of its
/// two times; a probe that fails leaves what was there (0 at first). Lines
/// to `log`.
void lpProbeIntegerMacs(const LpMeasureConfig *config, const char *kernelDir,
                        LpDeviceNumbers *out, FILE *log);

#endif /* LATENCY_PROFILE_INTEGER_MAC_PROBE_H */
