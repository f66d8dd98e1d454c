/*===- buffers.h - buffers a kernel allocates in a whole run (internal) --===*
 *
 * On a host, a buffer of at least LAT_FRESH_BUFFER_BYTES is mapped fresh
 * and zero-filled on every call of the function that allocates it (as
 * latency-profile measures, docs/profiling.md): its pages cost time a
 * roofline of flops and bytes does not see. These count them per kernel,
 * the way one-shot bufferization of the `loops` pipeline allocates them
 * (describe.c puts the counts on the kernel).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_BUFFERS_H
#define LATENCY_BUFFERS_H

#include "graph.h"

/// Bytes of tensor `v`: at the deployment precision for float tensors when
/// `precision=` is set (integer indices and i1 masks keep their type).
double latValueBytes(const LatGraph *graph, MlirValue v);

/// True when kernel member `node` writes a buffer of its own through
/// `loops`: views and slices bufferize to views of their source and
/// initial values (tensor.empty, fills) to their consumer's buffer.
bool latNodeWritesOwnBuffer(const LatNode *node);

/// Bytes of the buffers kernel `kernel` allocates inside and frees before
/// it returns (its scratch), each of at least LAT_FRESH_BUFFER_BYTES;
/// `weightCopy` is the node priced as a transposed weight copy instead, or
/// -1. `*warmBytes`: of those, the buffers smaller than the graph's warm
/// heap (warmHeapBytes), up to one and a half times it in all: carved from
/// free chunks the JIT left, they get no new pages in a whole run.
double latScratchBytes(const LatGraph *graph, int kernel, int weightCopy,
                       double *warmBytes);

/// The largest free chunk a whole run of `module` finds in glibc's heap:
/// two thirds of its constant tensors' bytes (zero splats aside). The JIT
/// compiler copies them on their way to machine code and frees the copies,
/// and glibc serves a buffer from such a chunk before it maps new pages
/// (docs/profiling.md, "A whole run and its memory": the largest free chunk
/// after the JIT was 0.67-1.05 of the constants' bytes on three models).
double latModuleWarmHeapBytes(MlirOperation module);

/// Bytes of the buffers of at least `minBytes` kernel `kernel` allocates
/// for results that other kernels read and the function does not return:
/// buffers of the whole run, which a kernel measured alone writes into the
/// caller's warm output instead.
double latFreshResultBytes(const LatGraph *graph, int kernel, double minBytes);

#endif /* LATENCY_BUFFERS_H */
