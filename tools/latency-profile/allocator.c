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

#if defined(__GLIBC__) && defined(M_ARENA_MAX)
static uintptr_t pageBytes = 4096; /* sysconf's, once lpAllocatorSetUp ran */
#endif

/* LP_FRESH_MAPPING_BYTES is glibc's own default threshold. Setting it also
 * stops glibc from raising it after the first free of a large buffer, which
 * is what lets a kernel alone reuse warm pages. */

void lpAllocatorSetUp(bool freshMemory) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
  mallopt(M_ARENA_MAX, 1);
  long page = sysconf(_SC_PAGESIZE);
  if (page > 0 && (page & (page - 1)) == 0)
    pageBytes = (uintptr_t)page;
  if (freshMemory) {
    mallopt(M_MMAP_THRESHOLD, LP_FRESH_MAPPING_BYTES);
    mallopt(M_TRIM_THRESHOLD, 0);
  }
#else
  (void)freshMemory;
#endif
}

#if defined(__GLIBC__) && defined(M_ARENA_MAX)
/* Gives the whole pages inside [p, p + size) back to the system: the next
 * touch maps a fresh zero-filled page, as on a newly mapped buffer. The
 * chunk's own header lies before p, outside them; the next chunk's first
 * word (its prev_size) may lie inside, but while this chunk is in use
 * glibc keeps nothing there. */
static void releaseWholePages(void *p, size_t size) {
  uintptr_t begin = ((uintptr_t)p + pageBytes - 1) & ~(pageBytes - 1);
  uintptr_t end = ((uintptr_t)p + size) & ~(pageBytes - 1);
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

/* The same for calloc, which LLVM may make of a malloc and a memset: the
 * released pages come back zero-filled, as calloc promises. */
static void *freshCalloc(size_t count, size_t size) {
  void *p = calloc(count, size);
  if (p && size && count >= LP_FRESH_MAPPING_BYTES / size)
    releaseWholePages(p, count * size);
  return p;
}
#endif

void lpAllocatorServeJit(MlirExecutionEngine jit, bool freshMemory) {
#if defined(__GLIBC__) && defined(M_ARENA_MAX)
  if (!freshMemory)
    return;
  mlirExecutionEngineRegisterSymbol(
      jit, mlirStringRefCreateFromCString("malloc"), (void *)freshMalloc);
  mlirExecutionEngineRegisterSymbol(
      jit, mlirStringRefCreateFromCString("calloc"), (void *)freshCalloc);
#else
  (void)jit;
  (void)freshMemory;
#endif
}
