/*===- work.h - built-in flops and bytes of known kernels (internal) -------===*
 *
 * The roofline needs the work of a kernel. Queries may give it; otherwise
 * these formulas derive it from named axis and regime values.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_WORK_H
#define LATENCY_WORK_H

#include "latency/costmodel_util.h" /* CmValueFn */

#include <stdbool.h>

/// Returns true when `kernel` is `name` or a fused kernel rooted at it
/// ("conv2d+batchnorm+relu" is conv2d).
bool cmKernelIs(const char *kernel, const char *name);

/// Fills `*flops` and `*bytes` when negative from the formula of `kernel`
/// (or of its first '+' component) over values from `value`:
///   matmul, batch_matmul: 2 m n k batch; (mk + kn + mn) batch elements;
///   attention (causal prefill): 2 b s^2 h d; q, o at h heads and k, v at
///     kv_heads heads, b s d each;
///   attention_decode: 4 b h d kv_len; k, v cache (b kv_len kv_heads d) at
///     kv_dtype plus q, o (b h d);
///   any other kernel with `elements`: that many flops, and two inputs and
///     one output of that size in bytes.
/// Element sizes from `dtype` and `kvDtype` (4 bytes when unknown).
void cmBuiltinWork(const char *kernel, CmValueFn value, const void *context,
                   const char *dtype, const char *kvDtype, double *flops,
                   double *bytes);

/// Returns how many output tiles the usual GPU schedule of `kernel` splits
/// its work into, the units that fill the SMs in waves (the roofline's
/// `wave_us` term), or NAN for kernels without a formula:
///   matmul, batch_matmul: ceil(m / 64) ceil(n / 128) batch;
///   attention, cross_attention: batch heads ceil(seq / 64) (query tiles);
///   attention_decode: batch kv_heads (one block per cached head).
double cmBuiltinTiles(const char *kernel, CmValueFn value, const void *context);

#endif /* LATENCY_WORK_H */
