/*===- transfer_impl.h - the parts of a transfer (internal) ----------------===*
 *
 * A transfer holds the reference profile (tables loaded), the target as a
 * profile without tables (its device.csv is all the roofline needs), one
 * CmTransferGroup per (table kernel, regime) seen in the reference or in
 * the target points, and the target points themselves. transfer_map.c
 * scales one shape, transfer_smooth.c smooths the reference, transfer_fit.c
 * fits the correction, transfer.c ties them together; transfer_shapes.c
 * reads point and candidate CSVs, transfer_write.c writes the profile,
 * transfer_suggest.c picks shapes to measure.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRANSFER_IMPL_H
#define LATENCY_TRANSFER_IMPL_H

#include "latency/transfer.h"

#include "group.h"
#include "policy.h"

enum {
  CM_TRANSFER_BASELINES = 5, /* raw, then four smoothed mixes (transfer.c) */
  CM_TRANSFER_SMOOTHERS = 2, /* bandwidths 0.1 and 0.3 in log units       */
  CM_TRANSFER_MIN_FIT = 4    /* fewer points: no leave-one-out choice     */
};

/// Chance of being within 10% shown for a transferred table with no target
/// point: the share measured on the development pair (docs/accuracy.md).
#define CM_TRANSFER_PRIOR_CONFIDENCE 0.45

/// One shape read from a CSV: a target point or a candidate.
typedef struct {
  int group;                /* index into the transfer's groups      */
  double axes[CM_MAX_AXES]; /* raw values, policy order              */
  double latencyUs;         /* measured (mean of duplicates) or NaN  */
  char **fields;            /* candidates: the row as read, or NULL  */
} CmShape;

/// Shapes read from one or more CSV files.
typedef struct {
  CmShape *items;
  size_t count, capacity;
  char **header;    /* candidates: the header to echo, or NULL */
  size_t numFields; /* entries in header and in each fields     */
  size_t dropped;   /* rows dropped for a bad latency           */
} CmShapeList;

/// The smoothed reference of one group: a Gaussian-weighted mean of
/// log(t / roofline) over reference points near a shape in log axes.
typedef struct CmSmoother CmSmoother;

/// The fitted correction of one group: log(measured / baseline) at the
/// points, interpolated by a Matern-1/2 Gaussian process with zero mean.
typedef struct {
  int dim;                   /* axes                                    */
  int baseline;              /* which baseline it corrects              */
  double scale[CM_MAX_AXES]; /* length scale per axis, log units        */
  size_t n;                  /* points                                  */
  double *features;          /* n x dim log axes                        */
  double *weights;           /* n: K^-1 r                               */
  double looWithin10;        /* leave-one-out share within 10%, or NaN  */
} CmCorrection;

/// One table kernel and regime.
typedef struct {
  const CmPolicy *policy;              /* the reference's, borrowed      */
  char *regimeKey;                     /* canonical, 0x1f-joined         */
  char regime[CM_MAX_REGIME][64];      /* canonical values, split        */
  double regimeNumbers[CM_MAX_REGIME]; /* numeric values or NaN          */
  CmPrepared prep;                     /* the query on the reference     */
  CmGroup *ref;                        /* reference points or NULL       */
  CmSmoother *smoothers[CM_TRANSFER_SMOOTHERS]; /* built on first use    */
  CmCorrection correction;                      /* when numPoints > 0     */
  size_t numPoints; /* target points of this group                        */
} CmTransferGroup;

struct CmTransferImpl {
  CmProfile reference; /* with tables                         */
  CmProfile target;    /* device.csv only                     */
  CmTransferGroup *groups;
  size_t numGroups, capacity;
  CmShapeList points;        /* sorted by group and axes, merged    */
  const char *defaultKernel; /* rows of files without `kernel` */
  bool fitted;               /* cmTransferFit ran                   */
};

/// How one shape scales from the reference to the target.
typedef struct {
  double refRoofUs;   /* reference compute + memory time, 0 if unknown */
  double ratio;       /* target / reference roofline, for the rest     */
  double refFloor;    /* reference launch floor, us                    */
  double targetFloor; /* target launch floor, us                       */
  CmBound bound;      /* the bound that wins on the reference          */
} CmRowScale;

/*--- transfer.c ---*/

/// Returns the index of the group of `policy` and `regimeKey` in `t`,
/// adding it when absent; -1 when out of memory.
int cmTransferGroupIndex(struct CmTransferImpl *t, const CmPolicy *policy,
                         const char *regimeKey);

/// Writes log axis features of `axes` (log of max(x, 1/2)) to `out`.
void cmTransferFeatures(int dim, const double *axes, double *out);

/// Returns the reference's answer for `axes` in group `g` (NaN if none).
double cmTransferReferenceAt(const CmTransferGroup *g, const double *axes);

/// Returns baseline `b` of group `g` of `t` at `axes` (reference time
/// `refUs`, scale `s`): 0 is the scaled reference; the others scale a
/// geometric mix of it and the smoothed reference (built on first use).
/// NaN when it cannot be formed.
double cmTransferBaseline(const struct CmTransferImpl *t, CmTransferGroup *g,
                          int b, const double *axes, double refUs,
                          const CmRowScale *s);

/// Returns the calibrated confidence of group `g`: its leave-one-out share
/// within 10%, else CM_TRANSFER_PRIOR_CONFIDENCE.
double cmTransferGroupConfidence(const CmTransferGroup *g);

/// Returns the transferred value of group `g` at `axes`: the corrected
/// baseline, or a target point's measured value on a point.
double cmTransferValueAt(struct CmTransferImpl *t, int group,
                         const double *axes, double refUs);

/// Returns the target point of `group` at exactly `axes`, or -1.
long cmTransferFindPoint(const struct CmTransferImpl *t, int group,
                         const double *axes);

/*--- transfer_map.c ---*/

/// Fills `*out` with how group `g` scales at `axes` from the reference to
/// the target profile of `t`.
void cmTransferRowScale(const struct CmTransferImpl *t,
                        const CmTransferGroup *g, const double *axes,
                        CmRowScale *out);

/// Returns floor' + max(0, referenceUs - floor) x ratio.
double cmTransferApplyScale(const CmRowScale *s, double referenceUs);

/*--- transfer_smooth.c ---*/

/// Builds the smoother of group `g` with bandwidth `h`; NULL when out of
/// memory or when `g` has no reference points.
CmSmoother *cmSmootherCreate(const struct CmTransferImpl *t,
                             const CmTransferGroup *g, double h);

/// Releases `s`; NULL is a no-op.
void cmSmootherDestroy(CmSmoother *s);

/// Returns the smoothed reference time at log features `f` with the
/// reference roofline time `roofUs` there (0: unknown); NaN when no
/// reference point is within three bandwidths.
double cmSmootherAt(const CmSmoother *s, const double *f, double roofUs);

/*--- transfer_fit.c ---*/

/// Fits `c` to `n` points with log features `features` (n x dim) and
/// residuals `residuals` (CM_TRANSFER_BASELINES x n, NaN where a baseline
/// is unavailable): chooses the baseline and the length scales by
/// leave-one-out, or takes baseline 0 and unit scales below
/// CM_TRANSFER_MIN_FIT points. Returns false when out of memory.
bool cmCorrectionFit(CmCorrection *c, int dim, size_t n, const double *features,
                     const double *residuals);

/// Returns the log correction of `c` at log features `f`.
double cmCorrectionAt(const CmCorrection *c, const double *f);

/// Releases what `c` owns.
void cmCorrectionFree(CmCorrection *c);

/*--- transfer_shapes.c ---*/

/// Appends the shapes of the CSV at `path` to `list`, resolving each row's
/// kernel with the reference's policies into a group of `t`; with
/// `needLatency` the `latency_us` column is required, else rows keep their
/// fields for echoing. Errors name `path`:line.
CmStatus cmShapesRead(struct CmTransferImpl *t, const char *path,
                      bool needLatency, CmShapeList *list, CmError *err);

/// Sorts the points `list` (no fields) by group and axes and merges rows of
/// one shape into their mean latency.
void cmShapesMerge(CmShapeList *list);

/// Compares shapes by group, then axes (`dim` = CM_MAX_AXES, unused axes
/// are zero).
int cmShapeCompare(const CmShape *a, const CmShape *b);

/// Releases what `list` owns.
void cmShapeListFree(CmShapeList *list);

/*--- transfer_ranks.c ---*/

/// Axis values as ranks among a set of shapes, per group and axis.
typedef struct CmRankSpace CmRankSpace;

/// Builds the rank space of `n` `shapes` (groups of `t`); NULL when out of
/// memory.
CmRankSpace *cmRankSpaceCreate(const struct CmTransferImpl *t,
                               const CmShape *shapes, size_t n);

/// Releases `r`; NULL is a no-op.
void cmRankSpaceDestroy(CmRankSpace *r);

/// Writes the ranks in [0, 1] of `axes` among `group`'s shapes to `out`
/// (CM_MAX_AXES entries; ties rank at their middle).
void cmRankSpaceMap(const CmRankSpace *r, int group, const double *axes,
                    double *out);

/// Returns how many shapes `group` has; `*varying` gets how many of its axes
/// take more than one value.
size_t cmRankSpaceGroupSize(const CmRankSpace *r, int group, int *varying);

/*--- transfer_write.c ---*/

#endif /* LATENCY_TRANSFER_IMPL_H */
