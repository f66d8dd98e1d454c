/*===- epilogue_probe.c - one more pass over a kernel's output ------------===*
 *
 * torch-mlir's TOSA conv is an NHWC conv between transposes, its batch
 * norm four elementwise ops on per-channel constants and its relu a
 * clamp, each a loop nest of its own through `loops`, each reading what
 * the previous one wrote. The probe builds that on a 14 x 14 plane (a
 * short inner loop, as a late stage's) with the channels to fill each size
 * the curve has: @chain transposes [h, w, c] to [c, h, w] and applies sub,
 * mul, mul, add and max with a per-channel vector; @one applies one add to
 * [h, w, c]. What differs is kExtraPasses passes, a transpose among them
 * as in a TOSA conv's epilogue (two of its seven). Per element of a pass
 * it is (chain - one) / kExtraPasses / elements, chain - one the median of
 * the differences taken repetition by repetition (the two are timed
 * interleaved), none when within twice its standard error: a difference of
 * the two medians kept the host's drift between them, as the cold probes'
 * did (session 22).
 *
 * Each pass writes into a buffer of the caller's, warm: a whole run serves
 * a kernel's intermediate buffers from heap chunks the previous kernels
 * freed (in place, a TOSA MobileNet-V2's 1 x 1 conv to 112 x 112 x 96 ran
 * its seven passes at 0.54 ns an element). Where a kernel's buffers do get
 * fresh pages, they are its scratch, priced apart (scratch_ns_per_byte).
 * Buffers the probe allocated itself came out 2-3 ns an element from 256
 * KiB on, mostly those pages, which measured apart and subtracted left a
 * noisy remainder.
 *
 *===----------------------------------------------------------------------===*/
#include "epilogue_probe.h"
#include "files.h"
#include "text.h"

#include "latency/epilogue.h"

#include <stdio.h>
#include <stdlib.h>

enum { kPlane = 14, kExtraPasses = 5 };

static const char *const kOps[] = {"arith.subf", "arith.mulf", "arith.mulf",
                                   "arith.addf", "arith.maximumf"};

/* @chain and @one over `channels` channels of a kPlane x kPlane plane,
 * written into `text`: each pass into a buffer of the caller's (%o<p>). */
static bool probeText(long channels, char *text, size_t size) {
  char hwc[64], chw[64], c[32];
  snprintf(hwc, sizeof hwc, "tensor<%dx%dx%ldxf32>", kPlane, kPlane, channels);
  snprintf(chw, sizeof chw, "tensor<%ldx%dx%dxf32>", channels, kPlane, kPlane);
  snprintf(c, sizeof c, "tensor<%ldxf32>", channels);
  LpText t = {text, size, 0};
  lpTextPut(&t,
            "#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>\n"
            "#hwc = affine_map<(d0, d1, d2) -> (d1, d2, d0)>\n"
            "#c0 = affine_map<(d0, d1, d2) -> (d0)>\n"
            "#c2 = affine_map<(d0, d1, d2) -> (d2)>\n"
            "func.func @chain(%%x: %s, %%c: %s",
            hwc, c);
  for (int p = 0; p <= kExtraPasses; p++)
    lpTextPut(&t, ", %%o%d: %s", p, chw);
  lpTextPut(&t,
            ") -> %s {\n"
            "  %%x0 = linalg.generic {indexing_maps = [#hwc, #id], "
            "iterator_types = [\"parallel\", \"parallel\", "
            "\"parallel\"]} ins(%%x : %s) outs(%%o0 : %s) {\n"
            "  ^bb0(%%a: f32, %%o: f32):\n    linalg.yield %%a : f32\n"
            "  } -> %s\n",
            chw, hwc, chw, chw);
  for (int p = 0; p < kExtraPasses; p++)
    lpTextPut(&t,
              "  %%x%d = linalg.generic {indexing_maps = [#id, #c0, #id], "
              "iterator_types = [\"parallel\", \"parallel\", "
              "\"parallel\"]} ins(%%x%d, %%c : %s, %s) outs(%%o%d : %s) {\n"
              "  ^bb0(%%a: f32, %%b: f32, %%o: f32):\n"
              "    %%s = %s %%a, %%b : f32\n"
              "    linalg.yield %%s : f32\n"
              "  } -> %s\n",
              p + 1, p, chw, c, p + 1, chw, kOps[p], chw);
  lpTextPut(&t,
            "  return %%x%d : %s\n}\n"
            "func.func @one(%%x: %s, %%c: %s, %%q: %s) -> %s {\n"
            "  %%r = linalg.generic {indexing_maps = [#id, #c2, #id], "
            "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
            "ins(%%x, %%c : %s, %s) outs(%%q : %s) {\n"
            "  ^bb0(%%a: f32, %%b: f32, %%o: f32):\n"
            "    %%s = arith.addf %%a, %%b : f32\n"
            "    linalg.yield %%s : f32\n"
            "  } -> %s\n"
            "  return %%r : %s\n}\n",
            kExtraPasses, chw, hwc, c, hwc, hwc, hwc, c, hwc, hwc, hwc);
  return lpTextFits(&t);
}

/* ns per element of one more pass of `bytes`; 0 when the probe failed or
 * measured nothing (within its noise). */
static double passNs(const LpMeasureConfig *config, double bytes,
                     const char *kernelDir, FILE *log) {
  long channels = (long)(bytes / (4.0 * kPlane * kPlane) + 0.5);
  double elements = (double)channels * kPlane * kPlane;
  char text[8192], path[4400];
  snprintf(path, sizeof path, "%s/probe-epilogue-b%.0f.mlir", kernelDir, bytes);
  if (!probeText(channels, text, sizeof text) || !lpWriteTextFile(path, text)) {
    fprintf(log, "  probe epilogue       cannot write %s\n", path);
    return 0;
  }
  LpMeasurement m;
  lpMeasureFile(config, path, "chain,one", "probe", NULL, &m);
  if (!m.ok || !m.hasDiff) {
    fprintf(log, "  probe epilogue       FAILED: %s\n",
            m.ok ? "no paired difference" : m.error);
    return 0;
  }
  double ns = m.diffUs * 1e3 / (kExtraPasses * elements);
  bool seen = m.diffUs > 2 * m.diffSeUs;
  fprintf(log,
          "  probe epilogue       %d more passes over %.3g KiB: %.1f us, one "
          "%.1f, %.1f +- %.1f us apart: %.3g ns an element a pass%s\n",
          kExtraPasses, bytes / 1024, m.us, m.otherUs[0], m.diffUs, m.diffSeUs,
          ns, seen ? "" : " (within the noise: none)");
  return seen && ns > 0 ? ns : 0;
}

void lpProbeEpilogue(const LpMeasureConfig *config, const char *kernelDir,
                     double maxBytes, LpDeviceNumbers *out, FILE *log) {
  for (int i = 0; i < CM_EPILOGUE_POINTS; i++) {
    double bytes = cmEpilogueBytes(i);
    out->epilogueNs[i] =
        bytes <= maxBytes ? passNs(config, bytes, kernelDir, log) : 0;
  }
}
