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

/// Bytes of the buffers kernel `kernel` allocates inside and frees before
/// it returns (its scratch), each of at least LAT_FRESH_BUFFER_BYTES;
/// `weightCopy` is the node priced as a transposed weight copy instead, or
/// -1.
double latScratchBytes(const LatGraph *graph, int kernel, int weightCopy);

/// Bytes of the buffers of at least `minBytes` kernel `kernel` allocates
/// for results that other kernels read and the function does not return:
/// buffers of the whole run, which a kernel measured alone writes into the
/// caller's warm output instead.
double latFreshResultBytes(const LatGraph *graph, int kernel, double minBytes);

#endif /* LATENCY_BUFFERS_H */
