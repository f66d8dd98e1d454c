/*===- integer_mac.c - integer convs whose reduction LLVM vectorizes -------===*
 *
 * The grid is read channels first: at each of its windows, the rate at
 * the query's input channels (linear in ln c between the channel points
 * measured), then across the windows at the query's window (linear in
 * ln window between 1, 9 and 49, the edge one beyond): a 7 x 7 stem conv
 * over three channels reads the 7 x 7 row between 2 and 4 channels (it
 * runs 0.48 ns a multiply-add where the 3 x 3 row has 0.21).
 *
 *===----------------------------------------------------------------------===*/
#include "latency/integer_mac.h"

#include "roofline.h"
#include "work.h"

#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>

int cmIntegerMacWindow(int index) {
  return index <= 0 ? 1 : index == 1 ? 9 : 49;
}

int cmIntegerMacChannels(int index) {
  return index >= 0 && index < CM_INTEGER_MAC_CHANNELS ? 1 << index : 0;
}

void cmIntegerMacKey(char *out, size_t size, const char *dtype, int windowIndex,
                     int channelIndex) {
  if (!dtype || windowIndex < 0 || windowIndex >= CM_INTEGER_MAC_WINDOWS ||
      channelIndex < 0 || channelIndex >= CM_INTEGER_MAC_CHANNELS)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "integer_mac_ns.%s.w%d.c%d", dtype,
             cmIntegerMacWindow(windowIndex),
             cmIntegerMacChannels(channelIndex));
}

/* The rate of row `windowIndex` at `channels`, NAN where the row has no
 * point. */
static double rowAt(CmIntegerMacPointFn point, const void *context,
                    int windowIndex, double channels) {
  double x[CM_INTEGER_MAC_CHANNELS], y[CM_INTEGER_MAC_CHANNELS];
  size_t n = 0;
  for (int c = 0; c < CM_INTEGER_MAC_CHANNELS; c++) {
    double ns = point(context, windowIndex, c);
    if (ns > 0 && isfinite(ns)) {
      x[n] = cmIntegerMacChannels(c);
      y[n++] = ns;
    }
  }
  return cmLogLinearAt(x, y, n, channels);
}

/* The grid's rate at `channels` input channels and a `window` of taps,
 * NAN where it has no point. */
static double gridAt(CmIntegerMacPointFn point, const void *context,
                     double channels, double window) {
  if (!point || !(channels > 0) || !(window > 0))
    return NAN;
  double x[CM_INTEGER_MAC_WINDOWS], y[CM_INTEGER_MAC_WINDOWS];
  size_t n = 0;
  for (int w = 0; w < CM_INTEGER_MAC_WINDOWS; w++) {
    double rate = rowAt(point, context, w, channels);
    if (rate > 0) {
      x[n] = cmIntegerMacWindow(w);
      y[n++] = rate;
    }
  }
  return cmLogLinearAt(x, y, n, window);
}

double cmIntegerMacUs(const char *kernel, CmValueFn value, const void *context,
                      CmIntegerMacPointFn point, const void *pointContext,
                      double depthwiseNs, double *ns) {
  *ns = NAN;
  if (!kernel || !value || value(context, "channels_last") != 1)
    return 0;
  double rate = cmKernelIs(kernel, "depthwise_conv2d") ? depthwiseNs
                : cmKernelIs(kernel, "conv2d")
                    ? gridAt(point, pointContext, value(context, "cin"),
                             value(context, "window"))
                    : NAN;
  double us = cmMultiplyAdds(kernel, value, context) * rate * 1e-3;
  if (!(rate > 0) || !(us > 0) || !isfinite(us))
    return 0;
  *ns = rate;
  return us;
}

void cmIntegerDepthwiseKey(char *out, size_t size, const char *dtype) {
  snprintf(out, size, "integer_mac_ns.%s.depthwise", dtype ? dtype : "");
}

/* Where an integer grid's points are read: `dtype`'s keys in `profile`. */
typedef struct {
  CmProfile profile;
  const char *dtype;
} IntegerGridContext;

/* Point (`windowIndex`, `channelIndex`) of IntegerGridContext `context`'s grid
 * (CmIntegerMacPointFn). */
static double integerGridPoint(const void *context, int windowIndex,
                               int channelIndex) {
  const IntegerGridContext *c = context;
  char key[128];
  cmIntegerMacKey(key, sizeof key, c->dtype, windowIndex, channelIndex);
  return cmProfileGetDeviceNumber(c->profile, key, NAN);
}

double cmRooflineIntegerMacUs(CmProfile profile, const char *kernel,
                              const char *dtype, CmValueFn value,
                              const void *context, double *ns) {
  *ns = NAN;
  if (!cmDtypeIsInteger(dtype))
    return 0;
  char key[96];
  cmIntegerDepthwiseKey(key, sizeof key, dtype);
  IntegerGridContext grid = {profile, dtype};
  return cmIntegerMacUs(kernel, value, context, integerGridPoint, &grid,
                        cmProfileGetDeviceNumber(profile, key, NAN), ns);
}

double cmRooflinePadCopyUs(CmProfile profile, CmValueFn value,
                           const void *context) {
  double elements = value ? value(context, "pad_elements") : NAN;
  double rate = cmProfileGetDeviceNumber(profile, CM_PAD_COPY_KEY, 0);
  double us = elements * rate * 1e-3;
  return elements > 0 && rate > 0 && isfinite(us) ? us : 0;
}
