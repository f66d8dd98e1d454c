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

#include "work.h"

#include <math.h>
#include <stdio.h>

int cmIntegerMacWindow(int index) {
  return index <= 0 ? 1 : index == 1 ? 9 : 49;
}

int cmIntegerMacChannels(int index) { return 1 << index; }

void cmIntegerMacKey(char *out, size_t size, const char *dtype, int window,
                     int channels) {
  if (!dtype || window < 0 || window >= CM_INTEGER_MAC_WINDOWS ||
      channels < 0 || channels >= CM_INTEGER_MAC_CHANNELS)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "integer_mac_ns.%s.w%d.c%d", dtype,
             cmIntegerMacWindow(window), cmIntegerMacChannels(channels));
}

/* The rate of row `window` at `channels`, NAN where the row has no point. */
static double rowAt(CmIntegerMacPointFn point, const void *context, int window,
                    double channels) {
  double x[CM_INTEGER_MAC_CHANNELS], y[CM_INTEGER_MAC_CHANNELS];
  size_t n = 0;
  for (int c = 0; c < CM_INTEGER_MAC_CHANNELS; c++) {
    double ns = point(context, window, c);
    if (ns > 0 && isfinite(ns)) {
      x[n] = cmIntegerMacChannels(c);
      y[n++] = ns;
    }
  }
  return cmLogLinearAt(x, y, n, channels);
}

double cmIntegerMacUs(const char *kernel, CmValueFn value, const void *context,
                      CmIntegerMacPointFn point, const void *pointContext,
                      double *ns) {
  *ns = NAN;
  if (!kernel || !value || !point || !cmKernelIs(kernel, "conv2d") ||
      value(context, "channels_last") != 1)
    return 0;
  double batch = value(context, "batch");
  batch = isnan(batch) ? 1 : batch;
  double cin = value(context, "cin"), window = value(context, "window");
  double outputs = batch * value(context, "hw") * value(context, "cout");
  if (!(cin > 0) || !(window > 0) || !(outputs > 0))
    return 0;
  double x[CM_INTEGER_MAC_WINDOWS], y[CM_INTEGER_MAC_WINDOWS];
  size_t n = 0;
  for (int w = 0; w < CM_INTEGER_MAC_WINDOWS; w++) {
    double rate = rowAt(point, pointContext, w, cin);
    if (rate > 0) {
      x[n] = cmIntegerMacWindow(w);
      y[n++] = rate;
    }
  }
  double rate = cmLogLinearAt(x, y, n, window);
  double us = outputs * cin * window * rate * 1e-3;
  if (!(rate > 0) || !(us > 0) || !isfinite(us))
    return 0;
  *ns = rate;
  return us;
}

void cmIntegerDepthwiseKey(char *out, size_t size, const char *dtype) {
  snprintf(out, size, "integer_mac_ns.%s.depthwise", dtype ? dtype : "");
}

double cmIntegerDepthwiseUs(const char *kernel, CmValueFn value,
                            const void *context, double ns) {
  if (!kernel || !value || !(ns > 0) || !isfinite(ns) ||
      !cmKernelIs(kernel, "depthwise_conv2d") ||
      value(context, "channels_last") != 1)
    return 0;
  double batch = value(context, "batch");
  batch = isnan(batch) ? 1 : batch;
  double us = batch * value(context, "hw") * value(context, "cout") *
              value(context, "window") * ns * 1e-3;
  return us > 0 && isfinite(us) ? us : 0;
}
