/*===- estimate.c - one kernel's latency from the cost model ---------------===*
 *
 * Turns a described kernel (type, query fields, flops, boundary bytes) into
 * a cost-model query and keeps the answer and its provenance on the
 * kernel. No diagnostics here: the fusion analysis asks about kernels that
 * do not exist (two kernels merged) and must stay silent; the annotate pass
 * warns about real kernels without an answer.
 *
 *===----------------------------------------------------------------------===*/
#include "graph.h"

#include <stdio.h>
#include <string.h>

void latKernelSetUnknown(LatKernel *k) {
  k->us = 0;
  k->implicitGemm = false;
  k->miss = LAT_MISS_NONE;
  k->source = CM_SOURCE_UNKNOWN;
  k->method = CM_METHOD_NONE;
  k->bound = CM_BOUND_NONE;
  k->confidence = 0;
}

/* A conv answered as its implicit GEMM: the mapping and the GEMM's own
 * method go into the axes the report shows. */
static void noteImplicitGemm(LatKernel *k, const CmEstimate *est) {
  size_t used = strlen(k->axes);
  k->implicitGemm = true;
  snprintf(k->axes + used, sizeof k->axes - used,
           " gemm: m=%.0f n=%.0f k=%.0f (%s)", est->axisValues[0],
           est->axisValues[1], est->axisValues[2],
           cmMethodGetName(est->method));
}

/* Why the roofline answered: no table for the class, none at the dtype, or
 * the query outside the measured range. */
static LatTableMiss missOf(const CmEstimate *est) {
  if (est->source != CM_SOURCE_ROOFLINE)
    return LAT_MISS_NONE;
  if (strstr(est->reason, "no table for kernel"))
    return LAT_MISS_NO_TABLE;
  if (strstr(est->reason, "no measurements for this regime"))
    return LAT_MISS_NO_DTYPE;
  return LAT_MISS_OFF_GRID;
}

/* Attention kernels are priced by the cost model's own work formula
 * (causal prefill, decode, cross: costmodel/work.c), not by the ops the
 * graph spells them with (a full, masked s x s score matrix): one formula,
 * so the pass and latency-query cost the same attention the same way. */
static bool usesBuiltinWork(const char *type) {
  return !strncmp(type, "attention", 9) ||
         !strncmp(type, "cross_attention", 15);
}

bool latKernelEstimate(CmProfile profile, const CmOptions *options,
                       LatKernel *k) {
  bool builtin = usesBuiltinWork(k->type);
  CmQuery query = {k->type, k->fields, (size_t)k->numFields,
                   builtin ? -1 : k->flops, builtin ? -1 : k->bytes};
  CmEstimate est;
  CmError err;
  latKernelSetUnknown(k);
  if (cmProfileEstimate(profile, &query, options, &est, &err) != CM_OK ||
      est.source == CM_SOURCE_UNKNOWN)
    return false;
  k->us = est.latencyUs;
  k->source = est.source;
  k->method = est.method;
  k->confidence = est.confidence;
  k->bound = est.bound;
  k->miss = missOf(&est);
  if (builtin && est.flops >= 0 && est.bytes >= 0) {
    k->flops = est.flops; /* the work the roofline priced, for the report */
    k->bytes = est.bytes;
  }
  if (est.mapping && !strcmp(est.mapping, "implicit-gemm"))
    noteImplicitGemm(k, &est);
  return true;
}
