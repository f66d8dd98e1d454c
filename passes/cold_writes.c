/*===- cold_writes.c - written columns a call finds cold -------------------===*
 *
 * A transpose's table rows time it writing into the same buffer call after
 * call, so a column it writes that stays in L1 or L2 finds its lines cached.
 * Inside a whole model the rest of the call has moved its bytes in between:
 * MobileNet-V2's classifier transpose (torch-mlir's [1000, 1280] weight
 * written a row apart) took 35-53% longer in place than alone on the
 * project's VM. latency-profile probes the extra time per byte written
 * when shares of the last-level cache move between two runs
 * (cold_write_probe.c); this charges it, at the share the function's other
 * kernels move. A walk that spills L2 already writes through to memory
 * alone: it is not charged (its in-place time was within 1% of alone).
 *
 *===----------------------------------------------------------------------===*/
#include "cold_writes.h"
#include "buffers.h"
#include "ir_util.h"
#include "transpose_walk.h"

#include "latency/column_walk.h"
#include "latency/costmodel_util.h"
#include "latency/diagnostics.h"
#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* One probed share's rate from device.csv; NAN when absent. */
static double coldWritePoint(const void *context, int index) {
  char key[96];
  cmColdWriteKey(key, sizeof key, index);
  return cmProfileGetDeviceNumber(*(const CmProfile *)context, key, NAN);
}

/* The bytes kernel `k` writes into a column that stays in L1 or L2, as a
 * transpose's walk on its written side, its elements a line or more apart
 * (as probed; closer, it writes nearly in order); 0 for any other kernel.
 * The element's size is the one it is costed in (`precision=`), as its
 * bytes are. */
static double cachedColumnBytes(const LatGraph *g, const LatKernel *k,
                                const CmCacheGeometry *geometry) {
  MlirOperation root = g->nodes[k->root].op;
  LatTransposeWalk walk;
  if (strcmp(k->type, "transpose") != 0 ||
      mlirOperationGetNumResults(root) < 1 ||
      !latTransposeWalkOf(root, &walk) || !walk.writes || !(walk.k > 1))
    return 0;
  double strideBytes = walk.stride * cmDtypeGetSize(k->costDtype);
  if (!(strideBytes >= geometry->lineBytes))
    return 0;
  int level = cmColumnWalkLevel(geometry, walk.k, strideBytes);
  return level == 1 || level == 2 ? latValueBytes(g, latResult(root, 0)) : 0;
}

void latChargeColdWrites(CmProfile profile, LatGraph *graph,
                         MlirOperation func) {
  double llc = cmProfileGetDeviceNumber(profile, "llc_bytes", 0);
  CmCacheGeometry geometry = cmProfileGetCacheGeometry(profile);
  if (!(llc > 0) || !(geometry.l1Bytes > 0))
    return;
  double moved = 0;
  for (size_t i = 0; i < graph->numKernels; i++) {
    const LatKernel *k = &graph->kernels[i];
    if (!k->isCall && k->source != CM_SOURCE_UNKNOWN && k->bytes > 0)
      moved += k->bytes * k->count;
  }
  double charged = 0, written = 0;
  size_t kernels = 0;
  for (size_t i = 0; i < graph->numKernels; i++) {
    LatKernel *k = &graph->kernels[i];
    /* once a call: in a loop only one iteration moves between two runs */
    if (k->isCall || k->source == CM_SOURCE_UNKNOWN || k->count != 1 ||
        k->resultPagesUs > 0)
      continue;
    double bytes = cachedColumnBytes(graph, k, &geometry);
    if (!(bytes > 0) || isinf(bytes))
      continue;
    /* what moves between two of its runs: the rest of the call (the
       probe's baseline is one transpose alone) */
    double rate =
        cmColdWriteNsPerByte(coldWritePoint, &profile, llc, moved - k->bytes);
    if (!(rate > 0) || isinf(rate))
      continue;
    k->coldWriteBytes = bytes;
    k->coldWriteUs = bytes * rate * 1e-3;
    k->us += k->coldWriteUs;
    charged += k->coldWriteUs * k->count;
    written += bytes * k->count;
    kernels++;
  }
  if (kernels == 0)
    return;
  char text[280];
  snprintf(text, sizeof text,
           "latency: the call moves %.1f MB (%.2g x the profile's last-level "
           "cache): %zu transposes charged %.3f us for writing %.1f MB of "
           "columns the cache lost since the previous call (cold_writes_us)",
           moved / 1e6, moved / llc, kernels, charged, written / 1e6);
  latEmitRemark(mlirOperationGetLocation(func), text);
}
