/*===- index_cache.c - sealed groups and their indexes across processes ----===*
 *
 * One file per (group rows, kind, param), named by a hash of the three:
 *
 *   header    magic "MLLATIDX", version, kind, param, the key, numSections,
 *             payload size, checksum (chained over the section table and
 *             each section's bytes)
 *   table     numSections (count, elemSize) pairs
 *   sections  each section's bytes, padded to 8
 *
 * in host byte order. The invariant: no section is handed out unless the
 * whole file checked out (magic, version, kind, param, key, the expected
 * element sizes, sizes that add up to the file, checksum).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* MAP_POPULATE with the POSIX headers */
#include "index_cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bump when a seal or an index would come out otherwise from the same rows
 * or the layout of a section changes. */
enum { kIndexVersion = 1 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'I', 'D', 'X'};

typedef struct {
  char magic[8];        /* kMagic                               */
  uint32_t version;     /* kIndexVersion                        */
  uint32_t kind;        /* CmIndexKind                          */
  uint32_t param;       /* axis or mask                         */
  uint32_t numSections; /* entries of the section table         */
  uint64_t key;         /* cmIndexCacheKey of the group's rows  */
  uint64_t payloadSize; /* bytes after the header               */
  uint64_t checksum;    /* see the banner                       */
} IndexHeader;

typedef struct {
  uint64_t count;    /* elements     */
  uint64_t elemSize; /* bytes each   */
} SectionRecord;

static uint64_t padded(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

uint64_t cmIndexCacheKey(const double *x, const double *y, size_t numRows,
                         int dim, const CmTransform *transforms) {
  char dir[kCmCachePathSize];
  if (numRows < kCmIndexCacheMinRows || !cmCacheDir(dir, sizeof dir))
    return 0;
  uint64_t head[2] = {kIndexVersion, numRows};
  uint64_t h = cmCacheHash(head, sizeof head, 0x696e646578ull);
  for (int a = 0; a < dim; a++) {
    uint64_t t = (uint64_t)transforms[a];
    h = cmCacheHash(&t, sizeof t, h);
  }
  h = cmCacheHash(x, numRows * (size_t)dim * sizeof *x, h);
  h = cmCacheHash(y, numRows * sizeof *y, h);
  return h ? h : 1;
}

static bool entryPath(uint64_t key, CmIndexKind kind, unsigned param,
                      char *path, size_t size) {
  char dir[kCmCachePathSize];
  if (!cmCacheDir(dir, sizeof dir))
    return false;
  uint64_t what[2] = {(uint64_t)kind, param};
  uint64_t name = cmCacheHash(what, sizeof what, key);
  int n = snprintf(path, size, "%s/idx-v%d-%016llx.bin", dir, kIndexVersion,
                   (unsigned long long)name);
  return n > 0 && (size_t)n < size;
}

/* Why header `h` of a file of `size` bytes is not the entry the caller
 * expects, or NULL. */
static const char *headerProblem(const IndexHeader *h, size_t size,
                                 uint64_t key, CmIndexKind kind, unsigned param,
                                 int numSections) {
  if (size < sizeof *h)
    return "truncated header";
  if (memcmp(h->magic, kMagic, sizeof kMagic))
    return "bad magic";
  if (h->version != kIndexVersion)
    return "unknown version";
  if (h->key != key || h->kind != (uint32_t)kind || h->param != param ||
      h->numSections != (uint32_t)numSections)
    return "another group's key";
  if (h->payloadSize != size - sizeof *h)
    return "truncated or wrong size";
  return NULL;
}

/* Checks the mapped file against what the caller expects and fills the
 * sections; returns why it is unusable, or NULL. */
static const char *checkFile(const unsigned char *file, size_t size,
                             uint64_t key, CmIndexKind kind, unsigned param,
                             int numSections, const uint64_t *elemSizes,
                             CmIndexSection *sections) {
  IndexHeader h;
  if (size < sizeof h)
    return "truncated header";
  memcpy(&h, file, sizeof h);
  const char *why = headerProblem(&h, size, key, kind, param, numSections);
  if (why)
    return why;
  uint64_t left = h.payloadSize, table = numSections * sizeof(SectionRecord);
  if (left < table)
    return "truncated section table";
  const unsigned char *at = file + sizeof h;
  uint64_t sum = cmCacheHash(at, table, kIndexVersion);
  const unsigned char *data = at + table;
  left -= table;
  for (int i = 0; i < numSections; i++) {
    SectionRecord r;
    memcpy(&r, at + i * sizeof r, sizeof r);
    if (r.elemSize != elemSizes[i] || r.count > left / r.elemSize ||
        padded(r.count * r.elemSize) > left)
      return "a section's sizes are out of range";
    sections[i] = (CmIndexSection){data, r.count, r.elemSize};
    sum = cmCacheHash(data, r.count * r.elemSize, sum);
    data += padded(r.count * r.elemSize);
    left -= padded(r.count * r.elemSize);
  }
  if (left != 0)
    return "bytes after the last section";
  return sum == h.checksum ? NULL : "checksum mismatch";
}

bool cmIndexEntryOpen(uint64_t key, CmIndexKind kind, unsigned param,
                      int numSections, const uint64_t *elemSizes,
                      CmIndexEntry *entry) {
  memset(entry, 0, sizeof *entry);
  if (numSections > kCmIndexMaxSections ||
      !entryPath(key, kind, param, entry->path, sizeof entry->path))
    return false;
  struct stat st;
  int fd = cmCacheOpenEntry(entry->path, &st);
  if (fd < 0)
    return false; /* not built yet, or not a file */
  /* The header first, so a file of the wrong size is never read whole
   * (MAP_POPULATE reads everything it maps). */
  IndexHeader h;
  const char *why = pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h
                        ? "truncated header"
                        : headerProblem(&h, (size_t)st.st_size, key, kind,
                                        param, numSections);
  void *map = MAP_FAILED;
  if (!why)
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE,
               fd, 0);
  close(fd);
  if (why || map == MAP_FAILED) {
    cmCacheNoteCorrupt(entry->path, why ? why : "cannot be mapped");
    return false;
  }
  why = checkFile(map, (size_t)st.st_size, key, kind, param, numSections,
                  elemSizes, entry->sections);
  if (why) {
    munmap(map, (size_t)st.st_size);
    cmCacheNoteCorrupt(entry->path, why);
    return false;
  }
  entry->map = map;
  entry->mapSize = (size_t)st.st_size;
  return true;
}

void cmIndexMapRelease(void *map, size_t size) {
  if (map)
    munmap(map, size);
}

void cmIndexEntryReject(CmIndexEntry *entry, const char *why) {
  cmCacheNoteCorrupt(entry->path, why);
  cmIndexMapRelease(entry->map, entry->mapSize);
  entry->map = NULL;
}

void cmIndexEntryStore(uint64_t key, CmIndexKind kind, unsigned param,
                       const CmIndexSection *sections, int numSections) {
  char path[kCmCachePathSize];
  if (numSections > kCmIndexMaxSections ||
      !entryPath(key, kind, param, path, sizeof path))
    return;
  static const unsigned char zeros[8];
  SectionRecord table[kCmIndexMaxSections];
  CmCacheChunk chunks[2 + 2 * kCmIndexMaxSections];
  IndexHeader h = {.version = kIndexVersion,
                   .kind = (uint32_t)kind,
                   .param = param,
                   .numSections = (uint32_t)numSections,
                   .key = key};
  memcpy(h.magic, kMagic, sizeof kMagic);
  size_t tableSize = numSections * sizeof *table, n = 2;
  h.payloadSize = tableSize;
  for (int i = 0; i < numSections; i++) {
    table[i] = (SectionRecord){sections[i].count, sections[i].elemSize};
    uint64_t bytes = sections[i].count * sections[i].elemSize;
    chunks[n++] = (CmCacheChunk){bytes ? sections[i].data : zeros, bytes};
    chunks[n++] = (CmCacheChunk){zeros, padded(bytes) - bytes};
    h.payloadSize += padded(bytes);
  }
  h.checksum = cmCacheHash(table, tableSize, kIndexVersion);
  for (int i = 0; i < numSections; i++)
    h.checksum =
        cmCacheHash(chunks[2 + 2 * i].data, chunks[2 + 2 * i].size, h.checksum);
  chunks[0] = (CmCacheChunk){&h, sizeof h};
  chunks[1] = (CmCacheChunk){table, tableSize};
  cmCacheWriteFile(path, chunks, n);
}

bool cmIndexSlotsValid(const uint32_t *slots, uint64_t numSlots, uint64_t count,
                       uint64_t numPoints) {
  if (numSlots < 2 || (numSlots & (numSlots - 1)) || 2 * count > numSlots ||
      numPoints >= UINT32_MAX)
    return false;
  uint64_t filled = 0;
  for (uint64_t s = 0; s < numSlots; s++) {
    if (slots[s] > numPoints)
      return false;
    filled += slots[s] != 0;
  }
  return filled == count;
}
