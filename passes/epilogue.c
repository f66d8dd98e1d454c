/*===- epilogue.c - the passes a kernel makes besides its anchor's --------===*
 *
 * A pass is a member that writes a buffer of its own, as the scratch count
 * has them (latNodeWritesOwnBuffer): a view or a slice moves nothing
 * through `loops` (a subview), an init tensor is the next op's buffer. The
 * members before the root in program order (a transpose of a conv's
 * input) are passes all the same.
 *
 *===----------------------------------------------------------------------===*/
#include "epilogue.h"
#include "buffers.h"

#include "ir_util.h"

int latEpiloguePasses(const LatGraph *g, int kernel, double *elements) {
  int passes = 0;
  *elements = 0;
  int root = g->kernels[kernel].root;
  for (int i = root; i >= 0; i = g->nodes[i].nextInKernel) {
    const LatNode *n = &g->nodes[i];
    if (i == root || n->cls.role == LAT_ROLE_SKIP || !latNodeWritesOwnBuffer(n))
      continue;
    double produced = 0;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(n->op); r++) {
      LatShape shape = latShapeOf(latResult(n->op, r));
      if (shape.isTensor && !shape.overflow)
        produced += shape.elements;
    }
    if (produced > 0) {
      *elements += produced;
      passes++;
    }
  }
  return passes;
}
