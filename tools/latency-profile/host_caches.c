/*===- host_caches.c - this host's data caches and vector width ----------===*
 *
 * From the C library (glibc asks CPUID on x86), not sysfs: the project's
 * VM has no cache directories in sysfs, while CPUID reports its EPYC's
 * 48 KiB 12-way L1D and 1 MiB 8-way L2. Zeros where the C library does
 * not say; the roofline then has no column walk (latency/column_walk.h).
 * The vector width from the compiler's CPU feature probe: the JIT compiles
 * for the host, and a loop shorter than one register runs scalar.
 *
 *===----------------------------------------------------------------------===*/
#include "host_caches.h"

#include <unistd.h>

static double number(int name) {
  long v = sysconf(name);
  return v > 0 ? (double)v : 0;
}

void lpHostCachesGet(CmCacheGeometry *out) {
  *out = (CmCacheGeometry){0};
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_ASSOC)
  out->l1Bytes = number(_SC_LEVEL1_DCACHE_SIZE);
  out->l1Ways = number(_SC_LEVEL1_DCACHE_ASSOC);
  out->l2Bytes = number(_SC_LEVEL2_CACHE_SIZE);
  out->l2Ways = number(_SC_LEVEL2_CACHE_ASSOC);
  out->lineBytes = number(_SC_LEVEL1_DCACHE_LINESIZE);
#endif
}

double lpHostVectorBits(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return 512;
  if (__builtin_cpu_supports("avx"))
    return 256;
#endif
  return 128; /* SSE2, NEON */
}
