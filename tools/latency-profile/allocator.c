/*===- allocator.c - the allocator the generated code sees ----------------===*/
#include "allocator.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* LP_FRESH_MAPPING_BYTES is glibc's own default threshold. Setting it also
 * stops glibc from raising it after the first free of a large buffer, which
 * is what lets a kernel alone reuse warm pages. */

void lpAllocatorSetUp(bool freshMemory) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
  mallopt(M_ARENA_MAX, 1);
  if (freshMemory) {
    mallopt(M_MMAP_THRESHOLD, LP_FRESH_MAPPING_BYTES);
    mallopt(M_TRIM_THRESHOLD, 0);
  }
#else
  (void)freshMemory;
#endif
}
