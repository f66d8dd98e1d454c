/*===- allocator.h - the allocator the generated code sees ----------------===*
 *
 * What a kernel costs inside a whole model depends on where its buffers
 * come from. A whole run frees everything it allocated when it returns;
 * glibc then gives the top of its heap back to the kernel (the peak of a
 * real model is far above the trim threshold), and the next run touches
 * freshly mapped, zero-filled pages again. A kernel called over and over
 * on its own never crosses the threshold and reuses warm pages. On this
 * project's 2-core EPYC VM the difference was 2x for layers that transpose
 * their weights at run time (BERT's linear layers: a 9.4 MB buffer per
 * call): one FFN block ran 73 ms as two kernels alone and 158-167 ms as a
 * whole run in `mlir-runner`. docs/profiling.md has the figures.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_ALLOCATOR_H
#define LATENCY_PROFILE_ALLOCATOR_H

#include "graph.h"

#include "mlir-c/ExecutionEngine.h"

#include <stdbool.h>

/// Buffers of this many bytes or more are mapped per call in a kernel child
/// with fresh memory (glibc's default threshold: below it a buffer comes
/// from the heap in a whole run too). device.csv's `weight_copy_min_bytes`;
/// the pass counts scratch buffers from the same size (passes/graph.h).
enum { LP_FRESH_MAPPING_BYTES = LAT_FRESH_BUFFER_BYTES };

/// Sets up the child's allocator before any thread starts: one arena (the
/// main one), so the code JIT-compiled into the measuring thread allocates
/// as the single-threaded programs that run models do; with `freshMemory`,
/// every buffer of 128 KiB or more is mapped on allocation and unmapped on
/// free, and the heap's top is given back on every free, so each call of a
/// kernel pays for fresh pages as it does within a whole run. Does nothing
/// where the C library has no such settings (and under sanitizers, whose
/// allocators ignore them).
void lpAllocatorSetUp(bool freshMemory);

/// With `freshMemory`, gives `jit`'s code (before anything in it is looked
/// up) a malloc and a calloc under which a buffer of LP_FRESH_MAPPING_BYTES
/// or more has fresh pages also when glibc serves it from a hole in its
/// heap rather than by a new mapping: the thresholds alone leave a whole
/// model with large constants reusing what the compiler freed, warm, call
/// after call (docs/profiling.md). Their free is glibc's. Under sanitizers,
/// whose allocators ignore the thresholds, the pages are released all the
/// same.
void lpAllocatorServeJit(MlirExecutionEngine jit, bool freshMemory);

#endif /* LATENCY_PROFILE_ALLOCATOR_H */
