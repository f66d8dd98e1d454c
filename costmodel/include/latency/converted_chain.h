/*===- converted_chain.h - half-precision products converted one by one ---===*
 *
 * A CPU without half-precision arithmetic (x86 short of AVX512-FP16) runs
 * an f16 or bf16 multiply-add through `loops` by converting: each operand
 * to f32, the product and, with a half accumulator, the sum back and
 * forth. Along a reduction those conversions sit on one chain, and its
 * rate is set by the element and accumulator types, not by the shape:
 * measured on the project's VM (LLVM 22, `loops`, 1 x 1 channels-last
 * convs at 28 x 28 and matmuls), ns a multiply-add:
 *
 *   inputs, accumulator   reduction 40-768
 *   f16, f16              5.55-5.60
 *   f16, f32              2.30-2.75
 *   bf16, bf16            3.0-3.9
 *   bf16, f32             0.76
 *   f32, f32              0.49-0.80 (1.22 the matmul)
 *
 * so a half-precision conv priced with f32's efficiencies at the half
 * type's matmul peak came out 4-7x fast (the trial's f16 ShuffleNetV2
 * unit at -79%). Up to CM_CONVERTED_UNROLLED_REDUCTION multiply-adds per
 * output LLVM unrolls the reduction whole and the conversions leave the
 * chain (0.27-0.51 ns at 16-36). latency-profile probes the rate per
 * element and accumulator type (`converted_mac_ns.<dtype>.acc<bits>`);
 * the roofline takes a longer matmul's or conv's multiply-adds at that
 * rate as a floor under its compute side (costmodel/converted_chain.c).
 * Off the chain the conversions cost little: relu, add and exp over 56 x 56
 * x 144 elements ran 0.71-1.33x their f32 time in f16 and bf16, not the
 * 2.2x and 1.5x of the half types' matmul probes; so where the profile has
 * these rates, the roofline's peak for such a dtype is f32's, and
 * latency-profile fits its efficiencies against that peak too.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CONVERTED_CHAIN_H
#define LATENCY_CONVERTED_CHAIN_H

#include "latency/costmodel_util.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The longest reduction per output (k, or channels x window) that LLVM
/// 22's `-O3` unrolled whole in the half-precision 1 x 1 convs measured:
/// 36 channels ran 0.47 ns a multiply-add with an f16 accumulator, 40
/// ran 2.30 with an f32 one and 44 ran 5.58 with an f16 one. (8 and 12
/// channels were not unrolled and ran 5.6 with an f16 accumulator; such
/// small products are left to the roofline.)
enum { CM_CONVERTED_UNROLLED_REDUCTION = 36 };

/// Writes the device.csv key of the rate for `dtype` inputs accumulated in
/// `accBits`-bit floats into `out`: `converted_mac_ns.<dtype>.acc<bits>`.
void cmConvertedChainKey(char *out, size_t size, const char *dtype,
                         int accBits);

/// Returns the accumulator width a rate is looked up at: `accBits` (a
/// query's acc_bits, NAN when it has none) when it is 16 or 32, else
/// `dtype`'s own width.
int cmConvertedAccBits(double accBits, const char *dtype);

/// Returns the time, us, of a matmul's, batch_matmul's or dense conv's
/// multiply-adds at `ns` each (its outputs x its reduction per output, read
/// through `value`); 0 for a reduction of at most
/// CM_CONVERTED_UNROLLED_REDUCTION, another kernel, a shape `value` does
/// not give or no rate. How the roofline floors a half product and
/// latency-profile leaves it out of its fits.
double cmConvertedChainUs(const char *kernel, CmValueFn value,
                          const void *context, double ns);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_CONVERTED_CHAIN_H */
