/*===- converted_chain_probe.c - half-precision multiply-add chains -------===*
 *
 * Through `loops` a half-precision conv or matmul converts every element on
 * its reduction's chain, at a rate set by its element and accumulator
 * types alone (latency/converted_chain.h), which neither the f32 shapes
 * the efficiencies are fitted on nor the half type's matmul probe (whose
 * f32 twin waits on its weight's columns) tells. The bundled models have
 * no f16 conv, and a model exported in f16 has nothing else, so the
 * profile times the chain itself: a 1 x 1 conv as TOSA lowers it
 * (linalg's conv_2d_nhwc_fhwc) at 28 x 28 pixels over 96 channels, a
 * reduction well past the ones LLVM unrolls, per half type and
 * accumulator (the type itself, f32), every buffer an argument or the
 * result, and once in f32. A rate is kept only when it is at least
 * kConverted times f32's: a host with half arithmetic of its own (x86's
 * AVX512-FP16) would run the chain near f32's rate, and its half
 * types keep their own peaks. A probe takes 4-40 ms a call on the
 * project's VM (f16 with f16: 9.3x f32's rate, f16 with f32 4.4x, bf16
 * with bf16 5.4x, bf16 with f32 1.27x).
 *
 *===----------------------------------------------------------------------===*/
#include "converted_chain_probe.h"
#include "device_probe.h"
#include "text.h"

#include "latency/dtype.h"

enum { kSide = 28, kChannels = 96 };

/* How much slower than f32's a half chain must run to be a converted one:
 * far above the probes' noise and f32's own spread over shapes, far below
 * the chains that convert on it (4.4x and more). bf16 accumulating in f32
 * (1.27x: its loads widen with a shift, its sum stays f32) is not kept. */
static const double kConverted = 1.5;

/* The probe: `dtype` input and weight, a `acc` output it accumulates in. */
static bool probeText(const char *dtype, const char *acc, char *out,
                      size_t size) {
  char in[80], weight[80], res[80];
  snprintf(in, sizeof in, "tensor<1x%dx%dx%dx%s>", kSide, kSide, kChannels,
           dtype);
  snprintf(weight, sizeof weight, "tensor<%dx1x1x%dx%s>", kChannels, kChannels,
           dtype);
  snprintf(res, sizeof res, "tensor<1x%dx%dx%dx%s>", kSide, kSide, kChannels,
           acc);
  LpText t = {out, size, 0};
  lpTextPut(&t,
            "func.func @probe(%%in: %s, %%w: %s) -> %s {\n"
            "  %%zero = arith.constant 0.0 : %s\n"
            "  %%e = tensor.empty() : %s\n"
            "  %%c = linalg.fill ins(%%zero : %s) outs(%%e : %s) -> %s\n"
            "  %%r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : "
            "tensor<2xi64>, strides = dense<1> : tensor<2xi64>} "
            "ins(%%in, %%w : %s, %s) outs(%%c : %s) -> %s\n"
            "  return %%r : %s\n}\n",
            in, weight, res, acc, res, acc, res, res, in, weight, res, res,
            res);
  return lpTextFits(&t);
}

/* The probe's ns per multiply-add for `dtype` accumulating in `acc`; 0
 * when it failed. */
static double probeNs(const LpMeasureConfig *config, const char *kernelDir,
                      const char *dtype, const char *acc, FILE *log) {
  char text[2048], name[48];
  snprintf(name, sizeof name, "chain-%s-%s", dtype, acc);
  double us = lpProbeBuiltText(config, kernelDir, name,
                               probeText(dtype, acc, text, sizeof text), text,
                               sizeof text, log);
  return us > 0 ? us * 1e3 / ((double)kSide * kSide * kChannels * kChannels)
                : 0;
}

void lpProbeConvertedChains(const LpMeasureConfig *config,
                            const char *kernelDir, LpDeviceNumbers *out,
                            FILE *log) {
  double f32 = probeNs(config, kernelDir, "f32", "f32", log);
  if (!(f32 > 0)) { /* nothing to tell a converted chain by */
    fprintf(log, "  probe chains         skipped: f32's failed\n");
    return;
  }
  for (int i = 0; i < out->numDtypes; i++) {
    if (!cmDtypeIsHalfFloat(out->dtypes[i]))
      continue;
    for (int a = 0; a < LP_ACCUMULATORS; a++) {
      const char *acc = a == LP_ACC_OWN ? out->dtypes[i] : "f32";
      double ns = probeNs(config, kernelDir, out->dtypes[i], acc, log);
      if (!(ns > 0))
        continue;
      bool converted = ns >= kConverted * f32;
      fprintf(log,
              "  probe chain %s with %s: %.3g ns a multiply-add, %.3gx "
              "f32's: %s\n",
              out->dtypes[i], acc, ns, ns / f32,
              converted ? "converted" : "not kept");
      out->convertedMacNs[i][a] = converted ? ns : 0;
    }
  }
}
