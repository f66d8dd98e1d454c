/*===- channels_last.h - a channels-last conv's efficiency by reduction ---===*
 *
 * Through `loops` a channels-last conv (TOSA's conv2d lowers to linalg's
 * conv_2d_nhwc_fhwc: loops n, oh, ow, f, kh, kw, c) accumulates each output
 * along one chain of cin x window multiply-adds over contiguous channels.
 * Its time per multiply-add is a function of that length and little else:
 * measured on ResNet-18's TOSA convs and the sweep around them (p37,
 * ns a multiply-add) 0.36 at 16-38, 0.50 at 64, 0.65 at 128, 0.74 at 256,
 * 0.79-0.82 from 576 to 4608, whatever the window, stride, plane or output
 * channels (a short chain overlaps the next one's; a long one waits on
 * its adds). latency-profile writes the compute efficiency at powers of
 * two of the reduction, `channels_last_efficiency.<anchor>.k<2^i>`,
 * interpolated from its measured shapes; the roofline reads it at a
 * query's reduction (cmReductionPerOutput), linear in ln k between the
 * points written, the edge one beyond them: never extrapolated. Read twice
 * (measured reductions to powers of two, then powers to the query), the
 * curve may miss a measured reduction's own median by a few percent where
 * the measured reductions are sparse (3% at 144 between points at 16 and
 * 144 alone).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CHANNELS_LAST_H
#define LATENCY_CHANNELS_LAST_H

#include "latency/costmodel_util.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The curve's points: reductions 1, 2, 4 ... 65536 (a longer reduction
/// reads the last point written).
enum { CM_CHANNELS_LAST_POINTS = 17 };

/// Returns the reduction of point `index` (2^index).
double cmChannelsLastReduction(int index);

/// Writes the device.csv key of point `index` for `anchor` (conv2d,
/// depthwise_conv2d) into `out`: `channels_last_efficiency.<anchor>.k<2^i>`;
/// "" for an index out of range.
void cmChannelsLastKey(char *out, size_t size, const char *anchor, int index);

/// Returns the channels-last compute efficiency at `reduction` multiply-adds
/// per output from the points `at` gives (cmCurveAt over the written ones);
/// NAN when none is written or the reduction is not > 0.
double cmChannelsLastEfficiency(CmCurvePointFn at, const void *context,
                                double reduction);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_CHANNELS_LAST_H */
