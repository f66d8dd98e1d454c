/*===- epilogue_probe.h - one more pass over a kernel's output ------------===*/
#ifndef LATENCY_PROFILE_EPILOGUE_PROBE_H
#define LATENCY_PROFILE_EPILOGUE_PROBE_H

#include "measure.h"
#include "profile_writer.h"

#include <stdio.h>

/// Fills `out`'s epilogueNs (latency/epilogue.h): at each pass size up to
/// `maxBytes`, through `config`'s pipeline, what one more elementwise pass
/// over a buffer its previous pass wrote costs per element, each pass into
/// a warm buffer of the caller's (fresh pages are scratch, priced apart).
/// Writes the probes under `kernelDir`, a line each to `log`; a size it
/// cannot measure stays 0.
void lpProbeEpilogue(const LpMeasureConfig *config, const char *kernelDir,
                     double maxBytes, LpDeviceNumbers *out, FILE *log);

#endif /* LATENCY_PROFILE_EPILOGUE_PROBE_H */
