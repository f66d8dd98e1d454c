/*===- report.h - JSON / Markdown / CSV reports and Chrome traces ---------===*/
#ifndef LATENCY_REPORT_H
#define LATENCY_REPORT_H

#include "fusion.h"

#include <stdio.h>

/// One annotated function: its kernels and totals by source.
typedef struct {
  MlirOperation func;    /* the func.func                   */
  char *name;            /* symbol name, whole (owned)      */
  LatGraph graph;        /* owned                           */
  double totalUs;        /* sum of kernel estimates         */
  double measuredUs;     /* part answered by measurements   */
  double interpolatedUs; /* part answered by interpolation  */
  double transferredUs;  /* part answered by tables transferred from
                           another device (latency-transfer)          */
  double rooflineUs;     /* part answered by the roofline   */
  double confidenceUs;   /* sum of us x confidence          */
  bool greedy;           /* fusion=greedy: `partition` is filled      */
  LatPartitionComparison partition;
} LatFunctionReport;

/// Writes the report of `functions` to `path` as JSON, Markdown or CSV by
/// extension ("-" = Markdown on stdout); returns false with `error` filled.
bool latWriteReport(const char *path, const char *profile, const char *device,
                    const LatFunctionReport *functions, size_t count,
                    char *error, size_t errorSize);

/// Prints to stdout, per function of `module`, its partitions under the
/// fusion rules of `profile` and of `compare` (named `compareName`):
/// kernel counts, totals priced by `profile`'s tables (loaded) and the
/// kernel types only one has (compare_rules.c). False when out of memory.
bool latCompareRules(MlirOperation module, CmProfile profile, CmProfile compare,
                     const char *compareName);

/// Writes a Chrome trace event JSON file of the kernels end to end in
/// program order, one track per function; false with `error` filled.
bool latWriteTrace(const char *path, const LatFunctionReport *functions,
                   size_t count, char *error, size_t errorSize);

#endif /* LATENCY_REPORT_H */
