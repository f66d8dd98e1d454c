/*===- device_probe.c - the host's roofline numbers through the pipeline --===*
 *
 * The roofline tier answers for kernels no table covers, so its numbers
 * must be what this pipeline reaches on this host, not the datasheet's:
 * peak FLOP/s is a large matmul lowered like every kernel, bandwidth a
 * streaming op, launch overhead an empty call through the same packed
 * interface the measurements use, and a scratch buffer's pages two
 * streaming ops with the buffer between them (what the kernels' own
 * intermediate buffers cost, with the fresh memory they are measured
 * with: allocator.h).
 *
 *===----------------------------------------------------------------------===*/
#include "device_probe.h"
#include "accumulator_walk_probe.h"
#include "cold_probe.h"
#include "cold_write_probe.h"
#include "column_walk_probe.h"
#include "converted_chain_probe.h"
#include "epilogue_probe.h"
#include "files.h"
#include "host_caches.h"
#include "integer_mac_probe.h"
#include "pipelines.h"
#include "text.h"

#include <math.h>
#include <string.h>

/* Probe sizes: a matmul too large for the caches, 64 MiB streamed in and
 * out, a 4 MiB scratch buffer; `quick` (a budget under half a minute)
 * shrinks them. */
typedef struct {
  int matmul;    /* the peak-FLOP/s matmul is square  */
  long elements; /* f32 elements streamed             */
  long scratch;  /* f32 elements of the scratch probe */
} Sizes;

bool lpMatmulProbeText(long m, long n, long k, int weights, const char *dtype,
                       char *out, size_t size) {
  char a[80], b[80], c[80];
  snprintf(a, sizeof a, "tensor<%ldx%ldx%s>", m, k, dtype);
  snprintf(b, sizeof b, "tensor<%ldx%ldx%s>", k, n, dtype);
  snprintf(c, sizeof c, "tensor<%ldx%ldx%s>", m, n, dtype);
  LpText t = {out, size, 0};
  lpTextPut(&t, "func.func @probe(%%a: %s", a);
  for (int i = 0; i < weights; i++)
    lpTextPut(&t, ", %%b%d: %s", i, b);
  lpTextPut(&t, ") -> (");
  lpTextPutRepeated(&t, c, weights);
  lpTextPut(&t,
            ") {\n  %%zero = arith.constant 0.0 : %s\n"
            "  %%e = tensor.empty() : %s\n"
            "  %%c = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s\n",
            dtype, c, dtype, c, c);
  for (int i = 0; i < weights; i++)
    lpTextPut(&t,
              "  %%r%d = linalg.matmul ins(%%a, %%b%d : %s, %s) outs(%%c : %s) "
              "-> %s\n",
              i, i, a, b, c, c);
  lpTextPutReturn(&t, "r", weights, c);
  return lpTextFits(&t);
}

/* One elementwise generic over `n` f32 elements, `%one` (1.0) defined
 * before it: `body` is its ops on %x, one per line, the last defining %s.
 * The constant stays outside the body, where the pass does not count it
 * as a flop (classify_generic.c: one per body op). */
static void elementwiseText(long n, const char *body, char *out, size_t size) {
  snprintf(out, size,
           "#id = affine_map<(d0) -> (d0)>\n"
           "func.func @probe(%%a: tensor<%ldxf32>) -> tensor<%ldxf32> {\n"
           "  %%one = arith.constant 1.0 : f32\n"
           "  %%e = tensor.empty() : tensor<%ldxf32>\n"
           "  %%r = linalg.generic {indexing_maps = [#id, #id], "
           "iterator_types = [\"parallel\"]} ins(%%a : tensor<%ldxf32>) "
           "outs(%%e : tensor<%ldxf32>) {\n"
           "  ^bb0(%%x: f32, %%y: f32):\n"
           "%s"
           "    linalg.yield %%s : f32\n"
           "  } -> tensor<%ldxf32>\n"
           "  return %%r : tensor<%ldxf32>\n}\n",
           n, n, n, n, n, body, n, n);
}

/* A streaming op: x + 1. */
static void streamText(long n, char *out, size_t size) {
  elementwiseText(n, "    %s = arith.addf %x, %one : f32\n", out, size);
}

/* The streaming op twice, its first result (a buffer of the function's
 * own: `loops` fuses no ops) between them. */
static void scratchText(long n, char *out, size_t size) {
  snprintf(out, size,
           "#id = affine_map<(d0) -> (d0)>\n"
           "func.func @probe(%%a: tensor<%ldxf32>) -> tensor<%ldxf32> {\n"
           "  %%one = arith.constant 1.0 : f32\n"
           "  %%e = tensor.empty() : tensor<%ldxf32>\n"
           "  %%t = linalg.generic {indexing_maps = [#id, #id], "
           "iterator_types = [\"parallel\"]} ins(%%a : tensor<%ldxf32>) "
           "outs(%%e : tensor<%ldxf32>) {\n"
           "  ^bb0(%%x: f32, %%y: f32):\n"
           "    %%s = arith.addf %%x, %%one : f32\n"
           "    linalg.yield %%s : f32\n"
           "  } -> tensor<%ldxf32>\n"
           "  %%f = tensor.empty() : tensor<%ldxf32>\n"
           "  %%r = linalg.generic {indexing_maps = [#id, #id], "
           "iterator_types = [\"parallel\"]} ins(%%t : tensor<%ldxf32>) "
           "outs(%%f : tensor<%ldxf32>) {\n"
           "  ^bb0(%%x: f32, %%y: f32):\n"
           "    %%s = arith.addf %%x, %%one : f32\n"
           "    linalg.yield %%s : f32\n"
           "  } -> tensor<%ldxf32>\n"
           "  return %%r : tensor<%ldxf32>\n}\n",
           n, n, n, n, n, n, n, n, n, n, n);
}

/* A logistic sigmoid, 1 / (1 + exp(-x)), as torch-mlir lowers sigmoid and
 * the first half of SiLU: the four flops per element the pass counts and
 * this probe is priced by. */
static void sigmoidText(long n, char *out, size_t size) {
  elementwiseText(n,
                  "    %n = arith.negf %x : f32\n"
                  "    %x2 = math.exp %n : f32\n"
                  "    %d = arith.addf %x2, %one : f32\n"
                  "    %s = arith.divf %one, %d : f32\n",
                  out, size);
}

static const char emptyText[] =
    "func.func @probe(%a: tensor<1xf32>) -> tensor<1xf32> {\n"
    "  return %a : tensor<1xf32>\n}\n";

double lpProbeText(const LpMeasureConfig *config, const char *kernelDir,
                   const char *name, const char *text, FILE *log) {
  char path[4400];
  snprintf(path, sizeof path, "%s/probe-%s.mlir", kernelDir, name);
  LpMeasurement m;
  if (!lpWriteTextFile(path, text)) {
    fprintf(log, "  probe %-14s cannot write %s\n", name, path);
    return 0;
  }
  lpMeasureFile(config, path, "probe", NULL, NULL, &m);
  if (!m.ok) {
    fprintf(log, "  probe %-14s FAILED: %s\n", name, m.error);
    return 0;
  }
  fprintf(log, "  probe %-14s %12.3f us (cv %.2g%%, %d reps)\n", name, m.us,
          m.cvPct, m.reps);
  return m.us;
}

double lpProbeBuiltText(const LpMeasureConfig *config, const char *kernelDir,
                        const char *name, bool fits, const char *text,
                        size_t size, FILE *log) {
  if (!fits) {
    fprintf(log, "  probe %-14s text longer than %zu bytes\n", name, size);
    return 0;
  }
  return lpProbeText(config, kernelDir, name, text, log);
}

double lpProbeStream(const LpMeasureConfig *config, const char *kernelDir,
                     const char *name, long elements, FILE *log) {
  char text[2048];
  streamText(elements, text, sizeof text);
  return lpProbeText(config, kernelDir, name, text, log);
}

/* A scratch buffer's cost per byte, ns: the chain of two streaming ops
 * over `elements` values, less the streaming op alone twice, over the
 * buffer's bytes. 0 (not written) when a probe failed or the buffer costs
 * nothing measurable: an allocator that keeps its pages warm (sanitizers
 * ignore allocator.h's settings). */
static double probeScratch(const LpMeasureConfig *config, const char *kernelDir,
                           long elements, FILE *log) {
  char text[4096];
  scratchText(elements, text, sizeof text);
  double chain = lpProbeText(config, kernelDir, "scratch", text, log);
  double alone = chain > 0 ? lpProbeStream(config, kernelDir, "scratch-alone",
                                           elements, log)
                           : 0;
  double bytes = 4.0 * (double)elements;
  double ns = alone > 0 ? (chain - 2 * alone) * 1e3 / bytes : 0;
  /* under 2% of the chain is within the two probes' noise */
  return ns > 0 && chain - 2 * alone > 0.02 * chain ? ns : 0;
}

static bool isFloat(const char *dtype) {
  return !strcmp(dtype, "f32") || !strcmp(dtype, "f16") ||
         !strcmp(dtype, "bf16") || !strcmp(dtype, "f64");
}

void lpProbeDevice(const LpMeasureConfig *config, bool quick,
                   const char *kernelDir, const char *const *dtypes,
                   int numDtypes, LpDeviceNumbers *out, FILE *log) {
  Sizes sizes =
      quick ? (Sizes){128, 2097152, 262144} : (Sizes){512, 16777216, 1048576};
  memset(out, 0, sizeof *out);
  out->coldNsPerByte = out->coldMatmulNsPerByte = -1; /* not measured */
  out->coldTransposeNsPerByte = -1;
  for (int i = 0; i < CM_COLD_WRITE_POINTS; i++)
    out->coldWriteNs[i] = -1;
  lpHostCachesGet(&out->caches);
  out->vectorBits = lpHostVectorBits();
  /* f32 and the two half types exported models use, whether or not the
   * profiled models have them (a model in f16 the profile never saw is
   * priced from these probes: their matmul's peak, or, through `loops`,
   * f32's peak with the converted chain, converted_chain_probe.c); then
   * the models' other floats */
  static const char *const always[] = {"f32", "f16", "bf16"};
  for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
    snprintf(out->dtypes[out->numDtypes++], sizeof out->dtypes[0], "%s",
             always[i]);
  for (int i = 0; i < numDtypes && out->numDtypes < LP_MAX_DTYPES; i++) {
    /* a name too long to keep (none of MLIR's float types is) is not
     * probed: its kernels' roofline uses f32's peak (calibrate.c) */
    bool seen =
        !isFloat(dtypes[i]) || strlen(dtypes[i]) >= sizeof out->dtypes[0];
    for (int j = 0; j < out->numDtypes && !seen; j++)
      seen = !strcmp(out->dtypes[j], dtypes[i]);
    if (!seen)
      snprintf(out->dtypes[out->numDtypes++], sizeof out->dtypes[0], "%s",
               dtypes[i]);
  }
  char text[2048], name[32];
  double flops = 2.0 * sizes.matmul * sizes.matmul * sizes.matmul;
  for (int i = 0; i < out->numDtypes; i++) {
    bool whole = lpMatmulProbeText(sizes.matmul, sizes.matmul, sizes.matmul, 1,
                                   out->dtypes[i], text, sizeof text);
    snprintf(name, sizeof name, "matmul-%s", out->dtypes[i]);
    double us = whole ? lpProbeText(config, kernelDir, name, text, log) : 0;
    out->peakFlops[i] = us > 0 ? flops / (us * 1e-6) : 0;
  }
  double us = lpProbeStream(config, kernelDir, "stream", sizes.elements, log);
  double streamed = 2.0 * 4 * (double)sizes.elements; /* in and out */
  out->memBw = us > 0 ? streamed / (us * 1e-6) : 0;
  out->launchUs = lpProbeText(config, kernelDir, "empty-call", emptyText, log);
  out->scratchNsPerByte = probeScratch(config, kernelDir, sizes.scratch, log);
  sigmoidText(sizes.scratch, text, sizeof text);
  double sigmoidUs = lpProbeText(config, kernelDir, "sigmoid", text, log);
  double peak = lpDevicePeak(out, "f32");
  out->sigmoidEfficiency =
      sigmoidUs > 0 && peak > 0
          ? 4.0 * (double)sizes.scratch / peak / (sigmoidUs * 1e-6)
          : 0;
  if (out->scratchNsPerByte > 0)
    fprintf(log, "  scratch pages %.3g ns per byte\n", out->scratchNsPerByte);
  /* quick: the two smallest passes (each point is a JIT and a timing, and
     a budget of seconds is the sweep's too) */
  lpProbeEpilogue(config, kernelDir, quick ? 65536 : INFINITY, out, log);
  if (quick) { /* the cold probes stream four times the LLC: seconds */
    fprintf(log, "  probe cold weights, cold writes, column-walk grid, "
                 "accumulator walk, converted chains and integer "
                 "multiply-adds   skipped (budget "
                 "under 30 s)\n");
    return;
  }
  /* through any pipeline: the grid is the rate, not a law of `loops`;
     timed twice, a minute or more apart (integer_mac_probe.c) */
  lpProbeIntegerMacs(config, kernelDir, out, log);
  lpProbeColdWeights(config, kernelDir, us, streamed, out, log);
  lpProbeColdWrites(config, kernelDir, out, log);
  /* only `loops` walks a matmul's weight column by column, a depthwise
     conv's output across its channels, and a half type's reduction one
     conversion at a time (the transform schedules vectorize it) */
  if (!strcmp(lpPipelineResolve(config->pipeline).name, "loops")) {
    lpProbeColumnWalk(config, kernelDir, out, log);
    lpProbeAccumulatorWalk(config, kernelDir, out, log);
    lpProbeConvertedChains(config, kernelDir, out, log);
  }
  lpProbeIntegerMacs(config, kernelDir, out, log); /* again, apart */
}
