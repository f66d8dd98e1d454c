/*===- latency/roofline_fit.h - the roofline fitted to measured tables ----===*
 *
 * The roofline tier answers max(compute / ce, memory / me) + launch +
 * wave x waves, where compute and memory are the kernel's times at the
 * device's peaks and waves = ceil(output tiles / sm_count). A GEMM with a
 * fitted tile bandwidth takes its compute side from the tile model instead
 * (costmodel/gemm_tiles.c: CTA tiles in waves over the SMs, split-K). A
 * device with measured tables can tell what each kernel class actually
 * reaches: this fits the parameters per (table kernel, dtype) to the
 * measured points, minimising the mean |predicted / measured - 1| (the
 * MAPE the roofline is judged by) by a coarse grid, then a pattern search.
 * Points are split
 * into a training and a held-out set by a hash of each point and a seed, so
 * every tool that names the same fraction and seed holds out the same
 * points, whichever other points it looks at.
 *
 * Naming follows latency/costmodel.h: `Create` / `Destroy` own.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_ROOFLINE_FIT_H
#define LATENCY_ROOFLINE_FIT_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The roofline's per-kernel parameters (device.csv's
/// compute_efficiency.<kernel>, memory_efficiency.<kernel>,
/// launch_us.<kernel>, wave_us.<kernel>, tile_bandwidth.<kernel>,
/// split_k_us.<kernel>).
typedef struct {
  double computeEfficiency; /* share of peak_flops reached, > 0        */
  double memoryEfficiency;  /* share of mem_bw reached, > 0            */
  double launchUs;          /* floor added to every kernel, us, >= 0   */
  double waveUs;            /* added per wave of tiles, us, >= 0       */
  double tileBandwidth;     /* GEMM tile loads, x mem_bw / sm_count per
                               SM; 0: no tile model                    */
  double splitUs;           /* fixed cost of a split-K GEMM, us, >= 0  */
} CmRooflineParams;

/// A GEMM as the tile model sees it (costmodel/gemm_tiles.c); all zero
/// when the kernel is no GEMM or the device has no sm_count.
typedef struct {
  double m, n, k, batch; /* the problem; batch >= 1                  */
  double sms;            /* sm_count                                 */
  double smFlopUs;       /* us per flop of one SM at peak            */
  double smLoadUs;       /* us per operand element one SM loads at
                            mem_bw / sm_count                        */
  double partialUs;      /* us per fp32 partial sum written and read
                            back at mem_bw (split-K)                 */
} CmRooflineGemm;

/// One measured kernel, as the roofline sees it.
typedef struct {
  double computeUs;    /* flops / peak, us; 0 when unknown      */
  double memoryUs;     /* bytes / mem_bw, us; 0 when unknown    */
  double waves;        /* ceil(tiles / sm_count); 0: unknown    */
  double measuredUs;   /* measured latency, us, > 0             */
  CmRooflineGemm gemm; /* m = 0: no tile model for this sample  */
} CmRooflineSample;

/// Returns the roofline time of `sample` under `params`, in us.
double cmRooflinePredict(const CmRooflineParams *params,
                         const CmRooflineSample *sample);

/// Returns the mean |predicted / measured - 1| of the `n` `samples` under
/// `params` (0 when n is 0).
double cmRooflineFitError(const CmRooflineParams *params,
                          const CmRooflineSample *samples, size_t n);

/// Which parameters a fit could tell from its samples.
typedef struct {
  bool compute, memory, wave; /* false: kept at the start value */
  bool tiles; /* the tile model (tile_bandwidth, split_k_us) won */
} CmRooflineFitted;

/// Returns the parameters that minimise cmRooflineFitError on `samples`,
/// searched from `start` (efficiencies in [0.005, 2], launch and wave in
/// [0, the median measured time]). A parameter the samples cannot tell (a
/// bound that never wins, no waves) or that does not lower the error keeps
/// its `start` value and its flag in `*fitted` (may be NULL) is false.
/// Samples with a GEMM shape are fitted twice, with and without the tile
/// model; the lower training error wins (`fitted->tiles`). Returns `start`
/// when n is 0.
CmRooflineParams cmRooflineFit(const CmRooflineSample *samples, size_t n,
                               CmRooflineParams start,
                               CmRooflineFitted *fitted);

/// Returns true when `point` is held out for `fraction` (0..1) and `seed`:
/// decided by a hash of its kernel, regime values, axes and the seed alone.
bool cmRooflineIsHeldOut(const CmPoint *point, double fraction, uint64_t seed);

/// The roofline of one (table kernel, dtype) group of a profile, before and
/// after a fit on its training points, on its held-out points.
typedef struct {
  char kernel[64]; /* table kernel, e.g. "attention"          */
  char dtype[32];  /* its dtype regime value, "" when none    */
  size_t numTrain, numHeldOut;
  CmRooflineParams before;    /* device.csv's values for the group       */
  CmRooflineParams after;     /* fitted (4 significant digits), or before */
  CmRooflineFitted fitted;    /* which of `after` differ from `before`   */
  double *measuredUs;         /* numHeldOut held-out measurements        */
  double *beforeUs, *afterUs; /* numHeldOut predictions each             */
} CmRooflineGroup;

/// How cmRooflineGroupsCreate picks and splits points.
typedef struct {
  double holdout; /* fraction held out (cmRooflineIsHeldOut)       */
  uint64_t seed;  /* of the split                                  */
  bool fit;       /* false: `after` = `before`, nothing is fitted  */
  bool (*keep)(void *context, const CmPoint *point); /* NULL: all    */
  void *context;                                     /* for keep     */
} CmRooflineSplit;

/// Groups the measured points of `profile` (loaded with its tables) that
/// `split->keep` keeps by table kernel and dtype, predicts the held-out ones
/// with device.csv's roofline and, when `split->fit`, fits each group on its
/// training points and predicts them again. Groups without a work formula
/// are skipped. `*groups` (`*numGroups` entries, in load order) is released
/// with cmRooflineGroupsDestroy. Returns CM_ERR_NOMEM on allocation failure.
/// Waves need device.csv's `sm_count`; without it no wave term is fitted.
CmStatus cmRooflineGroupsCreate(CmProfile profile, const CmRooflineSplit *split,
                                CmRooflineGroup **groups, size_t *numGroups,
                                CmError *err);

/// Releases `numGroups` groups and the array; NULL is a no-op.
void cmRooflineGroupsDestroy(CmRooflineGroup *groups, size_t numGroups);

/// Writes `profile`'s device.csv to `path` with the fitted parameters of
/// `groups`: each entry as it was, in order (a written key replaces its
/// value in place), then the new keys. Per kernel the group with the most
/// points writes `key.<kernel>`, the others `key.<kernel>.<dtype>`; each
/// also writes `fit_error.<kernel>[.<dtype>]` (held-out MAPE after the fit,
/// percent) and the profile gets `roofline_fit` = `provenance`. Written to a
/// temporary file and renamed. Returns CM_ERR_IO with the path on failure.
CmStatus cmRooflineWriteDevice(CmProfile profile, const CmRooflineGroup *groups,
                               size_t numGroups, const char *provenance,
                               const char *path, CmError *err);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_ROOFLINE_FIT_H */
