/*===- integer_mac.h - integer convs whose reduction LLVM vectorizes -------===*
 *
 * An integer sum may be reordered, a float one may not: through `loops` a
 * channels-last int8 conv (TOSA's conv2d: linalg's conv_2d_nhwc_fhwc,
 * loops n, oh, ow, f, kh, kw, c) has its innermost loop over contiguous
 * channels of input and weight vectorized by LLVM's `-O3` once it is long
 * enough, where f32's stays one add after another. latency-profile's grid
 * on the project's VM (LLVM 22, `loops`, linalg conv_2d_nhwc_fhwc_q at 28 x
 * 28 output pixels, i8 inputs, i32 accumulator, as many outputs as inputs
 * and at least 32), ns a multiply-add:
 *
 *   input channels      1     4     8    16    32    64   128   512
 *   1 x 1 window     0.73  0.068 0.059 0.215 0.209 0.041 0.032 0.026
 *   3 x 3 window     0.22  0.21  0.50  0.49  0.48  0.058 0.041 0.028
 *   7 x 7 window     0.49  0.49  0.49  0.47  0.47  0.074   -     -
 *   f32, for scale   0.60 (96, 1 x 1) and 0.78 (64, 3 x 3)
 *
 * so a TFLite-style int8 MobileNet priced with f32's channels-last
 * efficiencies came out 9x slow. The rate turns on the channel count (the
 * loop's length: below the vector loop's step it all runs in the scalar
 * remainder) and on the window (a loop restarted per tap), not on the
 * plane or the output channels. latency-profile probes it on a grid
 * (`integer_mac_ns.<dtype>.w<window>.c<channels>`: windows 1, 9 and 49,
 * channels 1 to 512 in powers of two); the roofline takes an integer
 * channels-last conv2d's multiply-adds at the grid's rate as its compute
 * side (costmodel/integer_mac.c). A depthwise conv's multiply-adds run at
 * one rate of their own (0.066 ns at 32 to 512 channels, stride 1 or 2,
 * `integer_mac_ns.<dtype>.depthwise`); matmuls (whose weight column is
 * strided: 0.34-0.57 ns) keep f32's laws.
 * A padded TOSA conv lowers to a tensor.pad of its input, whose copy into
 * the padded buffer `loops` leaves to MLIR's runtime memrefCopy, element
 * by element: 2.5-3.4 ns an element whatever the type, more than an int8
 * depthwise conv's nine multiply-adds by five times (a 32 x 32 x 128
 * stride-1 one ran 500 us in place: 350 of them its pad). latency-profile
 * probes it (`pad_copy_ns_per_element`) and the roofline adds an integer
 * conv's pad_elements at that rate. (An f32 conv's efficiencies were
 * fitted with its pad inside; it is not added there.)
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_INTEGER_MAC_H
#define LATENCY_INTEGER_MAC_H

#include "latency/costmodel_util.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The grid: windows 1, 9 and 49 (1 x 1, 3 x 3, 7 x 7), input channels 1,
/// 2 ... 512 (a stem conv has 3); the 7 x 7 row up to
/// CM_INTEGER_MAC_WIDE_CHANNELS (wider ones are not in models, and would
/// take seconds a call).
enum {
  CM_INTEGER_MAC_WINDOWS = 3,
  CM_INTEGER_MAC_CHANNELS = 10,
  CM_INTEGER_MAC_WIDE_CHANNELS = 64
};

/// Returns the window (kh x kw) of grid row `index`: 1, 9, 49.
int cmIntegerMacWindow(int index);

/// Returns the input channels of grid column `index`: 2^index (0 out of
/// range).
int cmIntegerMacChannels(int index);

/// Writes the device.csv key of grid point (`windowIndex`, `channelIndex`)
/// for `dtype` into `out`: `integer_mac_ns.<dtype>.w<window>.c<channels>`;
/// "" for an index out of range.
void cmIntegerMacKey(char *out, size_t size, const char *dtype, int windowIndex,
                     int channelIndex);

/// Where a grid's points are read: ns a multiply-add at grid point
/// (`windowIndex`, `channelIndex`), NAN or 0 where none was measured.
typedef double (*CmIntegerMacPointFn)(const void *context, int windowIndex,
                                      int channelIndex);

/// Returns the time, us, of an integer channels-last conv's multiply-adds
/// (cmMultiplyAdds, read through `value`), and their rate in `*ns`: a
/// conv2d's at the grid's rate (linear in the logarithms of its input
/// channels, then its window, between the points measured, the edge one
/// beyond them), a depthwise conv's at `depthwiseNs`; 0 (and NAN) for
/// another kernel, a channels-first conv, a shape `value` does not give or
/// no rate for it. The caller checks the dtype.
double cmIntegerMacUs(const char *kernel, CmValueFn value, const void *context,
                      CmIntegerMacPointFn point, const void *pointContext,
                      double depthwiseNs, double *ns);

/// Writes the device.csv key of an integer depthwise conv's rate for
/// `dtype` into `out`: `integer_mac_ns.<dtype>.depthwise`.
void cmIntegerDepthwiseKey(char *out, size_t size, const char *dtype);

/// The device.csv key of the time per element of a pad's copy into its
/// padded buffer (the query's pad_elements), ns.
#define CM_PAD_COPY_KEY "pad_copy_ns_per_element"

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_INTEGER_MAC_H */
