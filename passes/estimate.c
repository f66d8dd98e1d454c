/*===- estimate.c - latencies from the cost model: kernels, then functions -===*
 *
 * Turns a described kernel (type, query fields, flops, boundary bytes) into
 * a cost-model query and keeps the answer and its provenance on the
 * kernel. latKernelEstimate emits no diagnostics: the fusion analysis asks
 * about kernels that do not exist (two kernels merged) and must stay
 * silent. latEstimateFunctions estimates the real kernels of every function
 * (callees first, a call costing its callee), warns about those without an
 * answer, and adds up the totals the annotate stage writes.
 *
 *===----------------------------------------------------------------------===*/
#include "estimate.h"
#include "buffers.h"
#include "cold_writes.h"
#include "fusion.h"

#include "pass.h"

#include "latency/diagnostics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void latKernelSetUnknown(LatKernel *k) {
  k->us = 0;
  k->coldUs = 0;
  k->coldWriteBytes = 0;
  k->coldWriteUs = 0;
  k->resultPagesUs = 0;
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
bool latKernelUsesBuiltinWork(const char *type) {
  return !strncmp(type, "attention", 9) ||
         !strncmp(type, "cross_attention", 15);
}

/* What a table answer for kernel `k` holds for the scratch buffers a
 * whole run carves from its warm heap (warmScratchBytes), us: the host
 * measured the kernel alone with fresh pages for every buffer, which a
 * whole run does not pay for these. At most nine tenths of the answer (a
 * kernel is more than its pages). 0 when the answer never held them: a
 * roofline's, whose query left them out, and rows of another kernel (an
 * anchor's table, a conv as its implicit GEMM); and without the profile's
 * scratch rate (device-wide: the rate the probe measured). */
static double warmScratchUs(CmProfile profile, const LatKernel *k,
                            const CmEstimate *est) {
  if (!(k->warmScratchBytes > 0) || est->source == CM_SOURCE_ROOFLINE ||
      est->viaAnchor || est->mapping)
    return 0;
  double rate = cmProfileGetDeviceNumber(profile, "scratch_ns_per_byte", 0);
  if (!(rate > 0))
    return 0;
  return fmin(k->warmScratchBytes * rate * 1e-3, 0.9 * est->latencyUs);
}

bool latKernelEstimate(CmProfile profile, const CmOptions *options,
                       LatKernel *k) {
  bool builtin = latKernelUsesBuiltinWork(k->type);
  /* the kernel's fields, and its scratch buffers, epilogue and
     accumulator for the roofline (no table keys on them: a kernel's
     measured time includes them) */
  CmField fields[LAT_MAX_FIELDS + 5]; /* + the five below */
  int numFields = k->numFields < LAT_MAX_FIELDS ? k->numFields : LAT_MAX_FIELDS;
  memcpy(fields, k->fields, sizeof fields[0] * (size_t)numFields);
  char scratch[32], epilogueElements[32], epiloguePasses[16], accBits[16],
      padElements[32];
  double freshScratch = k->scratchBytes - k->warmScratchBytes;
  if (freshScratch > 0) {
    snprintf(scratch, sizeof scratch, "%.17g", freshScratch);
    fields[numFields++] = (CmField){"scratch_bytes", scratch};
  }
  if (k->epiloguePasses > 0) {
    snprintf(epilogueElements, sizeof epilogueElements, "%.17g",
             k->epilogueElements);
    snprintf(epiloguePasses, sizeof epiloguePasses, "%d", k->epiloguePasses);
    fields[numFields++] = (CmField){"epilogue_elements", epilogueElements};
    fields[numFields++] = (CmField){"epilogue_passes", epiloguePasses};
  }
  if (k->padElements > 0) { /* an integer conv's pad copy (integer_mac.h) */
    snprintf(padElements, sizeof padElements, "%.17g", k->padElements);
    fields[numFields++] = (CmField){"pad_elements", padElements};
  }
  if (k->accBits > 0) { /* a half product's conversions (converted_chain.h) */
    snprintf(accBits, sizeof accBits, "%d", k->accBits);
    fields[numFields++] = (CmField){"acc_bits", accBits};
  }
  CmQuery query = {k->type, fields, (size_t)numFields, builtin ? -1 : k->flops,
                   builtin ? -1 : k->bytes};
  CmEstimate est;
  CmError err;
  latKernelSetUnknown(k);
  if (k->sizeOverflow) /* warned at the op: "estimate unknown" */
    return false;
  if (cmProfileEstimate(profile, &query, options, &est, &err) != CM_OK ||
      est.source == CM_SOURCE_UNKNOWN)
    return false;
  k->us = est.latencyUs - warmScratchUs(profile, k, &est);
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

/* Estimation of each function: not started, under way (a call back into it
 * is recursion), done. */
enum { kToDo, kUnderWay, kDone };

static void estimateFunction(LatPass *e, LatFunctionReport *fn);

static LatFunctionReport *findFunction(const LatPass *e, MlirStringRef name) {
  for (long i = 0; i < e->count; i++)
    if (strlen(e->fns[i].name) == name.length &&
        !memcmp(e->fns[i].name, name.data, name.length))
      return &e->fns[i];
  return NULL;
}

/* Adds kernel `k`'s time, `count` runs of it, to `fn`'s total and to the
 * share of its source; a call kernel adds its callee's shares. */
static void account(LatFunctionReport *fn, const LatKernel *k,
                    const LatFunctionReport *callee) {
  double us = k->us * k->count;
  fn->totalUs += us;
  if (callee) {
    fn->confidenceUs += callee->confidenceUs * k->count;
    fn->measuredUs += callee->measuredUs * k->count;
    fn->interpolatedUs += callee->interpolatedUs * k->count;
    fn->transferredUs += callee->transferredUs * k->count;
    fn->rooflineUs += callee->rooflineUs * k->count;
    return;
  }
  fn->confidenceUs += us * k->confidence;
  if (k->source == CM_SOURCE_MEASURED)
    fn->measuredUs += us;
  else if (k->source == CM_SOURCE_INTERPOLATED)
    fn->interpolatedUs += us;
  else if (k->source == CM_SOURCE_TRANSFERRED)
    fn->transferredUs += us;
  else if (k->source == CM_SOURCE_ROOFLINE)
    fn->rooflineUs += us;
}

/* A call kernel costs what its callee's kernels cost, once per call: the
 * callee is estimated first (its shares by source carry over to the
 * caller; the kernel shows the largest one and the time-weighted
 * confidence). A callee without a body here, or a recursive call, has no
 * estimate, and a warning. */
static const LatFunctionReport *estimateCall(LatPass *e, LatFunctionReport *fn,
                                             LatKernel *k) {
  LatFunctionReport *callee = findFunction(e, k->callee);
  MlirLocation loc = mlirOperationGetLocation(fn->graph.nodes[k->root].op);
  latKernelSetUnknown(k);
  if (!callee || e->progress[callee - e->fns] == kUnderWay) {
    size_t size = k->callee.length + 100; /* the whole name, never cut */
    char *text = malloc(size);
    if (text) {
      snprintf(text, size,
               callee ? "latency: recursive call to @%.*s: no estimate "
                        "(unknown)"
                      : "latency: call to @%.*s, which has no body in this "
                        "module: no estimate (unknown)",
               (int)k->callee.length, k->callee.data);
      latEmitWarning(loc, text);
    }
    free(text);
    return NULL;
  }
  estimateFunction(e, callee);
  k->us = callee->totalUs;
  k->flops = 0; /* the callee's work, for the report */
  for (size_t i = 0; i < callee->graph.numKernels; i++)
    k->flops += callee->graph.kernels[i].flops;
  k->confidence =
      callee->totalUs > 0 ? callee->confidenceUs / callee->totalUs : 0;
  double shares[] = {callee->measuredUs, callee->interpolatedUs,
                     callee->transferredUs, callee->rooflineUs};
  CmSource sources[] = {CM_SOURCE_MEASURED, CM_SOURCE_INTERPOLATED,
                        CM_SOURCE_TRANSFERRED, CM_SOURCE_ROOFLINE};
  /* the largest share; a callee without work (no kernels, or all of zero
     time) has no share, and the roofline of no work is what answers it */
  k->source = CM_SOURCE_ROOFLINE;
  for (int s = 0, best = -1; s < 4; s++)
    if (shares[s] > 0 && (best < 0 || shares[s] > shares[best]))
      best = s, k->source = sources[s];
  return callee;
}

/* Asks the cost model for kernel `k`; warns when it has no answer. */
static void estimateKernel(const LatPass *e, LatFunctionReport *fn,
                           LatKernel *k) {
  if (!latKernelEstimate(e->profile, &e->options, k) && !k->sizeOverflow)
    latEmitWarning(mlirOperationGetLocation(fn->graph.nodes[k->root].op),
                   "latency: no estimate for this kernel (unknown)");
}

/* Extra ns per byte for kernel `k` to read a weight from memory rather
 * than cache: `cold_weight_ns_per_byte.<class>` for the class of the op
 * that reads most of its weight bytes (a matmul, a transpose), else the
 * device-wide key; 0 without either. */
static double coldRate(CmProfile profile, const LatKernel *k) {
  char key[128];
  snprintf(key, sizeof key, "cold_weight_ns_per_byte.%s",
           k->residentReader ? k->residentReader : "");
  double rate = cmProfileGetDeviceNumber(profile, key, -1);
  return rate >= 0
             ? rate
             : cmProfileGetDeviceNumber(profile, "cold_weight_ns_per_byte", 0);
}

/* Tables are measured with a kernel's weights warm: it runs again and
 * again on the same ones. A whole call whose arguments and constants
 * (residentBytes) exceed what the cache keeps between two reads of a
 * weight finds each one evicted since the previous call and reads it from
 * memory, so every kernel is charged its resident bytes at coldRate. What
 * the cache keeps is `cold_weight_min_bytes` where latency-profile probed
 * it (cold_probe.c: on the project's VM a weight came back from memory
 * once 3.3-4.4 MiB of other weights were read between its uses, a tenth to
 * an eighth of the 32 MiB `llc_bytes`), else `llc_bytes`. Profiles without
 * `llc_bytes` (every shipped GPU profile) charge nothing. */
static void chargeColdWeights(const LatPass *e, LatFunctionReport *fn) {
  double llc = cmProfileGetDeviceNumber(e->profile, "llc_bytes", 0);
  double kept =
      cmProfileGetDeviceNumber(e->profile, "cold_weight_min_bytes", llc);
  double footprint = 0, charged = 0;
  size_t kernels = 0;
  for (size_t i = 0; i < fn->graph.numKernels; i++)
    if (!fn->graph.kernels[i].isCall)
      footprint += fn->graph.kernels[i].residentBytes;
  if (llc <= 0 || !(kept > 0) || footprint <= kept)
    return;
  for (size_t i = 0; i < fn->graph.numKernels; i++) {
    LatKernel *k = &fn->graph.kernels[i];
    /* a written column's charge (cold_writes.c) was probed with the
       transpose's input cold too */
    if (k->isCall || k->source == CM_SOURCE_UNKNOWN || k->residentBytes <= 0 ||
        k->coldWriteUs > 0)
      continue;
    k->coldUs = k->residentBytes * coldRate(e->profile, k) * 1e-3;
    k->us += k->coldUs;
    charged += k->coldUs * k->count;
    kernels += k->coldUs > 0;
  }
  if (kernels == 0) /* no rate in the profile, or rates of 0 */
    return;
  char text[240];
  snprintf(text, sizeof text,
           "latency: weights and arguments of %.1f MB exceed what the "
           "profile's cache keeps between calls (%.1f MB): %zu kernels charged "
           "%.3f us for reading them from memory (cold_weights_us)",
           footprint / 1e6, kept / 1e6, kernels, charged);
  latEmitRemark(mlirOperationGetLocation(fn->func), text);
}

/* Host profiles measure a kernel writing its result into the caller's
 * warm buffer. In a whole run each result another kernel reads is a
 * buffer of the run, and those mapped anew on every call cost their pages
 * at the profile's scratch_ns_per_byte: every one of 128 KiB or more when
 * the run maps every large buffer anew (`fresh-memory`: latency-profile
 * --validate --fresh-memory); left to glibc's own thresholds, only those
 * of 32 MiB or more (LAT_ALWAYS_MAPPED_BYTES) that no free chunk the JIT
 * left fits (warmHeapBytes), the rest mostly reused warm
 * (docs/profiling.md). Without the rate (every shipped GPU profile)
 * nothing is charged. */
static void chargeFreshResults(const LatPass *e, LatFunctionReport *fn) {
  double rate = cmProfileGetDeviceNumber(e->profile, "scratch_ns_per_byte", 0);
  if (!(rate > 0))
    return;
  /* by default: what neither glibc's heap nor the JIT's free chunks
     (the warm heap, buffers.h) can serve */
  double minBytes =
      e->freshMemory ? LAT_FRESH_BUFFER_BYTES
                     : fmax(LAT_ALWAYS_MAPPED_BYTES, fn->graph.warmHeapBytes);
  for (size_t i = 0; i < fn->graph.numKernels; i++) {
    LatKernel *k = &fn->graph.kernels[i];
    if (k->isCall || k->source == CM_SOURCE_UNKNOWN)
      continue;
    /* counted here, not when the kernel is described: only this charge
       needs it, and fusion analysis describes many kernels it drops */
    k->freshResultBytes = latFreshResultBytes(&fn->graph, (int)i, minBytes);
    k->resultPagesUs = k->freshResultBytes * rate * 1e-3;
    k->us += k->resultPagesUs;
  }
}

/* Estimates every kernel of `fn` (callees first), resolves how often each
 * runs, prices its fusion edges and adds them up. */
static void estimateFunction(LatPass *e, LatFunctionReport *fn) {
  unsigned char *progress = &e->progress[fn - e->fns];
  if (*progress != kToDo)
    return;
  *progress = kUnderWay;
  /* NULL when out of memory: a call then shows its callee's total but
   * adds to the roofline share (the report's shares, never the total) */
  const LatFunctionReport **callees =
      calloc(fn->graph.numKernels + 1, sizeof *callees);
  for (size_t i = 0; i < fn->graph.numKernels; i++) {
    LatKernel *k = &fn->graph.kernels[i];
    const LatFunctionReport *callee = NULL;
    if (k->isCall)
      callee = estimateCall(e, fn, k);
    else
      estimateKernel(e, fn, k);
    if (callees)
      callees[i] = callee;
  }
  latGraphResolveCounts(&fn->graph);
  if (e->gains && !latFusionAnalyze(&e->fusion, &fn->graph))
    latEmitWarning(mlirOperationGetLocation(fn->func),
                   "latency: out of memory: fusion gains incomplete");
  /* after the gains: a fusion reads the same weights fused or apart (a
     fused transpose would write no column at all, which gain_us leaves
     out); fresh result pages first, whose zeroing brings a transpose's
     written lines into the cache (cold_writes.c skips those) */
  chargeFreshResults(e, fn);
  latChargeColdWrites(e->profile, &fn->graph, fn->func);
  chargeColdWeights(e, fn);
  for (size_t i = 0; i < fn->graph.numKernels; i++)
    account(fn, &fn->graph.kernels[i], callees ? callees[i] : NULL);
  free(callees);
  *progress = kDone;
}

bool latEstimateFunctions(LatPass *pass) {
  pass->progress = calloc((size_t)pass->count + 1, sizeof *pass->progress);
  if (!pass->progress)
    return false;
  for (long i = 0; i < pass->count; i++)
    estimateFunction(pass, &pass->fns[i]);
  return true;
}
