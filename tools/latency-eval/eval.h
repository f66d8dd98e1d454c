/*===- eval.h - latency-eval's parts: point selection, reports (internal) -===*
 *
 * latency-eval holds measured points out of a profile and predicts them.
 * eval_select.c picks the points (random, listed, off-grid), eval_report.c
 * prints what the predictions came to, main.c drives both.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_EVAL_H
#define LATENCY_EVAL_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include "eval_metrics.h"

#include <stdbool.h>
#include <stdint.h>

/// A measured point that may be held out.
typedef struct {
  char key[256]; /* kernel|regime|axes, identifies a point     */
  CmPoint point; /* names borrow from the full profile; kernel */
                 /* and regime values point into this struct:  */
                 /* call evalRepoint() after moving it         */
  char kernel[64];
  char regime[CM_MAX_REGIME][48];
} Candidate;

/// The measured points that pass the command line's filters.
typedef struct {
  const char *kernel;  /* --kernel filter or NULL */
  CmField filters[16]; /* regime filters          */
  size_t numFilters;
  Candidate *items;
  size_t count, capacity;
} Selection;

/// Keys of the held-out points, sorted (for evalKeepRow).
typedef struct {
  char **keys; /* sorted keys of held-out points */
  size_t count;
} HeldOut;

/// One prediction: the full model's answer and the roofline's alone.
typedef struct {
  const Candidate *c;
  double predicted, roofline;
  CmEstimate e;
} Sample;

/// Points the candidate's strings at its own copies again (after a move).
void evalRepoint(Candidate *c);

/// The fields of a query for a measured point: regime values as they are,
/// axes as round-trip text (kept in `text`).
typedef struct {
  CmField fields[CM_MAX_REGIME + CM_MAX_AXES];
  char text[CM_MAX_AXES][32];
} PointQuery;

/// Returns the query asking for point `p` (no flops or bytes given); its
/// fields live in `storage`, which must outlive it.
CmQuery evalPointQuery(const CmPoint *p, PointQuery *storage);

/// Writes the identifying key of `p` (kernel|regime values|axes) to `out`.
void evalPointKey(const CmPoint *p, char *out, size_t size);

/// Returns true when `p` passes the kernel and regime filters of `s`.
bool evalPassesFilters(const Selection *s, const CmPoint *p);

/// Adds `p` to the Selection `selection` when it passes its filters (a
/// visitor for cmProfileForEachPoint).
void evalCollect(void *selection, const CmPoint *p);

/// Shuffles `items` with a splitmix64 stream seeded by `seed`.
void evalShuffle(Candidate *items, size_t n, uint64_t seed);

/// Compares two `char *` keys for qsort and bsearch.
int evalCompareKeys(const void *a, const void *b);

/// Returns true unless `row`'s key is among the HeldOut `heldOut` (a filter
/// for cmProfileCreateFromDirFiltered).
bool evalKeepRow(void *heldOut, const CmPoint *row);

/// Moves the points whose axes are rows of the CSV at `path` to the front;
/// returns their count, or (size_t)-1 after printing an error.
size_t evalSelectListed(Selection *sel, const char *path);

/// The off-grid protocol over the comma-separated `axes`: picks `values`
/// interior values per axis with `seed`; every point at one of them is held
/// out (`*keys`, malloc'ed, `*numKeys`), the points at picked values of all
/// axes move to the front and their count is returned ((size_t)-1 after an
/// error); `names` receives "axis=v1,v2 ..." for the report.
size_t evalSelectOffGrid(Selection *sel, const char *axes, size_t values,
                         uint64_t seed, char ***keys, size_t *numKeys,
                         char *names, size_t namesSize);

/// Prints the summary per tier, the confidence bands and (unless
/// `summaryOnly`) one row per sample, as JSON or Markdown.
void evalPrintReport(bool json, const char *protocol, const Sample *samples,
                     size_t n, bool summaryOnly);

/// Runs `latency-eval --transfer ...` (eval_transfer.c): the accuracy of a
/// profile transferred from a reference on a measured target table; returns
/// the exit status.
int evalTransferMain(int argc, char **argv);

/// Runs `latency-eval --roofline-only | --fit-roofline ...`
/// (eval_roofline.c): the roofline tier alone on held-out points, before and
/// after a fit to the others; returns the exit status.
int evalRooflineMain(int argc, char **argv);

#endif /* LATENCY_EVAL_H */
