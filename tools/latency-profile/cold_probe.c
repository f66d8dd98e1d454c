/*===- cold_probe.c - what reading a weight from memory costs -------------===*
 *
 * Kernels are measured alone, again and again on the same weights: those
 * stay in the caches. A whole model whose weights exceed the last-level
 * cache reads each one from memory once per call. These probes measure the
 * difference through the same pipeline and timing as every kernel, so the
 * pass can charge it (passes/estimate.c):
 *
 * - a chain of N matmuls [m, d] x [d, d], each with its own weight (N
 *   weights: four times the LLC) against the same chain on one weight,
 *   timed interleaved: the extra time per weight byte (the median of the
 *   paired differences); once with each weight read by the matmul, once
 *   through a transpose (strided reads that cross a page every row: no
 *   prefetcher follows them);
 * - the same chain at a sixteenth to twice the LLC: what the cache keeps
 *   between two reads of a weight (cold_kept.c);
 * - the streaming probe (beyond the LLC) against the same op on a buffer
 *   a quarter of the LLC: the extra time per byte streamed.
 *
 * The LLC size is read from sysfs; without it nothing is probed.
 *
 *===----------------------------------------------------------------------===*/
#include "cold_probe.h"
#include "cold_kept.h"
#include "device_probe.h"
#include "files.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kRows = 8,
  kMaxDim = 768,
  kMinWeights = 8,
  kMaxWeights = 256,
  kMinReps = 15,   /* paired differences per chain */
  kMaxSeconds = 15 /* of timing per chain, at most */
};

double lpLastLevelCacheBytes(void) {
  double largest = 0;
  int bestLevel = 0;
  for (int i = 0; i < 16; i++) {
    char path[128], text[64];
    int level = 0;
    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
    FILE *in = fopen(path, "r");
    if (!in)
      continue;
    if (fscanf(in, "%d", &level) != 1)
      level = 0;
    fclose(in);
    snprintf(path, sizeof path,
             "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    in = fopen(path, "r");
    if (!in || !fgets(text, sizeof text, in))
      text[0] = '\0';
    if (in)
      fclose(in);
    char *unit;
    double size = strtod(text, &unit);
    size *= *unit == 'K' ? 1024 : *unit == 'M' ? 1048576 : 1;
    if (level > bestLevel || (level == bestLevel && size > largest))
      largest = size, bestLevel = level;
  }
  return largest;
}

/* @cold: acc += x * w_i over `n` weights; @warm: the same over w_0 alone.
 * Each product accumulates into the previous one, so none is dead and the
 * values stay bounded. `transposed`: each weight is read through a
 * linalg.transpose first, as exports that keep weights [n, k] do. */
static bool chainText(int n, int d, bool transposed, char *text, size_t size) {
  char x[48], w[48];
  snprintf(x, sizeof x, "tensor<%dx%dxf32>", kRows, d);
  snprintf(w, sizeof w, "tensor<%dx%dxf32>", d, d);
  LpText t = {text, size, 0};
  for (int f = 0; f < 2; f++) {
    int weights = f == 0 ? n : 1;
    lpTextPut(&t, "func.func @%s(%%x: %s", f ? "warm" : "cold", x);
    for (int i = 0; i < weights; i++)
      lpTextPut(&t, ", %%w%d: %s", i, w);
    lpTextPut(&t,
              ") -> %s {\n  %%zero = arith.constant 0.0 : f32\n"
              "  %%e = tensor.empty() : %s\n  %%a0 = linalg.fill "
              "ins(%%zero : f32) outs(%%e : %s) -> %s\n",
              x, x, x, x);
    for (int i = 0; i < n; i++) {
      int wi = f == 0 ? i : 0;
      char operand[16];
      snprintf(operand, sizeof operand, "%%%s%d", transposed ? "v" : "w",
               transposed ? i : wi);
      if (transposed)
        lpTextPut(&t,
                  "  %%t%d = tensor.empty() : %s\n  %%v%d = "
                  "linalg.transpose ins(%%w%d : %s) outs(%%t%d : %s) "
                  "permutation = [1, 0]\n",
                  i, w, i, wi, w, i, w);
      lpTextPut(&t,
                "  %%a%d = linalg.matmul ins(%%x, %s : %s, %s) "
                "outs(%%a%d : %s) -> %s\n",
                i + 1, operand, x, w, i, x, x);
    }
    lpTextPut(&t, "  return %%a%d : %s\n}\n", n, x);
  }
  return lpTextFits(&t);
}

/* Extra ns per weight byte of a chain of `n` matmuls [kRows, d] x [d, d]
 * each reading its own weight (through a transpose when `transposed`)
 * against the same chain on one weight, the probe saved as
 * probe-`name`.mlir: 0 when it measured none, -1 when it failed.
 *
 * The extra time is a few percent of a call (the cold reads overlap the
 * matmuls), as much as the host drifts between repetitions: the two
 * medians' difference moved 10x between profiles on the project's VM
 * (0.046..0.536 ns/B through the transpose). So it is the median of the
 * differences taken repetition by repetition, over at least kMinReps of
 * them, and a difference within twice its standard error counts as none. */
static double chainPenalty(const LpMeasureConfig *config, int d, int n,
                           bool transposed, const char *name,
                           const char *kernelDir, FILE *log) {
  double weightBytes = 4.0 * d * d;
  size_t size = 400 + (size_t)n * 1200; /* two functions */
  char *text = malloc(size), path[4400];
  snprintf(path, sizeof path, "%s/probe-%s.mlir", kernelDir, name);
  bool written = text && chainText(n, d, transposed, text, size) &&
                 lpWriteTextFile(path, text);
  free(text);
  if (!written) {
    fprintf(log, "  probe %-14s cannot write %s\n", name, path);
    return -1;
  }
  LpMeasureConfig longer = *config; /* a call lasts a repetition or more */
  longer.maxSeconds = fmax(config->maxSeconds, kMaxSeconds);
  longer.minReps = config->minReps > kMinReps ? config->minReps : kMinReps;
  longer.targetCv = 1; /* kMinReps repetitions, whatever their spread */
  LpMeasurement m;
  lpMeasureFile(&longer, path, "cold,warm", "probe", NULL, &m);
  if (!m.ok || !m.hasDiff) {
    fprintf(log, "  probe %-14s FAILED: %s\n", name,
            m.ok ? "no paired difference" : m.error);
    return -1;
  }
  double ns = m.diffUs * 1e3 / (n * weightBytes);
  bool seen = m.diffUs > 2 * m.diffSeUs;
  fprintf(log,
          "  probe %-14s %d x [%d, %d] x [%d, %d]: %.1f us with %d weights, "
          "%.1f us with one, %d repetitions: %.1f +- %.1f us apart, %.3g ns "
          "per weight byte%s\n",
          name, n, kRows, d, d, d, m.us, n, m.otherUs[0], m.reps, m.diffUs,
          m.diffSeUs, ns, seen ? "" : " (within the noise: none)");
  return seen && ns > 0 ? ns : 0;
}

/* Extra ns per weight byte of a matmul reading its weights from memory
 * (through a transpose when `transposed`): the chain over four times the
 * LLC (chainPenalty). */
static double matmulPenalty(const LpMeasureConfig *config, double llc,
                            bool transposed, const char *kernelDir, FILE *log) {
  int d = kMaxDim;
  while (d > 64 && 4.0 * d * d > llc / 4)
    d -= 64;
  double weightBytes = 4.0 * d * d;
  int n = (int)(4 * llc / weightBytes) + 1;
  n = n < kMinWeights ? kMinWeights : n > kMaxWeights ? kMaxWeights : n;
  return chainPenalty(config, d, n, transposed,
                      transposed ? "cold-transpose" : "cold-matmul", kernelDir,
                      log);
}

/* What the cache keeps between two reads of a weight, bytes: the chain
 * at a sixteenth of the LLC to twice it, read off by lpColdKeptBytes; 0
 * when nothing came out cold or a probe failed. Its weights are d x d f32
 * with 4 d^2 near a 64th of the LLC (d = 384 for 32 MiB), so the smallest
 * chain has four and the longest 114-128, within kMaxWeights. On the
 * project's VM (32 MiB LLC, three profiles) none or 0.01 ns a byte at 2
 * MiB, none to 0.036 at 4 MiB, 0.15-0.16 at 8 MiB and 0.04-0.13 from 16
 * MiB on: the weights of a mobile network are read cold though they fit
 * the LLC (MnasNet's depthwise convs on 1 x 1 planes 2.4x their time
 * alone). */
static double keptBytes(const LpMeasureConfig *config, double llc,
                        const char *kernelDir, FILE *log) {
  static const double shares[] = {0.0625, 0.125, 0.25, 0.5, 1, 2};
  enum { kShares = sizeof shares / sizeof shares[0] };
  int d = 64 * (int)(sqrt(llc / 256) / 64 + 0.5);
  d = d < 64 ? 64 : d;
  while (2 * llc / (4.0 * d * d) > kMaxWeights) /* d rounded down */
    d += 64;
  double weightBytes = 4.0 * d * d, bytes[kShares], penalty[kShares];
  for (int i = 0; i < kShares; i++) {
    int n = (int)(shares[i] * llc / weightBytes + 0.5);
    n = n < 2 ? 2 : n > kMaxWeights ? kMaxWeights : n;
    char name[32];
    snprintf(name, sizeof name, "cold-kept-llc%g", shares[i]);
    bytes[i] = n * weightBytes;
    penalty[i] = chainPenalty(config, d, n, false, name, kernelDir, log);
    if (penalty[i] < 0)
      return 0;
  }
  return lpColdKeptBytes(bytes, penalty, kShares);
}

void lpProbeColdWeights(const LpMeasureConfig *config, const char *kernelDir,
                        double coldStreamUs, double coldStreamBytes,
                        LpDeviceNumbers *out, FILE *log) {
  out->coldNsPerByte = out->coldMatmulNsPerByte = -1; /* not measured */
  out->coldTransposeNsPerByte = -1;
  out->llcBytes = lpLastLevelCacheBytes();
  if (out->llcBytes <= 0) {
    fprintf(log, "  probe cold weights   skipped: no cache size in sysfs\n");
    return;
  }
  out->coldMatmulNsPerByte =
      matmulPenalty(config, out->llcBytes, false, kernelDir, log);
  out->coldTransposeNsPerByte =
      matmulPenalty(config, out->llcBytes, true, kernelDir, log);
  out->coldWeightMinBytes = keptBytes(config, out->llcBytes, kernelDir, log);
  if (out->coldWeightMinBytes > 0)
    fprintf(log, "  probe cold-kept      weights read cold beyond %.3g MiB\n",
            out->coldWeightMinBytes / 1048576);
  long elements = (long)(out->llcBytes / 32); /* in + out: a quarter */
  double warmBytes = 8.0 * elements;
  double warmUs =
      lpProbeStream(config, kernelDir, "stream-warm", elements, log);
  if (coldStreamBytes < 2 * out->llcBytes || coldStreamUs <= 0 || warmUs <= 0)
    return;
  double ns = (coldStreamUs / coldStreamBytes - warmUs / warmBytes) * 1e3;
  fprintf(log, "  probe cold-stream    %.3g ns per byte beyond the cache\n",
          ns);
  out->coldNsPerByte = ns > 0 ? ns : 0;
}
