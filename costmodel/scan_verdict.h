/*===- scan_verdict.h - table scan verdicts kept across processes ----------===*
 *
 * Loading by need searches every table's bytes for the fields a row must
 * have to answer one of the queries (table_scan.h): on the shipped H100
 * profile that maps and searches 18 MB, ~5 ms of every pass run, to learn
 * what the last run learnt too. A verdict entry keeps the scan's answer for
 * one table under a key of the table's content (hash and size, as its
 * snapshot key has them, usually from its stat link without reading it)
 * and of the needs searched for; a verdict is the same function of the
 * same bytes and needs, so answers are bit-identical. A corrupt entry is
 * noted and the table scanned again.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_SCAN_VERDICT_H
#define LATENCY_SCAN_VERDICT_H

#include "table_snapshot.h"

/// Sets `*mayAnswer` as cmTableScanMayAnswer would for the table at `path`
/// (content `key`) and `needs`, from its verdict entry when the cache holds
/// a good one, else by scanning and then storing the verdict. `name`
/// prefixes messages.
CmStatus cmScanVerdictMayAnswer(const CmTableSnapshotKey *key, const char *path,
                                const char *name, const CmTableNeed *needs,
                                size_t numNeeds, bool *mayAnswer, CmError *err);

#endif /* LATENCY_SCAN_VERDICT_H */
