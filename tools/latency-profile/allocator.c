/*===- allocator.c - the allocator the generated code sees ----------------===*/
#define _DEFAULT_SOURCE /* madvise */
#include "allocator.h"

#include <stdint.h>
#include <stdlib.h> /* defines __GLIBC__ on glibc */
#include <sys/mman.h>
#include <unistd.h>
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

/* Gives the whole pages inside [p, p + size) back to the system: the next
 * touch maps a fresh zero-filled page, as on a newly mapped buffer. The
 * chunk's own header (before p) and its neighbour's (after p + size) lie
 * outside those pages. */
static void releaseWholePages(void *p, size_t size) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t begin = ((uintptr_t)p + page - 1) & ~(page - 1);
  uintptr_t end = ((uintptr_t)p + size) & ~(page - 1);
  if (end > begin)
    madvise((void *)begin, end - begin, MADV_DONTNEED);
}

/* The generated code's malloc with fresh memory: a buffer of
 * LP_FRESH_MAPPING_BYTES or more glibc mapped anew is fresh already; one it
 * carved from a hole in its heap (memory the JIT compiler freed: tens of
 * MB for a model with large constants) would be warm from the last call,
 * so its pages are released first. */
static void *freshMalloc(size_t size) {
  void *p = malloc(size);
  if (p && size >= LP_FRESH_MAPPING_BYTES)
    releaseWholePages(p, size);
  return p;
}

void lpAllocatorServeJit(MlirExecutionEngine jit, bool freshMemory) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
  if (freshMemory)
    mlirExecutionEngineRegisterSymbol(
        jit, mlirStringRefCreateFromCString("malloc"), (void *)freshMalloc);
#else
  (void)jit;
  (void)freshMemory;
#endif
}
