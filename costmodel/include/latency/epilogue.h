/*===- epilogue.h - the passes a fused kernel makes over its output -------===*
 *
 * Through `loops` every op of a fused kernel besides its anchor is a loop
 * nest of its own: a TOSA conv's batch norm, as torch-mlir spells it, is a
 * transpose back to NCHW, a sub, two muls, an add and a clamp, six passes
 * over the conv's output (and a transpose of its input before it). Timed
 * directly (a TOSA 1 x 1 conv with and without them) a pass cost 0.4 ns an
 * element at 14 x 14 x 64, 2.5 at 112 x 112 x 96 (fresh pages included),
 * where the conv itself ran 0.3-0.8 ns a multiply-add: at a short
 * reduction the epilogue is most of the kernel. latency-profile probes
 * what one more pass over a warm buffer costs at a few sizes
 * (epilogue_probe.c: 0.37-0.50 ns an element up to 1 MiB, 0.62-0.82
 * beyond, on the project's VM over two runs) and writes it as a curve over the
 *bytes of a pass, `epilogue_ns_per_element.b<bytes>` (16 KiB to 16 MiB, powers
 *of four); fresh pages, where a kernel's buffers get them, are its scratch,
 * priced apart. The pass sends each kernel's epilogue elements and passes
 * (passes/epilogue.c). The roofline adds the epilogue to a channels-last
 * conv priced at its own efficiency, which latency-profile fits with the
 * epilogue taken out of the measured time, so that a conv whose rows had
 * one pass (the sweep's) and one with six are each priced for their own.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_EPILOGUE_H
#define LATENCY_EPILOGUE_H

#include "latency/costmodel_util.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The curve's points: passes of 16 KiB, 64 KiB ... 16 MiB (a larger pass
/// reads the last point written).
enum { CM_EPILOGUE_POINTS = 6 };

/// Returns the bytes of a pass at point `index` (16 KiB x 4^index).
double cmEpilogueBytes(int index);

/// Writes the device.csv key of point `index` into `out`:
/// `epilogue_ns_per_element.b<bytes>`; "" for an index out of range.
void cmEpilogueKey(char *out, size_t size, int index);

/// Returns what `elements` output elements of `dtype` (4 bytes each when
/// it is NULL or unknown), over `passes` passes, cost in us at the curve's
/// rate for the bytes of one pass (cmCurveAt over the points `at` gives); 0
/// without elements, passes or a written point. How latency-profile takes
/// an epilogue out of a measured conv and the roofline puts it back.
double cmEpilogueUs(CmCurvePointFn at, const void *context, double elements,
                    double passes, const char *dtype);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_EPILOGUE_H */
