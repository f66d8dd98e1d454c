/*===- latency/transfer.h - a new device from a known one, public C API ---===*
 *
 * A device nobody has profiled gets tables transferred from a reference
 * profile that has them. Each reference time t splits into the reference's
 * launch floor and a rest that scales with the two devices' rooflines for
 * that row:
 *
 *   t' = floor' + max(0, t - floor) * (compute' + memory') / (compute +
 *                                                             memory)
 *
 * then a smooth correction fitted to measured target points multiplies it:
 * exp(c(x)), c a Gaussian-process (Matern 1/2) interpolant of the points'
 * log(measured / scaled) over log axes, zero with no points and decaying to
 * zero away from them; its length scales, and how much of the reference's
 * fine structure to keep, are chosen by leave-one-out on the points. A
 * measured point is reproduced exactly. The written profile is an ordinary
 * profile directory whose device.csv says `transferred_from`, so its table
 * answers carry source "transferred". Suggestions pick the shapes whose
 * measurement would help most (docs/profile-format.md, the loop).
 *
 * Naming follows latency/costmodel.h: `Create` / `Destroy` own.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRANSFER_H
#define LATENCY_TRANSFER_H

#include "latency/costmodel.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A transfer from a reference profile to a target device; owned by
/// whoever created it.
typedef struct {
  struct CmTransferImpl *ptr;
} CmTransfer;

/// Loads the reference profile directory `referenceDir` (with its tables)
/// and the target's `deviceCsv` (key,value specs, as a profile's
/// device.csv) into `*out`, to be released with cmTransferDestroy. On
/// failure returns the status with file:line in `err` and leaves `*out`
/// null.
CmStatus cmTransferCreate(const char *referenceDir, const char *deviceCsv,
                          CmTransfer *out, CmError *err);

/// Releases `transfer`; a null transfer is a no-op.
void cmTransferDestroy(CmTransfer transfer);

/// Names the kernel of the rows of point and candidate files that have no
/// `kernel` column (`kernel` is borrowed; NULL, the default, makes such a
/// file an error).
void cmTransferSetDefaultKernel(CmTransfer transfer, const char *kernel);

/// Reads measured target points from the CSV at `path` (profile table
/// format: `kernel`, the regime keys and axes of the reference's policy for
/// it, `latency_us`; other columns ignored). Rows with the same shape are
/// averaged; NaN, infinite, zero or negative latencies are dropped. Call
/// before the first fit; may be called more than once. Errors name
/// `path`:line.
CmStatus cmTransferAddPoints(CmTransfer transfer, const char *path,
                             CmError *err);

/// Returns how many distinct target points have been read.
size_t cmTransferGetNumPoints(CmTransfer transfer);

/// Fits the correction of every kernel and regime that has target points
/// (once; later calls do nothing). CM_ERR_NOMEM when out of memory.
CmStatus cmTransferFit(CmTransfer transfer, CmError *err);

/// One answer of the transfer for a shape, before any table is written.
typedef struct {
  double referenceUs; /* the reference profile's answer                  */
  double scaledUs;    /* floor + rest x roofline ratio, no correction    */
  double latencyUs;   /* scaled, corrected; a measured point as measured */
  CmBound bound;      /* which bound wins on the reference roofline      */
  double confidence;  /* calibrated chance of being within 10%           */
  int points;         /* target points of this kernel and regime         */
} CmTransferAnswer;

/// Answers `query` (a table kernel, its regime keys and axes) on the target
/// into `*out`, fitting first if needed: what a transferred table holds at
/// that shape (NaN latencies when the reference has no answer there).
/// CM_ERR_QUERY with `err` filled for a kernel without a policy or a missing
/// or malformed axis or regime key.
CmStatus cmTransferPredict(CmTransfer transfer, const CmQuery *query,
                           CmTransferAnswer *out, CmError *err);

/// Writes the target profile to directory `outDir` (created if needed; it
/// may be the directory of the target's device.csv): device.csv (the
/// target's entries as written, plus `transferred_from`, `transfer_points`
/// and `transfer_confidence`, also per kernel), fusion.csv (a copy of
/// `fusionCsv`, or of the reference's when NULL), the reference's
/// policy.csv, and tables/transferred_KERNEL.csv with every reference
/// point mapped and every target point as measured. Fits first if needed.
/// Refuses an `outDir` whose tables/ holds other tables.
CmStatus cmTransferWriteProfile(CmTransfer transfer, const char *outDir,
                                const char *fusionCsv, CmError *err);

/// Chooses `count` of the shapes in the CSV at `candidatesPath` (table
/// columns without `latency_us`; extra columns kept) whose measurement
/// would most reduce the expected transfer error, and prints them to `out`
/// as CSV with the candidates' header, most useful first: a greedy
/// weighted coverage of log-axis space, each shape weighted by how much the
/// reference's fine structure sways its transferred value. Never prints a
/// shape already read as a target point, nor one shape twice; `seed` fixes
/// the sample the coverage is measured on, so a seed names one answer.
CmStatus cmTransferSuggest(CmTransfer transfer, const char *candidatesPath,
                           size_t count, uint64_t seed, FILE *out,
                           CmError *err);

#ifdef __cplusplus
}
#endif

#endif /* LATENCY_TRANSFER_H */
