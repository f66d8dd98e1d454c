/*===- latency/costmodel_util.h - conveniences on top of the cost model ---===*
 *
 * What programs built on the cost model need besides estimates: finding a
 * profile by name, loading one with rows held out, visiting its measured
 * points, printing an answer as JSON, and reading or writing CSV the way the
 * profile loader does (libcsv stays private to the library). The core API
 * (latency/costmodel.h) does not depend on anything here.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_COSTMODEL_UTIL_H
#define LATENCY_COSTMODEL_UTIL_H

#include "latency/column_walk.h"
#include "latency/costmodel.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*--- Profiles ---*/

/// Returns the profile's data caches from device.csv (`l1d_bytes`,
/// `l1d_ways`, `l2_bytes`, `l2_ways`, `cache_line_bytes`); all 0 when it
/// has no L1 (a GPU's profile stops at the first lookup).
CmCacheGeometry cmProfileGetCacheGeometry(CmProfile profile);

/// Resolves `nameOrPath` to a profile directory in `out` (`size` bytes): a
/// path to a directory is taken as is; a bare name is looked up among the
/// shipped profiles (the source tree's, then the installed ones). NULL or ""
/// means the default: $MLIR_LATENCY_PROFILE when set, else "h100-sxm".
/// Returns false with the places tried in `err` when nothing matches.
bool cmProfileFindDir(const char *nameOrPath, char *out, size_t size,
                      CmError *err);

/// One measured point of a profile, as seen by cmProfileForEachPoint and the
/// filter of cmProfileCreateFromDirFiltered. Borrowed for the call only.
typedef struct {
  const char *kernel;                      /* kernel type of its table       */
  int numRegime;                           /* regime keys of the policy      */
  const char *regimeNames[CM_MAX_REGIME];  /* policy order                */
  const char *regimeValues[CM_MAX_REGIME]; /* canonical text              */
  int numAxes;                             /* axes of the policy             */
  const char *axisNames[CM_MAX_AXES];      /* policy order                   */
  double axes[CM_MAX_AXES];                /* raw values                     */
  double latencyUs;                        /* measured (a mean once merged)  */
} CmPoint;

/// Loads `dir` as cmProfileCreateFromDir does, keeping only the table rows
/// for which `keep(context, row)` returns true (rows with identical axes
/// see identical views, so a held-out point goes with all its duplicates).
CmStatus
cmProfileCreateFromDirFiltered(const char *dir,
                               bool (*keep)(void *context, const CmPoint *row),
                               void *context, CmProfile *out, CmError *err);

/// Calls `visit(context, point)` for every distinct measured point of
/// `profile` (duplicates merged into their mean), group by group in load
/// order; returns false when out of memory.
bool cmProfileForEachPoint(CmProfile profile,
                           void (*visit)(void *context, const CmPoint *point),
                           void *context);

/*--- JSON ---*/

/// Writes `text` (NULL: "") to `out` as a JSON string literal, escaping
/// quotes, backslashes and control characters.
void cmJsonPrintString(FILE *out, const char *text);

/// Writes `estimate` as one JSON object (latency_us, source, confidence,
/// method, dim, axes, boundary, corners, lines, candidates, reason, ...) to
/// `out`, numbers with round-trip precision.
void cmEstimatePrintJson(const CmEstimate *estimate, FILE *out);

/*--- CSV, as the profile loader reads and writes it ---*/

enum { CM_CSV_MAX_FIELDS = 256 }; /* more columns than this is an error */

/// Receives one record: `fields[0..numFields)` are NUL-terminated and valid
/// only during the call; `line` is the 1-based line where the record ends.
/// Returning anything but CM_OK (with `err` filled) stops the reader.
typedef CmStatus (*CmCsvRecordFn)(void *context, char **fields,
                                  size_t numFields, size_t line, CmError *err);

/// Reads every record of `stream`, calling `onRecord` for each non-empty
/// one; `name` prefixes error messages. Returns CM_OK, the callback's status,
/// or CM_ERR_FORMAT for malformed CSV (e.g. an unterminated quote).
CmStatus cmCsvReadStream(FILE *stream, const char *name, CmCsvRecordFn onRecord,
                         void *context, CmError *err);

/// Opens `path` and reads it as cmCsvReadStream does; CM_ERR_IO when the file
/// cannot be opened.
CmStatus cmCsvReadFile(const char *path, const char *name,
                       CmCsvRecordFn onRecord, void *context, CmError *err);

/// Writes `text` to `out` as one CSV field, quoted when needed.
void cmCsvWriteField(FILE *out, const char *text);

/// Writes the canonical text of regime value `value` of key `key` into `out`
/// (numbers as %.17g, dtype aliases as MLIR spellings: bfloat16 -> bf16), as
/// the loader keys its tables.
void cmCanonicalRegimeValue(const char *key, const char *value, char *out,
                            size_t size);

/// Copies the file `from` to `to` (read whole, then written), unless both
/// name the same file.
CmStatus cmCopyFile(const char *from, const char *to, CmError *err);

/*--- Kernel names ---*/

/// Writes the anchor of kernel type `kernel` (its first '+'-component, the
/// op the rest is fused onto: conv2d of conv2d+batchnorm+relu) into `out`;
/// false, with `out` empty, when it does not fit in `size` bytes.
bool cmKernelAnchor(const char *kernel, char *out, size_t size);

/// True when kernel types `a` and `b` have one anchor (conv2d+relu and
/// conv2d+batchnorm, or a family conv2d+* and conv2d).
bool cmKernelSameAnchor(const char *a, const char *b);

enum { CM_KERNEL_FAMILY_SIZE = 128 }; /* a family's name, "+*" included */

/// Writes the family of kernel type `kernel` into `out`: its anchor and
/// "+*" (conv2d+* for conv2d, conv2d+relu and conv2d+batchnorm+add+relu),
/// the scope of roofline parameters fitted over every type of one anchor;
/// false, with `out` empty, when it does not fit in `size` bytes.
bool cmKernelFamily(const char *kernel, char *out, size_t size);

/*--- Work ---*/

/// Fills `*flops` and `*bytes` with the work the roofline prices `query`
/// with: the query's own where it gives them (>= 0), else the built-in
/// formula of its kernel over its fields (matmul 2 m n k; attention, the
/// causal prefill's 2 b s^2 h d; ...), else -1. latency-profile fits its
/// efficiencies over the same work the cost model will divide by.
void cmQueryWork(const CmQuery *query, double *flops, double *bytes);

/*--- Fitted laws ---*/

/// Looks up the number called `name` (an axis or regime value) or NAN.
typedef double (*CmValueFn)(const void *context, const char *name);

/// A law fitted over x in [`lo`, `hi`] with its values at the centre
/// sqrt(lo x hi), at `x`: (x / centre) ^ `slope`, x clamped to the range
/// (never extrapolated); 1 without a slope, a range or an x > 0. How the
/// cost model applies device.csv's efficiency slopes and the host
/// roofline's copy and L2 walk laws, and how latency-profile, which fits
/// them, applies them too.
double cmClampedLawFactor(double x, double slope, double lo, double hi);

/// The multiply-adds that accumulate into one output of kernel `kernel`
/// (its fields through `value`): a matmul's or batch_matmul's k, a conv's
/// cin x window (a grouped conv's window is kh x kw over its groups,
/// passes/describe.c), a depthwise conv's window; NAN for other kernels or
/// unknown fields.
double cmReductionPerOutput(const char *kernel, CmValueFn value,
                            const void *context);

/// The multiply-adds of kernel `kernel` (its fields through `value`): its
/// outputs (a matmul's or batch_matmul's batch x m x n, a conv2d's or
/// depthwise conv's batch x hw x cout; batch 1 when absent) times
/// cmReductionPerOutput; NAN for other kernels or unknown fields.
double cmMultiplyAdds(const char *kernel, CmValueFn value, const void *context);

/// The efficiency along a reduction of `k` multiply-adds per output:
/// (1 + k0 / k) / (1 + k0 / centre), k clamped to [`lo`, `hi`], centre
/// sqrt(lo x hi); 1 without a k0 > 0, a range or a k > 0. Through `loops`
/// each output's reduction is a chain of dependent adds: short chains
/// overlap in the core's window, long ones wait on each add, so the time per
/// multiply-add rises with k and levels off (3 x 3 convs: 0.67 ns at 16
/// channels, 0.80 at 64, 0.84 at 512 on the project's VM), which no power
/// law of cin and window follows (docs/profiling.md, "The reduction law").
double cmReductionLawFactor(double k, double k0, double lo, double hi);

/// Returns the value at `at` of the piecewise-linear curve through the `n`
/// points (`x` strictly ascending and > 0, `y` finite), linear in ln x between
/// them, the first or last value beyond them; NAN when `n` is 0 or `at` is
/// not > 0.
double cmLogLinearAt(const double *x, const double *y, size_t n, double at);

/// A device.csv curve's point `index`; NAN (or <= 0) when not written.
typedef double (*CmCurvePointFn)(const void *context, int index);

/// Returns the value at `at` of the curve of `points` points, point `index`
/// at x = `xOf(index)` (ascending, > 0) with the value `point` gives:
/// cmLogLinearAt over the written ones (finite and > 0), so never
/// extrapolated; NAN when none is written or `at` is not > 0. How the cost
/// model reads the curves latency-profile writes at fixed points
/// (latency/channels_last.h, latency/epilogue.h).
double cmCurveAt(CmCurvePointFn point, const void *context, int points,
                 double (*xOf)(int index), double at);

/// Multiplies the efficiencies a roofline uses by an efficiency slope's
/// factor `scale` on the side a kernel has an efficiency of its own
/// (`ownCompute`, `ownMemory`: the side its slope was fitted on), on both
/// when it has neither; the other side is the device's, which the slope
/// does not describe. How the cost model applies device.csv's slopes and
/// how latency-profile's weight-copy fit replays it.
void cmScaleOwnEfficiencies(bool ownCompute, bool ownMemory, double scale,
                            double *compute, double *memory);

/*--- Errors, numbers, text ---*/

/// Formats a message into `err` (NULL is allowed) and returns `status`.
CmStatus cmErrorSet(CmError *err, CmStatus status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Parses all of `text` as a double into `*out` (overflow gives +-inf, "nan"
/// gives NaN: callers judge); returns false for empty text or trailing
/// garbage.
bool cmParseNumber(const char *text, double *out);

/// Returns the value of field `name` of `query` (borrowed), or NULL.
const char *cmQueryFindField(const CmQuery *query, const char *name);

/// Returns a malloc'ed copy of `text`, or NULL when out of memory.
char *cmStrDup(const char *text);

/// Writes "`dir`/`name`" into `out` (`size` bytes). A path that does not fit
/// is an error (CM_ERR_IO, "path too long"), never a shorter path.
CmStatus cmPathJoin(char *out, size_t size, const char *dir, const char *name,
                    CmError *err);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_COSTMODEL_UTIL_H */
