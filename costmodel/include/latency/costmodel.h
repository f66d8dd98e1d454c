/*===- latency/costmodel.h - kernel latency cost model, public C API -------===*
 *
 * The cost model answers "how long does this kernel take on this device?"
 * from a profile directory of measured tables, in a fixed order of tiers:
 *
 *   exact lookup -> 1D / 2D / 3D interpolation -> roofline default.
 *
 * It knows nothing of MLIR. Naming follows the MLIR C API: handles are
 * one-field structs passed by value; `Create` / `Destroy` own, `Get` borrows.
 * A loaded profile is immutable except for indexes built lazily, under a
 * lock, on first use; any number of threads may query one profile at once
 * and get identical answers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_COSTMODEL_H
#define LATENCY_COSTMODEL_H

#include "latency/dtype.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  CM_MAX_AXES = 8,        /* axes of one kernel policy               */
  CM_MAX_REGIME = 8,      /* regime keys of one kernel policy        */
  CM_MAX_CORNERS = 4,     /* vertices of a 3D simplex                */
  CM_ROOFLINE_FIELDS = 11 /* fields only the roofline reads: CmPrepared */
};

/*---------------------------------------------------------------- status --*/

typedef enum {
  CM_OK = 0,     /* success                                          */
  CM_ERR_IO,     /* a file could not be opened or read               */
  CM_ERR_FORMAT, /* malformed CSV, missing column, unparsable number */
  CM_ERR_QUERY,  /* the query itself is malformed                    */
  CM_ERR_NOMEM   /* an allocation failed                             */
} CmStatus;

/// Holds the text of the last error, e.g.
/// "tables/matmul.csv:17: column 'm': 'x12' is not a number".
typedef struct {
  char message[512]; /* NUL-terminated; empty when no error */
} CmError;

/*--------------------------------------------------------------- profile --*/

/// A loaded device profile; owned by whoever created it.
typedef struct {
  struct CmProfileImpl *ptr;
} CmProfile;

/// Loads the profile in directory `dir` (device.csv, fusion.csv, optional
/// policy.csv, tables/NAME.csv) into `*out`, which the caller must release with
/// cmProfileDestroy. On failure returns the status, fills `err` (may be NULL)
/// with file:line and the reason, and leaves `*out` null.
CmStatus cmProfileCreateFromDir(const char *dir, CmProfile *out, CmError *err);

/// Releases `profile` and everything it owns; a null profile is a no-op.
void cmProfileDestroy(CmProfile profile);

/// Returns true when `profile` holds no profile.
static inline bool cmProfileIsNull(CmProfile profile) { return !profile.ptr; }

/// Returns the device name from device.csv (borrowed, lives as long as
/// `profile`); "" when device.csv names none.
const char *cmProfileGetDeviceName(CmProfile profile);

/// Returns the profile directory it was loaded from (borrowed).
const char *cmProfileGetDir(CmProfile profile);

/// Returns device.csv's numeric `key`, or `fallback` when it is absent.
double cmProfileGetDeviceNumber(CmProfile profile, const char *key,
                                double fallback);

/// Returns true when fusion.csv allows an op of class `consumer` to join the
/// kernel of its producer of class `producer`.
bool cmProfileAllowsFusion(CmProfile profile, const char *producer,
                           const char *consumer);

/// Returns how many (producer, consumer) rules fusion.csv holds.
size_t cmProfileGetNumFusionRules(CmProfile profile);

/// Returns fused / apart as measured on the device for an op of class
/// `consumer` fused with its producer of class `producer` (1 - fusion.csv's
/// `gain_pct` / 100, written by `latency-profile --fusion-rules`), whether
/// or not that pair is a rule; NaN when the profile has no measurement of
/// the pair.
double cmProfileGetFusionRatio(CmProfile profile, const char *producer,
                               const char *consumer);

/// Replaces the fusion rules of `profile` (and their measured ratios) with
/// those of the fusion.csv at `path`; on failure returns the status, fills
/// `err` and keeps the old rules.
CmStatus cmProfileLoadFusionRules(CmProfile profile, const char *path,
                                  CmError *err);

/// Returns how many table rows were dropped at load time because their
/// latency was NaN, infinite, zero or negative.
size_t cmProfileGetNumDroppedRows(CmProfile profile);

/// Returns how many valid table rows the profile holds.
size_t cmProfileGetNumRows(CmProfile profile);

/*----------------------------------------------------------------- query --*/

/// One `name=value` pair of a query: an axis (a number), a regime key
/// (compared as text; numbers are compared by value) or ignored metadata.
typedef struct {
  const char *name;  /* borrowed */
  const char *value; /* borrowed */
} CmField;

/// A question to the cost model. Which fields are axes and which are regime
/// keys is the profile's policy for `kernel` (built-in: matmul has axes
/// m n k and regime key dtype). `flops` and `bytes` feed the roofline; a
/// negative value asks for the built-in formula of the kernel, if any.
typedef struct {
  const char *kernel;    /* kernel type, e.g. "matmul" or "matmul+add" */
  const CmField *fields; /* regime keys and axes                       */
  size_t numFields;      /* entries in fields                          */
  double flops;          /* work of the kernel; < 0: derive            */
  double bytes;          /* bytes crossing the kernel; < 0: derive     */
} CmQuery;

/// Tier switches. Defaults (cmOptionsDefault) enable everything.
typedef struct {
  bool interpolation; /* false = rollback: exact, then roofline */
} CmOptions;

/// Returns the default options: interpolation on.
static inline CmOptions cmOptionsDefault(void) {
  CmOptions options = {true};
  return options;
}

/*--------------------------------------------------- loading by query --*/

/// Loads `dir` as cmProfileCreateFromDir does but reads none of its tables:
/// call cmProfileLoadTablesFor once before the first estimate. For tools
/// that learn which queries they will ask only later (the passes).
CmStatus cmProfileCreateFromDirWithoutTables(const char *dir, CmProfile *out,
                                             CmError *err);

/// Reads the tables of `profile` that could answer any of the `numQueries`
/// `queries` (NULL: all tables). A table is skipped unparsed when its bytes
/// cannot hold a matching row: one with the query's table kernel (its own or
/// its anchor's) as a field and a cell for each element-type regime value the
/// query gives. Answers to those queries are exactly those of a full load.
/// Call once, before any estimate; a second call is CM_ERR_QUERY.
CmStatus cmProfileLoadTablesFor(CmProfile profile, const CmQuery *queries,
                                size_t numQueries, CmError *err);

/// Copies into `notes` (at most `size` bytes, one per line) what the on-disk
/// cache noted since the last call, "cache entry PATH is corrupt (WHY);
/// rebuilt" for each damaged entry it refused and rebuilt, and clears them;
/// returns false when there is nothing to say. Process-wide, thread-safe.
bool cmCacheTakeNotes(char *notes, size_t size);

/*-------------------------------------------------------------- estimate --*/

typedef enum {
  CM_SOURCE_MEASURED,     /* exact hit in a measured table         */
  CM_SOURCE_INTERPOLATED, /* between measured neighbours           */
  CM_SOURCE_TRANSFERRED,  /* a table transferred from another device */
  CM_SOURCE_ROOFLINE,     /* analytic default from device.csv      */
  CM_SOURCE_UNKNOWN       /* no tier could answer (reason says why) */
} CmSource;

typedef enum {
  CM_METHOD_NONE,
  CM_METHOD_EXACT,       /* measured value, duplicates averaged    */
  CM_METHOD_LINEAR_1D,   /* one bracketing line                    */
  CM_METHOD_WEIGHTED_1D, /* several lines, cross-validated weights */
  CM_METHOD_DELAUNAY_2D, /* barycentric in a Delaunay triangle     */
  CM_METHOD_DELAUNAY_3D, /* barycentric in a Delaunay tetrahedron  */
  CM_METHOD_ROOFLINE     /* max(compute, memory) + launch          */
} CmMethod;

typedef enum { CM_BOUND_NONE, CM_BOUND_COMPUTE, CM_BOUND_MEMORY } CmBound;

/// One 1D candidate line considered by the interpolation rule.
typedef struct {
  int axis;        /* index into the kernel's axes               */
  double lo, hi;   /* bracketing measured axis values (raw)      */
  double value;    /* the line's interpolated latency, us        */
  double checkErr; /* mean |ln(pred/measured)| on check points   */
  double weight;   /* normalised weight in the combination       */
  int numChecks;   /* check points that contributed to checkErr  */
} CmLine;

/// One measured point used by an interpolation (a simplex corner or a line
/// end point).
typedef struct {
  double axes[CM_MAX_AXES]; /* raw axis values, in policy order */
  double latencyUs;         /* measured (mean of duplicates)    */
  double weight;            /* barycentric / linear weight      */
} CmCorner;

/// Candidate counts of the group that answered.
typedef struct {
  size_t raw;        /* rows read for this kernel and regime        */
  size_t dropped;    /* rows dropped (NaN, inf, <= 0 latency)       */
  size_t aggregated; /* duplicate rows merged into a mean           */
  size_t points;     /* distinct measured points after aggregation  */
  size_t filtered;   /* points considered by the answering tier     */
} CmCounts;

/// An answer with its provenance. Strings are borrowed from the profile or
/// static; the struct itself is plain data the caller may copy.
typedef struct {
  double latencyUs;     /* the answer, microseconds                   */
  CmSource source;      /* which tier answered                        */
  CmMethod method;      /* how                                        */
  double confidence;    /* 0..1, display only: never chooses a tier   */
  double errorEstimate; /* local check error behind confidence, or -1 */
  int dim;              /* interpolation dimension, 0 when none       */
  int numAxes;          /* axes of the kernel policy                  */
  const char *axisNames[CM_MAX_AXES]; /* policy order                   */
  double axisValues[CM_MAX_AXES];     /* the query's values, raw        */
  int interpAxes[3];   /* axes interpolated over (dim entries)       */
  double lo[3], hi[3]; /* boundary per interpolated axis (raw)       */
  int numCorners;      /* entries in corners                         */
  CmCorner corners[CM_MAX_CORNERS];
  int numLines; /* 1D candidate lines considered              */
  CmLine lines[CM_MAX_AXES];
  CmCounts counts;         /* of the regime group, when one matched      */
  const char *kernel;      /* kernel type asked for                      */
  const char *tableKernel; /* kernel whose table answered, or NULL      */
  bool viaAnchor;          /* a fused kernel used its anchor's table     */
  CmBound bound;           /* roofline: which bound won                  */
  double flops, bytes;     /* roofline inputs (derived or given), or -1  */
  double computeUs, memoryUs, launchUs; /* roofline parts               */
  const char *mapping;         /* "implicit-gemm" when a conv was answered as
                                  its implicit GEMM from matmul tables, or NULL */
  const char *transferredFrom; /* transferred: reference device, or NULL */
  int transferPoints;          /* transferred: target points of the kernel */
  char reason[512];            /* why tiers were skipped; "" when none       */
} CmEstimate;

/// Estimates the latency of `query` on `profile` with `options` into `*out`.
/// Returns CM_OK whenever an answer (possibly CM_SOURCE_UNKNOWN, with the
/// reason) was written; CM_ERR_QUERY with `err` filled for a malformed query
/// (an axis of its table that is not a number; a kernel without a table
/// reads its family's fields, if any, as numbers or not given). Never
/// allocates once the indexes the query
/// needs are built; safe to call from many threads on one profile.
CmStatus cmProfileEstimate(CmProfile profile, const CmQuery *query,
                           const CmOptions *options, CmEstimate *out,
                           CmError *err);

/// A query whose kernel and regime were resolved once: an autotuning loop
/// prepares "matmul, dtype=bf16" and then asks for many (m, n, k) as
/// numbers, skipping all text handling. Plain data owned by the caller; its
/// pointers borrow from the profile and the query's kernel string.
typedef struct {
  CmProfile profile;                   /* borrowed                          */
  const char *kernel;                  /* borrowed from the query           */
  const void *policy;                  /* internal: answering table policy  */
  const void *shapePolicy;             /* internal: the fields the roofline
                                          reads: policy's, else a family's  */
  void *group;                         /* internal: measured points or NULL */
  bool viaAnchor;                      /* fused kernel uses its anchor      */
  int numAxes;                         /* axes expected (shapePolicy's)     */
  const char *axisNames[CM_MAX_AXES];  /* borrowed from the profile         */
  char dtype[24];                      /* canonical element type or ""      */
  char kvDtype[24];                    /* kv_dtype regime value, or ""      */
  double regimeNumbers[CM_MAX_REGIME]; /* numeric regime values, or NaN     */
  const char *transferredFrom;         /* reference of transferred tables,
                                          or NULL                           */
  double transferConfidence;           /* their calibrated confidence       */
  int transferPoints;                  /* target points behind them         */
  char reason[192];                    /* why no table matched, or ""       */
  double rooflineFields[CM_ROOFLINE_FIELDS]; /* weight_transposed,
    scratch_bytes, channels_last, a transpose's walk_k, walk_stride,
    walk_writes and elements, epilogue_elements and epilogue_passes, a
    product's acc_bits and pad_elements, whatever the policy, or NaN */
} CmPrepared;

/// Resolves the kernel and regime keys of `query` (its axis fields are
/// ignored) into `*out`. A kernel or regime without measurements still
/// prepares (its answers come from the roofline and `reason` says why);
/// CM_ERR_QUERY with `err` filled when the query names no kernel.
CmStatus cmProfilePrepare(CmProfile profile, const CmQuery *query,
                          CmPrepared *out, CmError *err);

/// Estimates `prepared` at `axes` (`prepared->numAxes` raw values in the
/// order of `axisNames`; NaN = not given; NULL: none given) with `flops` and
/// `bytes` as in CmQuery, into
/// `*out`: the same answer cmProfileEstimate gives. Never allocates once the
/// indexes it needs are built; thread-safe.
CmStatus cmPreparedEstimate(const CmPrepared *prepared, const double *axes,
                            double flops, double bytes,
                            const CmOptions *options, CmEstimate *out,
                            CmError *err);

/// Returns the lower-case name of `source`: "measured", "interpolated",
/// "transferred", "roofline" or "unknown".
const char *cmSourceGetName(CmSource source);

/// Returns the name of `method`, e.g. "exact", "weighted-1d", "delaunay-3d".
const char *cmMethodGetName(CmMethod method);

/// Returns the name of `bound`: "compute", "memory" or "none".
const char *cmBoundGetName(CmBound bound);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_COSTMODEL_H */
