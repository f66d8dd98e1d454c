/*===- integer_mac_probe.c - int8 convs whose reduction is vectorized -----===*
 *
 * No bundled model is in int8, and an int8 model (a TFLite export through
 * TOSA) has nothing else, so the profile times the rates such a model's
 * convs run at itself (latency/integer_mac.h): a conv as TOSA lowers an
 * int8 one with an input zero point (linalg's conv_2d_nhwc_fhwc_q, -128
 * and 0, which TFLite's asymmetric activations have; 10-20% slower than
 * without them at 64-128 channels) at 28 x 28 output pixels, as many
 * output channels as input (at least kMinOutputs), every buffer an
 * argument or the result, at each window and channel count of the grid
 * (27 probes, from 10 us to 100 ms a call on the project's VM); then an
 * int8 depthwise conv and a pad. The device probes call it twice, before
 * and after the cold probes, and keep each point's faster time: in one
 * profile a slow spell of the host (docs/profiling.md) made the 7 x 7 row
 * 1.6x slower than any process timing it alone, and a stem conv is one
 * such point.
 *
 *===----------------------------------------------------------------------===*/
#include "integer_mac_probe.h"
#include "device_probe.h"
#include "text.h"

#include "latency/integer_mac.h"

#include <math.h>

/* kPadRows x kPadSide: half the plane of a 32 x 32 x 128 depthwise conv's
 * pad, kPadCopies times (1.6 ms a call) */
/* kMinOutputs: a stem conv's three channels feed 16 to 64 outputs, and a
 * pixel's loop costs the same over 4 outputs as over 32 */
enum {
  kSide = 28,
  kMinOutputs = 32,
  kDepthwiseChannels = 128,
  kPadSide = 32,
  kPadRows = 16,
  kPadCopies = 8,
  kPadDraws = 3
};

/* The probe at `channels` input and output channels and a `side` x `side`
 * window. */
static bool probeText(int channels, int side, char *out, size_t size) {
  char in[80], weight[80], res[80];
  snprintf(in, sizeof in, "tensor<1x%dx%dx%dxi8>", kSide + side - 1,
           kSide + side - 1, channels);
  int outputs = channels > kMinOutputs ? channels : kMinOutputs;
  snprintf(weight, sizeof weight, "tensor<%dx%dx%dx%dxi8>", outputs, side, side,
           channels);
  snprintf(res, sizeof res, "tensor<1x%dx%dx%dxi32>", kSide, kSide, outputs);
  LpText t = {out, size, 0};
  lpTextPut(&t,
            "func.func @probe(%%in: %s, %%w: %s) -> %s {\n"
            "  %%zero = arith.constant 0 : i32\n"
            "  %%izp = arith.constant -128 : i32\n"
            "  %%wzp = arith.constant 0 : i32\n"
            "  %%e = tensor.empty() : %s\n"
            "  %%c = linalg.fill ins(%%zero : i32) outs(%%e : %s) -> %s\n"
            "  %%r = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : "
            "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
            "ins(%%in, %%w, %%izp, %%wzp : %s, %s, i32, i32) outs(%%c : %s) "
            "-> %s\n"
            "  return %%r : %s\n}\n",
            in, weight, res, res, res, res, in, weight, res, res, res);
  return lpTextFits(&t);
}

/* The depthwise probe: a 3 x 3 channels-last int8 depthwise conv over
 * kDepthwiseChannels channels with TOSA's zero points, on an input padded
 * beforehand, accumulating onto its bias broadcast over the output (a pass
 * as TOSA's bias add is). No buffer but the result: a scratch buffer's
 * pages are the roofline's scratch_bytes. */
static bool depthwiseText(char *out, size_t size) {
  char in[80], weight[80], acc[80];
  snprintf(in, sizeof in, "tensor<1x%dx%dx%dxi8>", kSide + 2, kSide + 2,
           kDepthwiseChannels);
  snprintf(weight, sizeof weight, "tensor<3x3x%dx1xi8>", kDepthwiseChannels);
  snprintf(acc, sizeof acc, "tensor<1x%dx%dx%dx1xi32>", kSide, kSide,
           kDepthwiseChannels);
  LpText t = {out, size, 0};
  lpTextPut(
      &t,
      "func.func @probe(%%in: %s, %%w: %s, %%b: tensor<%dxi32>) -> %s {\n"
      "  %%izp = arith.constant -128 : i32\n"
      "  %%wzp = arith.constant 0 : i32\n"
      "  %%e = tensor.empty() : %s\n"
      "  %%c = linalg.generic {indexing_maps = [affine_map<(n, h, w, c, m) -> "
      "(c)>, affine_map<(n, h, w, c, m) -> (n, h, w, c, m)>], "
      "iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
      "\"parallel\", \"parallel\"]} ins(%%b : tensor<%dxi32>) outs(%%e : "
      "%s) {\n"
      "  ^bb0(%%x: i32, %%y: i32):\n"
      "    linalg.yield %%x : i32\n"
      "  } -> %s\n"
      "  %%r = linalg.depthwise_conv_2d_nhwc_hwcm_q {dilations = dense<1> : "
      "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
      "ins(%%in, %%w, %%izp, %%wzp : %s, %s, i32, i32) outs(%%c : %s) -> %s\n"
      "  return %%r : %s\n}\n",
      in, weight, kDepthwiseChannels, acc, acc, kDepthwiseChannels, acc, acc,
      in, weight, acc, acc, acc);
  return lpTextFits(&t);
}

/* The pad probe: kPadCopies tensor.pads, each of kPadRows x kPadSide x
 * kDepthwiseChannels int8 elements by one on each side of the plane, each
 * on buffers of its own. A pad's copy runs at one of two rates, drawn per
 * buffer (3.34 ns an element in five processes of six copying one pad,
 * 2.48 in the sixth); a model has many pads, and so has the probe. */
static bool padText(char *out, size_t size) {
  char in[80], res[80];
  snprintf(in, sizeof in, "tensor<1x%dx%dx%dxi8>", kPadRows, kPadSide,
           kDepthwiseChannels);
  snprintf(res, sizeof res, "tensor<1x%dx%dx%dxi8>", kPadRows + 2, kPadSide + 2,
           kDepthwiseChannels);
  LpText t = {out, size, 0};
  lpTextPut(&t, "func.func @probe(");
  for (int i = 0; i < kPadCopies; i++)
    lpTextPut(&t, "%s%%in%d: %s", i ? ", " : "", i, in);
  lpTextPut(&t, ") -> (");
  lpTextPutRepeated(&t, res, kPadCopies);
  lpTextPut(&t, ") {\n  %%zero = arith.constant 0 : i8\n");
  for (int i = 0; i < kPadCopies; i++)
    lpTextPut(&t,
              "  %%p%d = tensor.pad %%in%d low[0, 1, 1, 0] high[0, 1, 1, 0] {\n"
              "  ^bb0(%%a: index, %%b: index, %%c: index, %%d: index):\n"
              "    tensor.yield %%zero : i8\n"
              "  } : %s to %s\n",
              i, i, in, res);
  lpTextPutReturn(&t, "p", kPadCopies, res);
  return lpTextFits(&t);
}

/* Keeps the faster of `*kept` and `ns` (0: none measured): the host's slow
 * spells only ever slow a probe down. */
static void keepFaster(double *kept, double ns) {
  if (ns > 0 && !(*kept > 0 && *kept <= ns))
    *kept = ns;
}

/* The median of three draws (a failed one is 0, and so the lowest). */
static double medianOfThree(const double d[kPadDraws]) {
  double lo = fmin(d[0], fmin(d[1], d[2])), hi = fmax(d[0], fmax(d[1], d[2]));
  return d[0] + d[1] + d[2] - lo - hi;
}

void lpProbeIntegerMacs(const LpMeasureConfig *config, const char *kernelDir,
                        LpDeviceNumbers *out, FILE *log) {
  char text[4096];
  double us = lpProbeBuiltText(config, kernelDir, "integer-depthwise",
                               depthwiseText(text, sizeof text), text,
                               sizeof text, log);
  keepFaster(
      &out->integerDepthwiseNs,
      us > 0 ? us * 1e3 / ((double)kSide * kSide * kDepthwiseChannels * 9) : 0);
  /* and the median of three processes' draws of them */
  double draws[kPadDraws];
  bool padFits = padText(text, sizeof text);
  for (int i = 0; i < kPadDraws; i++)
    draws[i] = lpProbeBuiltText(config, kernelDir, "pad-copy", padFits, text,
                                sizeof text, log);
  us = medianOfThree(draws);
  keepFaster(&out->padCopyNs, us > 0 ? us * 1e3 /
                                           ((double)kPadCopies * kPadRows *
                                            kPadSide * kDepthwiseChannels)
                                     : 0);
  for (int w = 0; w < CM_INTEGER_MAC_WINDOWS; w++) {
    int window = cmIntegerMacWindow(w);
    int side = window == 49 ? 7 : window == 9 ? 3 : 1;
    for (int c = 0; c < CM_INTEGER_MAC_CHANNELS; c++) {
      int channels = cmIntegerMacChannels(c);
      if (window == 49 && channels > CM_INTEGER_MAC_WIDE_CHANNELS)
        continue;
      char name[48];
      snprintf(name, sizeof name, "integer-w%d-c%d", window, channels);
      us = lpProbeBuiltText(config, kernelDir, name,
                            probeText(channels, side, text, sizeof text), text,
                            sizeof text, log);
      double macs = (double)kSide * kSide * channels * window *
                    (channels > kMinOutputs ? channels : kMinOutputs);
      keepFaster(&out->integerMacNs[w][c], us > 0 ? us * 1e3 / macs : 0);
    }
  }
  fprintf(log, "  probe integer multiply-adds, ns each (window: channels 1 ... "
               "512):");
  for (int w = 0; w < CM_INTEGER_MAC_WINDOWS; w++) {
    fprintf(log, " %d:", cmIntegerMacWindow(w));
    for (int c = 0; c < CM_INTEGER_MAC_CHANNELS; c++)
      fprintf(log, " %.3g", out->integerMacNs[w][c]);
  }
  fprintf(log, "; depthwise %.3g; pad copy %.3g ns an element\n",
          out->integerDepthwiseNs, out->padCopyNs);
}
