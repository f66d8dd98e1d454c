/*===- host_caches.h - this host's data caches and vector width ----------===*/
#ifndef LATENCY_PROFILE_HOST_CACHES_H
#define LATENCY_PROFILE_HOST_CACHES_H

#include "latency/column_walk.h"

/// Fills `out` with this host's L1 data and L2 cache sizes, ways and line
/// size, as the C library reports them; zeros where it does not.
void lpHostCachesGet(CmCacheGeometry *out);

/// Returns the width in bits of this host's widest vector registers the
/// JIT compiler can use (x86: AVX-512 512, AVX 256, else 128; other
/// architectures 128): a loop over fewer elements than one register holds
/// never enters the vector loop (latency/column_walk.h,
/// cmUnrolledReductionVectorizes).
double lpHostVectorBits(void);

#endif /* LATENCY_PROFILE_HOST_CACHES_H */
