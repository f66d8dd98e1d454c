/*===- unit_set.h - cut-outs measured once, however often they recur ------===*
 *
 * Fusion edges share their sides: the same conv feeds the same ReLU in
 * every block of a ResNet, and the conv alone is one side of several
 * edges. A unit is one cut-out module, keyed by its text (two cut-outs of
 * the same ops at the same shapes print the same), measured at most once.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_UNIT_SET_H
#define LATENCY_PROFILE_UNIT_SET_H

#include "measure.h"

#include <stdbool.h>
#include <stddef.h>

/// One distinct cut-out and its measurement.
typedef struct {
  char *text;           /* the module's text: the key          */
  char file[1100];      /* where it is written                 */
  char type[200];       /* what it holds, for the crash hook   */
  bool measured;        /* `result` holds the outcome          */
  LpMeasurement result; /* time, or why not                    */
} LpUnit;

typedef struct {
  LpUnit *items;
  size_t count, capacity;
  char dir[1000]; /* where the cut-outs are written */
} LpUnitSet;

/// Writes into `path` the name the next cut-out should be written to.
void lpUnitSetNextPath(const LpUnitSet *set, char *path, size_t size);

/// Adds the cut-out of kernel type `type` written at `path` (named by
/// lpUnitSetNextPath): returns the index of a unit with the same text (and
/// removes `path`), else of the new unit; -1 when it cannot be read or memory
/// runs out.
int lpUnitSetAdd(LpUnitSet *set, const char *path, const char *type);

/// Measures unit `i` unless it was; its child's stderr goes to a log
/// beside it, kept only when the measurement failed. Returns whether the
/// unit has a time.
bool lpUnitMeasure(LpUnitSet *set, int i, const LpMeasureConfig *config);

/// A fusion edge as three units: each side alone and both as one kernel.
typedef struct {
  int producer, consumer, fused; /* unit indices */
} LpEdgeUnits;

/// What an edge measured: the sides and the fused kernel (median us), and
/// the noise margin: twice the combined spread of the three (their CVs),
/// at least 1% of the two sides (separate children differ by about that).
typedef struct {
  bool ok;
  double producerUs, consumerUs, fusedUs, noiseUs;
  char error[700]; /* which unit failed and why, when !ok */
} LpEdgeTiming;

/// Measures the three units of `edge` (those not measured yet) into
/// `out`; false with the first failure in `out->error`.
bool lpMeasureEdge(LpUnitSet *set, const LpEdgeUnits *edge,
                   const LpMeasureConfig *config, LpEdgeTiming *out);

/// Releases what `set` owns.
void lpUnitSetFree(LpUnitSet *set);

#endif /* LATENCY_PROFILE_UNIT_SET_H */
