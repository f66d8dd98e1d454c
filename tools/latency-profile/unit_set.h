/*===- unit_set.h - distinct cut-outs, and an edge measured in one child ---===*
 *
 * Fusion edges share their sides: the same conv feeds the same ReLU in
 * every block of a ResNet, and the conv alone is one side of several
 * edges. A unit is one cut-out module, keyed by its text (two cut-outs of
 * the same ops at the same shapes print the same), so an edge is measured
 * once however often it recurs. An edge's three units are measured
 * together, in one child.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_UNIT_SET_H
#define LATENCY_PROFILE_UNIT_SET_H

#include "measure.h"
#include "mlir_host.h"

#include <stdbool.h>
#include <stddef.h>

/// One distinct cut-out.
typedef struct {
  char *text;      /* the module's text: the key        */
  char file[1100]; /* where it is written               */
  char type[200];  /* what it holds, for the crash hook */
} LpUnit;

typedef struct {
  LpUnit *items;
  size_t count, capacity;
  char dir[1000];  /* where the cut-outs are written */
  size_t numEdges; /* edge modules written           */
} LpUnitSet;

/// Writes into `path` the name the next cut-out should be written to.
void lpUnitSetNextPath(const LpUnitSet *set, char *path, size_t size);

/// Adds the cut-out of kernel type `type` written at `path` (named by
/// lpUnitSetNextPath): returns the index of a unit with the same text (and
/// removes `path`), else of the new unit; -1 when it cannot be read or memory
/// runs out.
int lpUnitSetAdd(LpUnitSet *set, const char *path, const char *type);

/// A fusion edge as three units: each side alone and both as one kernel.
typedef struct {
  int producer, consumer, fused; /* unit indices */
} LpEdgeUnits;

/// What an edge measured: the sides and the fused kernel (median us), the
/// gain (the median over repetitions of producer + consumer - fused, timed
/// interleaved) and the noise margin: twice the gain's standard error, at
/// least 0.5% of the two sides.
typedef struct {
  bool ok;
  double producerUs, consumerUs, fusedUs, gainUs, noiseUs;
  char error[700]; /* why not, when !ok */
} LpEdgeTiming;

/// Measures the three units of `edge` in one child, interleaved (one
/// module holding them as @producer, @consumer and @fused, written beside
/// the units as edge-NNNN.mlir through `host`): the host's drift during
/// the measurement weighs on the three alike. False with the reason in
/// `out->error`; the child's log is kept only then.
bool lpMeasureEdge(LpHost *host, LpUnitSet *set, const LpEdgeUnits *edge,
                   const LpMeasureConfig *config, LpEdgeTiming *out);

/// Releases what `set` owns.
void lpUnitSetFree(LpUnitSet *set);

#endif /* LATENCY_PROFILE_UNIT_SET_H */
