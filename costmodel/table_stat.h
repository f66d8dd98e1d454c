/*===- table_stat.h - a table's content hash, remembered by its stat
 *--------===*
 *
 * A table snapshot is keyed by a hash of the table's bytes (table_snapshot.h);
 * hashing the 11.6 MB of the bf16 GEMM and attention tables cost a warm pass
 * run ~2 ms. A stat link remembers that hash under the file's identity and
 * change stamps: device, inode, size, mtime and ctime in nanoseconds. The
 * assumption: a file whose five values are all unchanged has unchanged
 * bytes, as every write moves mtime and ctime (and ctime cannot be set by
 * users). Stamps are as fine as the kernel's clock tick or the file
 * system's granularity, so a link is written only for a file last changed
 * kSettleSeconds before: an edit after that moves a stamp. When anything
 * differs or the link is missing or corrupt, the bytes are hashed, as
 * before.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TABLE_STAT_H
#define LATENCY_TABLE_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

/// Sets `*contentHash` from the stat link of the file with status `st` in
/// cache directory `dir` and returns true; false when there is none that
/// matches (a corrupt one is noted).
bool cmTableStatLookup(const char *dir, const struct stat *st,
                       uint64_t *contentHash);

/// Stores `contentHash` as the stat link of the file with status `st` when
/// the file has been left unchanged long enough; failures only cost the
/// next process a hash.
void cmTableStatStore(const char *dir, const struct stat *st,
                      uint64_t contentHash);

#endif /* LATENCY_TABLE_STAT_H */
