/*===- host_caches.h - this host's L1 and L2 data caches ------------------===*/
#ifndef LATENCY_PROFILE_HOST_CACHES_H
#define LATENCY_PROFILE_HOST_CACHES_H

#include "latency/column_walk.h"

/// Fills `out` with this host's L1 data and L2 cache sizes, ways and line
/// size, as the C library reports them; zeros where it does not.
void lpHostCachesGet(CmCacheGeometry *out);

#endif /* LATENCY_PROFILE_HOST_CACHES_H */
