/*===- table_snapshot.h - parsed tables kept across processes --------------===*
 *
 * Parsing a measured table (libcsv, strtod, regime keys) is what every
 * single query and every pass run paid first: 30 ms for the 3.3 MB H100
 * GEMM table. A snapshot keeps what parsing produced, the rows of each
 * (kernel, regime) group in file order with their drop counts, in the
 * on-disk cache (cache_file.h), keyed by a hash of the table's bytes and of
 * the profile's policies; loading it gives the groups parsing would, so
 * answers are bit-identical. A changed table or policy.csv has another key
 * (the old snapshot is never read again); a corrupt one is noted and the
 * table parsed again.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TABLE_SNAPSHOT_H
#define LATENCY_TABLE_SNAPSHOT_H

#include "cache_file.h"
#include "profile.h"

typedef struct {
  char path[kCmCachePathSize]; /* the snapshot file                     */
  uint64_t contentHash;        /* hash of the table's bytes             */
  uint64_t contentSize;        /* its size                              */
  uint64_t policyHash;         /* hash of the profile's policies        */
} CmTableSnapshotKey;

/// The rows one table added to one group: rows [firstRow, numRows) of
/// `group`, and its drops since `firstDropped`.
typedef struct {
  CmGroup *group;      /* borrowed from the profile                */
  size_t firstRow;     /* group->numRows before the table          */
  size_t firstDropped; /* group->numDropped before the table       */
} CmTableRun;

/// Computes the snapshot key of the table at `path` under the policies of
/// `profile`; returns false when the cache is off or the file cannot be
/// read (the table is then parsed, without a snapshot).
bool cmTableSnapshotKeyOf(const struct CmProfileImpl *profile, const char *path,
                          CmTableSnapshotKey *key);

/// Adds the rows of the snapshot at `key` to `profile` as parsing the table
/// would (same groups in the same order, same rows, same drop counts) and
/// sets `*loaded`; leaves `profile` unchanged and `*loaded` false when there
/// is no usable snapshot, noting it when it is corrupt. Returns
/// CM_ERR_NOMEM when memory runs out while adding.
CmStatus cmTableSnapshotLoad(struct CmProfileImpl *profile,
                             const CmTableSnapshotKey *key, bool *loaded,
                             CmError *err);

/// Stores the `numRuns` runs a table's parse produced as the snapshot at
/// `key`, through a temporary file and a rename; failures only cost the
/// next process a parse.
void cmTableSnapshotStore(const CmTableSnapshotKey *key, const CmTableRun *runs,
                          size_t numRuns);

#endif /* LATENCY_TABLE_SNAPSHOT_H */
