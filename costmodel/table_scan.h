/*===- table_scan.h - can a table answer some query, without parsing it ----===*
 *
 * The pass asks for a handful of kernels; the shipped tables hold 170k rows.
 * Before parsing a table, its bytes are searched for the fields a row must
 * have to answer one of the queries. The answer errs only towards "maybe":
 * a table said to hold no such row really holds none, so loading by need
 * gives the same estimates as loading everything.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TABLE_SCAN_H
#define LATENCY_TABLE_SCAN_H

#include "profile.h"

#include <stdbool.h>

/// Sets `*mayAnswer` to whether the file at `path` may hold a row for one of
/// `needs`: such a row has the need's table kernel as a whole CSV field and a
/// cell for each of its element types (canonical spelling exactly, or an
/// alias in any case). `name` prefixes messages.
CmStatus cmTableScanMayAnswer(const char *path, const char *name,
                              const CmTableNeed *needs, size_t numNeeds,
                              bool *mayAnswer, CmError *err);

#endif /* LATENCY_TABLE_SCAN_H */
