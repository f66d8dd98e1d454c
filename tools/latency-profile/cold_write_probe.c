/*===- cold_write_probe.c - a written column in a whole run ---------------===*
 *
 * A transpose that writes its output's column (torch-mlir's transposed
 * weights: read in order, written a row apart) is measured alone into the
 * same output buffer call after call. When the column stays in L1 or L2 its
 * lines are cached from the previous call; inside a whole model they are
 * not, once the rest of the call has moved enough bytes (the numbers are in
 * latency/column_walk.h). The probe builds that: @cold transposes N weights
 * [kRows, kCols] into N outputs, returned (the caller's buffers, warm pages,
 * as the table rows have them), so that 2 x (N - 1) x the weight's bytes
 * move between two runs of each; @warm transposes one. N is set per share
 * of the last-level cache, and the penalty per byte written is
 * (cold / N - warm) / bytes.
 *
 *===----------------------------------------------------------------------===*/
#include "cold_write_probe.h"
#include "files.h"
#include "text.h"

#include <stdio.h>
#include <stdlib.h>

/* A column of kCols elements kRows apart: 4000 B, every L1 set, so it stays
 * in L1 or L2 on any host with more than kCols lines in them (16 KiB). The
 * chain is at least two long: one transpose alone is the baseline. */
enum { kRows = 1000, kCols = 256, kMinChain = 2, kMaxChain = 512 };

/* @cold over `n` weights and @warm over one, written into `text`. */
static bool chainText(int n, char *text, size_t size) {
  char w[40], o[40];
  snprintf(w, sizeof w, "tensor<%dx%dxf32>", kRows, kCols);
  snprintf(o, sizeof o, "tensor<%dx%dxf32>", kCols, kRows);
  LpText t = {text, size, 0};
  lpTextPut(&t, "#in = affine_map<(d0, d1) -> (d0, d1)>\n"
                "#out = affine_map<(d0, d1) -> (d1, d0)>\n");
  for (int f = 0; f < 2; f++) {
    int count = f == 0 ? n : 1;
    lpTextPut(&t, "func.func @%s(", f == 0 ? "cold" : "warm");
    for (int i = 0; i < count; i++)
      lpTextPut(&t, "%s%%w%d: %s", i ? ", " : "", i, w);
    lpTextPut(&t, ") -> (");
    lpTextPutRepeated(&t, o, count);
    lpTextPut(&t, ") {\n");
    for (int i = 0; i < count; i++)
      lpTextPut(&t,
                "  %%e%d = tensor.empty() : %s\n"
                "  %%t%d = linalg.generic {indexing_maps = [#in, #out], "
                "iterator_types = [\"parallel\", \"parallel\"]} ins(%%w%d : "
                "%s) outs(%%e%d : %s) {\n"
                "  ^bb0(%%a: f32, %%b: f32):\n    linalg.yield %%a : f32\n"
                "  } -> %s\n",
                i, o, i, i, w, i, o, o);
    lpTextPutReturn(&t, "t", count, o);
  }
  return lpTextFits(&t);
}

/* The extra ns per byte written of a chain whose other transposes move
 * `share` of the LLC between two runs of each: 0 when the probe measured
 * none (a difference within the noise can come out negative), -1 when it
 * failed or the chain's length cannot come within 2x of the share (a cache
 * a few weights fill, one too large for kMaxChain). */
static double chainPenalty(const LpMeasureConfig *config, double llcBytes,
                           double share, const char *kernelDir, FILE *log) {
  double bytes = 4.0 * kRows * kCols;
  double chain = share * llcBytes / (2 * bytes) + 1;
  int n = chain < kMinChain   ? kMinChain
          : chain > kMaxChain ? kMaxChain
                              : (int)(chain + 0.5);
  double moved = 2 * (n - 1) * bytes; /* between two runs of one */
  if (!(moved <= 2 * share * llcBytes && 2 * moved >= share * llcBytes)) {
    fprintf(log,
            "  probe cold-write     %.3g x the LLC: skipped (a chain of %d "
            "moves %.3g x)\n",
            share, n, moved / llcBytes);
    return -1;
  }
  size_t size = 600 + (size_t)n * 600;
  char *text = malloc(size), path[4400];
  snprintf(path, sizeof path, "%s/probe-cold-write-llc%g.mlir", kernelDir,
           share);
  bool written =
      text && chainText(n, text, size) && lpWriteTextFile(path, text);
  free(text);
  if (!written) {
    fprintf(log, "  probe cold-write     cannot write %s\n", path);
    return -1;
  }
  LpMeasurement m;
  lpMeasureFile(config, path, "cold,warm", "probe", NULL, &m);
  if (!m.ok || m.numOthers < 1) {
    fprintf(log, "  probe cold-write     FAILED: %s\n", m.ok ? "" : m.error);
    return -1;
  }
  double ns = (m.us / n - m.otherUs[0]) * 1e3 / bytes;
  fprintf(log,
          "  probe cold-write     %d x [%d, %d] transposed, %.3g MiB moved "
          "between two runs of one (%.3g x the LLC): %.1f us a transpose, "
          "%.1f alone: %.3g ns per byte written\n",
          n, kRows, kCols, moved / 1048576, moved / llcBytes, m.us / n,
          m.otherUs[0], ns);
  return ns > 0 ? ns : 0;
}

void lpProbeColdWrites(const LpMeasureConfig *config, const char *kernelDir,
                       LpDeviceNumbers *out, FILE *log) {
  for (int i = 0; i < CM_COLD_WRITE_POINTS; i++)
    out->coldWriteNs[i] = -1;
  if (!(out->llcBytes > 0))
    return;
  for (int i = 0; i < CM_COLD_WRITE_POINTS; i++)
    out->coldWriteNs[i] = chainPenalty(config, out->llcBytes,
                                       cmColdWriteLlcShares[i], kernelDir, log);
}
