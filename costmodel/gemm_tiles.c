/*===- gemm_tiles.c - tile and wave quantisation of GEMMs -----------------===*
 *
 * cuBLAS-style GEMMs cut C into CTA tiles of tm x tn outputs; each CTA
 * walks K and the tiles run in waves of sm_count (NVIDIA's "tile
 * quantization" and "wave quantization"). One tile costs, per step of K,
 * the larger of its MACs at the SM's share of the peak (2 tm tn flops /
 * compute efficiency) and its operand loads (tm + tn elements at
 * tile_bandwidth x mem_bw / sm_count, the L2 feed); a wave pays wave_us on
 * top. Small M x N with long K splits K over more CTAs (2, 4, ... 64, at
 * least 128 of K each) and pays split_k_us plus writing and reading back
 * its fp32 partial sums. The library picks a near-best configuration, so
 * the model answers the fastest of the candidates. Padding (m = 129 is two
 * tiles of 128) and waves (133 tiles are two waves on 132 SMs) make the
 * steps the tables show. The compute side and the kernel's memory time
 * meet in a soft maximum of exponent 3 (the exponent with the lowest
 * training error on the H100 bf16 grid among 2, 2.5, 3, 4, 6 and a hard
 * maximum: 6.46% against 6.95%): near the ridge neither hides the other.
 *
 *===----------------------------------------------------------------------===*/
#include "gemm_tiles.h"

#include "roofline.h"

#include <math.h>
#include <string.h>

static const double kTileShapes[][2] = {{64, 64},   {64, 128},  {128, 64},
                                        {128, 128}, {128, 256}, {256, 128}};
enum { kNumTileShapes = sizeof kTileShapes / sizeof kTileShapes[0] };
static const double kMaxSplit = 64, kMinSplitK = 128, kOverlap = 3;

bool cmGemmTilesShape(CmProfile profile, const char *kernel, const char *dtype,
                      CmValueFn value, const void *context,
                      CmRooflineGemm *gemm) {
  memset(gemm, 0, sizeof *gemm);
  if (!value ||
      !(cmKernelIs(kernel, "matmul") || cmKernelIs(kernel, "batch_matmul")))
    return false;
  double m = value(context, "m"), n = value(context, "n");
  double k = value(context, "k"), batch = value(context, "batch");
  double sms = cmProfileGetDeviceNumber(profile, "sm_count", NAN);
  double peak = cmRooflinePeak(profile, dtype);
  double bandwidth = cmProfileGetDeviceNumber(profile, "mem_bw", NAN);
  double size = dtype ? cmDtypeGetSize(dtype) : 0;
  /* isfinite: an infinite size or device number would make waves x time
   * inf x 0 = NaN below; such a kernel keeps the plain roofline. */
  if (!(m > 0 && n > 0 && k > 0 && sms >= 1 && peak > 0 && bandwidth > 0) ||
      !isfinite(m * n * k * sms * peak * bandwidth) ||
      (isfinite(batch) && batch <= 0))
    return false;
  *gemm = (CmRooflineGemm){m,
                           n,
                           k,
                           batch >= 1 && isfinite(batch) ? batch : 1,
                           sms,
                           sms / peak * 1e6,
                           (size > 0 ? size : 4) * sms / bandwidth * 1e6,
                           8 / bandwidth * 1e6};
  return true;
}

double cmGemmTilesUs(const CmRooflineGemm *g, const CmRooflineParams *p) {
  double flopUs = g->smFlopUs / p->computeEfficiency;
  double loadUs = g->smLoadUs / p->tileBandwidth;
  double partialUs = g->partialUs / p->memoryEfficiency;
  double best = INFINITY;
  for (int t = 0; t < kNumTileShapes; t++) {
    double tm = kTileShapes[t][0], tn = kTileShapes[t][1];
    double tiles = ceil(g->m / tm) * ceil(g->n / tn) * g->batch;
    double perK = fmax(2 * tm * tn * flopUs, (tm + tn) * loadUs);
    for (double s = 1; s <= kMaxSplit && (s == 1 || g->k / s >= kMinSplitK);
         s *= 2) {
      double waves = ceil(tiles * s / g->sms);
      double us = waves * (perK * ceil(g->k / s) + p->waveUs);
      if (s > 1)
        us += p->splitUs + g->m * g->n * g->batch * s * partialUs;
      best = fmin(best, us);
    }
  }
  return best;
}

double cmGemmTilesOverlap(double computeUs, double memoryUs) {
  double larger = fmax(computeUs, memoryUs);
  if (!(larger > 0))
    return 0;
  if (isinf(larger)) /* inf / inf would be NaN */
    return larger;
  return larger * pow(pow(computeUs / larger, kOverlap) +
                          pow(memoryUs / larger, kOverlap),
                      1 / kOverlap);
}
