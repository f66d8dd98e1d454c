/*===- table_stat.c - a table's content hash, remembered by its stat
 *--------===*
 *
 * One small file per (file identity, change stamps):
 *
 *   magic "MLLATSTA", version, the seven stamps (device, inode, size, mtime
 *   seconds and nanoseconds, ctime seconds and nanoseconds), the content
 *   hash, a checksum of all of it
 *
 * named by a hash of the stamps. The invariant: a content hash is taken
 * from a link only when the whole link checked out and its stamps equal
 * the file's, so a corrupt or colliding link costs a hash, never a wrong
 * snapshot key.
 *
 *===----------------------------------------------------------------------===*/
#include "table_stat.h"

#include "cache_file.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* A file changed less than kSettleSeconds ago may change again within the
 * same stamp (the kernel's clock tick; whole seconds on some file
 * systems): it gets no link yet. */
enum { kStatVersion = 1, kNumStamps = 7, kSettleSeconds = 2 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'S', 'T', 'A'};

typedef struct {
  char magic[8];               /* kMagic                           */
  uint32_t version;            /* kStatVersion                     */
  uint32_t reserved;           /* 0                                */
  uint64_t stamps[kNumStamps]; /* as stampsOf                      */
  uint64_t contentHash;        /* the table's, as hashed           */
  uint64_t checksum;           /* cmCacheHash of the fields above  */
} StatLink;

static void stampsOf(const struct stat *st, uint64_t *stamps) {
  stamps[0] = (uint64_t)st->st_dev;
  stamps[1] = (uint64_t)st->st_ino;
  stamps[2] = (uint64_t)st->st_size;
  stamps[3] = (uint64_t)st->st_mtim.tv_sec;
  stamps[4] = (uint64_t)st->st_mtim.tv_nsec;
  stamps[5] = (uint64_t)st->st_ctim.tv_sec;
  stamps[6] = (uint64_t)st->st_ctim.tv_nsec;
}

static uint64_t checksumOf(const StatLink *link) {
  return cmCacheHash(link, offsetof(StatLink, checksum), kStatVersion);
}

/* Writes the link's path for `stamps` into `path`; false when too long. */
static bool linkPath(const char *dir, const uint64_t *stamps, char *path,
                     size_t size) {
  uint64_t name =
      cmCacheHash(stamps, kNumStamps * sizeof *stamps, 0x737461747374ull);
  int n = snprintf(path, size, "%s/stat-v%d-%016llx.bin", dir, kStatVersion,
                   (unsigned long long)name);
  return n > 0 && (size_t)n < size;
}

/* Checks the `n` bytes read of a link; returns why it is unusable, or NULL. */
static const char *checkLink(const StatLink *link, ssize_t n) {
  if (n != (ssize_t)sizeof *link)
    return "truncated or wrong size";
  if (memcmp(link->magic, kMagic, sizeof kMagic))
    return "bad magic";
  if (link->version != kStatVersion)
    return "unknown version";
  if (checksumOf(link) != link->checksum)
    return "checksum mismatch";
  return NULL;
}

bool cmTableStatLookup(const char *dir, const struct stat *st,
                       uint64_t *contentHash) {
  uint64_t stamps[kNumStamps];
  char path[kCmCachePathSize];
  stampsOf(st, stamps);
  if (!linkPath(dir, stamps, path, sizeof path))
    return false;
  StatLink link[2]; /* room for one byte more: a longer file is wrong */
  ssize_t n;
  if (!cmCacheReadEntry(path, link, sizeof link, &n))
    return false; /* no link yet, or not a file */
  const char *why = checkLink(&link[0], n);
  if (why) {
    cmCacheNoteCorrupt(path, why);
    return false;
  }
  if (memcmp(link[0].stamps, stamps, sizeof stamps))
    return false; /* another file's stamps behind the same name */
  *contentHash = link[0].contentHash;
  return true;
}

void cmTableStatStore(const char *dir, const struct stat *st,
                      uint64_t contentHash) {
  struct timespec now;
  if (clock_gettime(CLOCK_REALTIME, &now) != 0)
    return;
  time_t changed = st->st_mtim.tv_sec > st->st_ctim.tv_sec ? st->st_mtim.tv_sec
                                                           : st->st_ctim.tv_sec;
  if (now.tv_sec - changed < kSettleSeconds)
    return; /* may change again within the same stamps */
  StatLink link = {.version = kStatVersion, .contentHash = contentHash};
  memcpy(link.magic, kMagic, sizeof kMagic);
  stampsOf(st, link.stamps);
  link.checksum = checksumOf(&link);
  char path[kCmCachePathSize];
  if (!linkPath(dir, link.stamps, path, sizeof path))
    return;
  CmCacheChunk chunk = {&link, sizeof link};
  cmCacheWriteFile(path, &chunk, 1);
}
