/*===- gemm_tiles.h - tile and wave quantisation of GEMMs (internal) ------===*/
#ifndef LATENCY_GEMM_TILES_H
#define LATENCY_GEMM_TILES_H

#include "latency/roofline_fit.h"
#include "work.h"

/// Fills `*gemm` for a matmul or batch_matmul `kernel` (or a fused kernel
/// rooted at one) of element type `dtype` (may be NULL) whose m, n, k and
/// batch come from `value`, with the per-SM rates of `profile`'s device;
/// returns false and zeroes `*gemm` for other kernels, unknown or
/// non-positive m, n, k, or a device without sm_count, peak or mem_bw.
bool cmGemmTilesShape(CmProfile profile, const char *kernel, const char *dtype,
                      CmValueFn value, const void *context,
                      CmRooflineGemm *gemm);

/// Returns the compute side of `gemm` under `params` in us: the fastest
/// CTA tile and split-K choice, each paying its waves over the SMs
/// (params->waveUs each) and, when split, params->splitUs plus its fp32
/// partial sums at mem_bw x memory efficiency. Needs gemm->m > 0 and
/// params->tileBandwidth > 0.
double cmGemmTilesUs(const CmRooflineGemm *gemm,
                     const CmRooflineParams *params);

/// Returns the time of a tiled GEMM whose compute side takes `computeUs`
/// and whose memory side `memoryUs` (both >= 0): (c^3 + m^3)^(1/3), the
/// larger of the two where one dominates, up to 26% more near the ridge
/// where neither hides the other.
double cmGemmTilesOverlap(double computeUs, double memoryUs);

#endif /* LATENCY_GEMM_TILES_H */
