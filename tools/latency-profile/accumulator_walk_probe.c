/*===- accumulator_walk_probe.c - a depthwise conv's aliased output -------===*
 *
 * Through `loops`, linalg's depthwise_conv_2d_nchw_chw runs n, oh, ow, c,
 * kh, kw: for every output pixel it walks the channels, loading and storing
 * the pixel's accumulator in each, an output plane apart. When that plane
 * is a whole number of L1 ways, the next channel's load has the address
 * bits of the store just before it and waits for the store (4K aliasing);
 * the time per multiply-add grows from 0.8-1.0 ns to 5 from 32 channels
 * on, to 2.4 at 16, and not at 8 (latency/column_walk.h). No bundled
 * model has such a plane (their depthwise outputs are 16 x 16 and
 * smaller), and a model exported at 128 or 256 pixels has several, so the
 * profile times the walk itself: a depthwise conv over a plane of exactly
 * one way, its input already padded and every buffer an argument or a
 * result, so that nothing but the walk is timed (docs/profiling.md, "The
 * accumulator walk").
 *
 *===----------------------------------------------------------------------===*/
#include "accumulator_walk_probe.h"
#include "device_probe.h"
#include "text.h"

#include "latency/column_walk.h"

#include <math.h>

enum { kWindow = 3, kWidth = 32 };

/* The probe: `channels` planes of `height` x kWidth outputs. */
static bool probeText(long channels, long height, char *out, size_t size) {
  char in[80], weight[80], res[80];
  snprintf(in, sizeof in, "tensor<1x%ldx%ldx%ldxf32>", channels,
           height + kWindow - 1, (long)kWidth + kWindow - 1);
  snprintf(weight, sizeof weight, "tensor<%ldx%dx%dxf32>", channels, kWindow,
           kWindow);
  snprintf(res, sizeof res, "tensor<1x%ldx%ldx%dxf32>", channels, height,
           kWidth);
  LpText t = {out, size, 0};
  lpTextPut(&t,
            "func.func @probe(%%in: %s, %%w: %s) -> %s {\n"
            "  %%zero = arith.constant 0.0 : f32\n"
            "  %%e = tensor.empty() : %s\n"
            "  %%c = linalg.fill ins(%%zero : f32) outs(%%e : %s) -> %s\n"
            "  %%r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> "
            ": vector<2xi64>, strides = dense<1> : vector<2xi64>} "
            "ins(%%in, %%w : %s, %s) outs(%%c : %s) -> %s\n"
            "  return %%r : %s\n}\n",
            in, weight, res, res, res, res, in, weight, res, res, res);
  return lpTextFits(&t);
}

void lpProbeAccumulatorWalk(const LpMeasureConfig *config,
                            const char *kernelDir, LpDeviceNumbers *out,
                            FILE *log) {
  const CmCacheGeometry *g = &out->caches;
  double way = g->l1Ways > 0 ? g->l1Bytes / g->l1Ways : 0;
  double rows = way / (4.0 * kWidth); /* f32 */
  if (!cmAccumulatorWalkAliases(g, way) || !(rows >= 1 && rows < 1e6) ||
      rows != floor(rows)) {
    fprintf(log, "  probe accumulator walk: no plane of one L1 way\n");
    return;
  }
  long height = (long)rows;
  char text[2048], name[48];
  for (int j = 0; j < CM_ACCUMULATOR_WALK_POINTS; j++) {
    long channels = (long)cmAccumulatorWalkChannels[j];
    snprintf(name, sizeof name, "acc-walk-k%ld", channels);
    double us = lpProbeBuiltText(config, kernelDir, name,
                                 probeText(channels, height, text, sizeof text),
                                 text, sizeof text, log);
    out->accumulatorWalkNs[j] =
        us * 1e3 / ((double)channels * height * kWidth * kWindow * kWindow);
  }
}
