/*===- converted_chain.c - half-precision products converted one by one ---===*
 *
 * The floor latency-profile's probe puts under a half-precision matmul's or
 * conv's compute side (latency/converted_chain.h): its multiply-adds at
 * the rate of its element and accumulator types. Only matmuls and dense
 * convs: a depthwise conv's chain is its window (9 taps in the models
 * measured, where the trial's f16 ShuffleNetV2 unit ran its depthwise conv
 * as fast as its f32 twin), and attention's two products were not
 * measured in half precision. The rest of such a dtype's arithmetic is
 * f32's: where the profile has the rates, its peak is f32's
 * (cmRooflinePeak).
 *
 *===----------------------------------------------------------------------===*/
#include "latency/converted_chain.h"

#include "roofline.h"

#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>

void cmConvertedChainKey(char *out, size_t size, const char *dtype,
                         int accBits) {
  snprintf(out, size, "converted_mac_ns.%s.acc%d", dtype ? dtype : "", accBits);
}

int cmConvertedAccBits(double accBits, const char *dtype) {
  /* only the two the probe times; anything else (an f64 graph costed at
     `precision=f16`, a hand-made query's acc_bits=inf) is the dtype's own */
  if (accBits == 16 || accBits == 32)
    return (int)accBits;
  return dtype ? (int)(8 * cmDtypeGetSize(dtype)) : 0;
}

double cmConvertedChainUs(const char *kernel, CmValueFn value,
                          const void *context, double ns) {
  /* a depthwise conv's chain is its window: not this one (above) */
  if (!kernel || !value || !(ns > 0) || !isfinite(ns) ||
      cmKernelIs(kernel, "depthwise_conv2d") ||
      !(cmReductionPerOutput(kernel, value, context) >
        CM_CONVERTED_UNROLLED_REDUCTION))
    return 0;
  double us = cmMultiplyAdds(kernel, value, context) * ns * 1e-3;
  return us > 0 && isfinite(us) ? us : 0;
}

bool cmRooflineConvertsDtype(CmProfile profile, const char *dtype) {
  /* the half types only: a hand-made f32 key must not floor f32 products */
  if (!cmDtypeIsHalfFloat(dtype))
    return false;
  char key[96];
  for (int bits = 16; bits <= 32; bits += 16) {
    cmConvertedChainKey(key, sizeof key, dtype, bits);
    if (cmProfileGetDeviceNumber(profile, key, 0) > 0)
      return true;
  }
  return false;
}

double cmRooflineConvertedChainUs(CmProfile profile, const char *kernel,
                                  const char *dtype, CmValueFn value,
                                  const void *context, double *ns) {
  *ns = NAN;
  /* the half types only: a hand-made f32 key must not floor f32 products
     (the key looked up below is the only one that matters here) */
  if (!kernel || !value || !cmDtypeIsHalfFloat(dtype))
    return 0;
  /* the accumulator the query names (a TOSA conv's acc_type, a linalg
     product's result), else the inputs' own type */
  char key[96];
  cmConvertedChainKey(key, sizeof key, dtype,
                      cmConvertedAccBits(value(context, "acc_bits"), dtype));
  double rate = cmProfileGetDeviceNumber(profile, key, NAN);
  double us = cmConvertedChainUs(kernel, value, context, rate);
  if (us > 0)
    *ns = rate;
  return us;
}
