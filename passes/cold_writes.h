/*===- cold_writes.h - written columns a call finds cold (internal) -------===*/
#ifndef LATENCY_COLD_WRITES_H
#define LATENCY_COLD_WRITES_H

#include "graph.h"

/// Charges every estimated transpose of `graph` (the body of `func`) that
/// runs once a call and writes its output's column in L1 or L2 for finding
/// those lines gone since the previous call (latency/column_walk.h): its
/// written bytes at the profile's `cold_column_write_ns_per_byte` for the
/// bytes the call's other kernels move, into coldWriteBytes / coldWriteUs
/// and `us`; a remark on `func` says what was charged. A transpose whose
/// results' fresh pages are charged (resultPagesUs) is not: zeroing a
/// fresh page brings its lines in. Profiles without the keys (every
/// shipped GPU profile) charge nothing.
void latChargeColdWrites(CmProfile profile, LatGraph *graph,
                         MlirOperation func);

#endif /* LATENCY_COLD_WRITES_H */
