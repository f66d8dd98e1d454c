/*===- epilogue.h - a kernel's passes besides its anchor's (internal) -----===*
 *
 * Through `loops` no two linalg ops are fused: each member of a kernel is
 * a loop nest over its own result. A TOSA conv's batch norm and relu are
 * six passes over its output after the conv's (latency/epilogue.h says
 * what they cost); the roofline of a channels-last conv adds them.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PASS_EPILOGUE_H
#define LATENCY_PASS_EPILOGUE_H

#include "graph.h"

/// The members of kernel `kernel` other than its root that are loop nests
/// of their own (costed or unknown ops; not views, slices or init tensors),
/// and into `*elements` the elements of their results.
int latEpiloguePasses(const LatGraph *graph, int kernel, double *elements);

#endif /* LATENCY_PASS_EPILOGUE_H */
