/*===- epilogue.c - the passes a fused kernel makes over its output -------===*
 *
 * The rate is per element, read at the bytes of an average pass: the
 * kernel's passes are over its output and, for a transpose of its input,
 * over that; a pass that fits L2 re-reads what the previous one wrote
 * there, a larger one streams.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/epilogue.h"
#include "latency/dtype.h"

#include <math.h>
#include <stdio.h>

double cmEpilogueBytes(int index) { return ldexp(16384, 2 * index); }

void cmEpilogueKey(char *out, size_t size, int index) {
  if (index < 0 || index >= CM_EPILOGUE_POINTS)
    snprintf(out, size, "%s", "");
  else
    snprintf(out, size, "epilogue_ns_per_element.b%.0f",
             cmEpilogueBytes(index));
}

double cmEpilogueUs(CmCurvePointFn at, const void *context, double elements,
                    double passes, const char *dtype) {
  if (!(elements > 0) || !(passes >= 1) || !isfinite(elements))
    return 0;
  double elementBytes = dtype ? cmDtypeGetSize(dtype) : 0;
  if (!(elementBytes > 0))
    elementBytes = 4;
  double ns = cmCurveAt(at, context, CM_EPILOGUE_POINTS, cmEpilogueBytes,
                        elements / passes * elementBytes);
  return ns > 0 ? elements * ns * 1e-3 : 0;
}
