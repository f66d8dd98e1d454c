/*===- cache_file.h - the on-disk cache's directory, hashes, files, notes --===*
 *
 * What the triangulation cache and the table snapshots share: where the
 * cache lives, the hash that names and checks entries, the atomic write
 * (temporary file, then rename) that lets concurrent processes build the
 * same entry safely, and the notes that say an entry was corrupt.
 *
 * Where: $MLIR_LATENCY_CACHE when it names a directory; disabled when it is
 * "off" (or "0", "no"); else $XDG_CACHE_HOME/mlir-latency, else
 * $HOME/.cache/mlir-latency.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CACHE_FILE_H
#define LATENCY_CACHE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "latency/costmodel.h"

enum { kCmCachePathSize = 4096 };

/// Writes the cache directory into `dir` (at most `size` bytes), creating
/// it; returns false when the cache is off or no directory can be had.
bool cmCacheDir(char *dir, size_t size);

/// Returns a 64-bit hash of `size` bytes at `data` chained onto `seed`; not
/// cryptographic, only a name and a checksum.
uint64_t cmCacheHash(const void *data, size_t size, uint64_t seed);

/// One piece of a file to write.
typedef struct {
  const void *data; /* bytes to write */
  size_t size;      /* their count    */
} CmCacheChunk;

/// Writes the `numChunks` chunks, in order, to a temporary file beside
/// `path` and renames it over `path`, so readers see a whole file or none.
/// Returns false on failure (nothing is left behind); callers ignore that:
/// a missing entry only costs the next process time.
bool cmCacheWriteFile(const char *path, const CmCacheChunk *chunks,
                      size_t numChunks);

/// Opens the entry at `path` for reading and fills `*st`; returns the
/// descriptor, or -1 when there is none. Never blocks (O_NONBLOCK: a FIFO
/// named like an entry would wait for a writer forever) and takes regular
/// files only; anything else is noted as corrupt and is not an entry. The
/// caller closes the descriptor.
int cmCacheOpenEntry(const char *path, struct stat *st);

/// Reads at most `size` bytes of the entry at `path` into `buffer`, for
/// entries that are one small record (callers leave room for more than the
/// record, so a longer file shows as a wrong size); `*n` is the count read,
/// -1 on a read error. False when there is no entry (cmCacheOpenEntry).
bool cmCacheReadEntry(const char *path, void *buffer, size_t size, ssize_t *n);

/// Keeps the note "cache entry PATH is corrupt (WHY); rebuilt" for
/// cmCacheTakeNotes (latency/costmodel.h); thread-safe.
void cmCacheNoteCorrupt(const char *path, const char *why);

#endif /* LATENCY_CACHE_FILE_H */
