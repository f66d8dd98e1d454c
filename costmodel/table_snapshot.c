/*===- table_snapshot.c - parsed tables kept across processes --------------===*
 *
 * One file per (table bytes, policies), named by a hash of both:
 *
 *   header  magic "MLLATTAB", version, the key (content hash and size,
 *           policy hash), numGroups, payload size, payload checksum
 *   groups  numGroups records in the order the parse met them:
 *             kernel length, regime key length, dim, numRows, numDropped,
 *             kernel and regime key bytes (padded to 8),
 *             numRows * dim raw axis values, numRows latencies (doubles)
 *
 * in host byte order. The invariant: nothing of a snapshot reaches the
 * profile unless the whole file checked out first (magic, version, the
 * full key, the payload checksum, every record's sizes within the payload,
 * and every kernel having a policy of that many axes), so a corrupt, stale
 * or colliding file costs a parse, never a wrong or half-loaded group.
 *
 *===----------------------------------------------------------------------===*/
#include "table_snapshot.h"

#include "cm_error.h"
#include "table_stat.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bump when parsing would produce other groups from the same bytes (regime
 * canonicalisation, built-in policies, row checks) or the layout changes. */
enum { kSnapshotVersion = 1, kMaxName = 4096 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'T', 'A', 'B'};

typedef struct {
  char magic[8];        /* kMagic                               */
  uint32_t version;     /* kSnapshotVersion                     */
  uint32_t reserved;    /* 0                                    */
  uint64_t contentHash; /* the key, checked in full             */
  uint64_t contentSize; /*                                      */
  uint64_t policyHash;  /*                                      */
  uint64_t numGroups;   /* records that follow                  */
  uint64_t payloadSize; /* bytes after the header               */
  uint64_t checksum;    /* cmCacheHash of the payload           */
} SnapshotHeader;

typedef struct {
  uint32_t kernelLength; /* bytes of the kernel name, no NUL        */
  uint32_t regimeLength; /* bytes of the regime key, no NUL         */
  uint32_t dim;          /* axes per row                            */
  uint32_t reserved;     /* 0                                       */
  uint64_t numRows;      /* rows, in file order                     */
  uint64_t numDropped;   /* rows dropped for a bad latency          */
} GroupRecord;

static size_t padded(size_t n) { return (n + 7) & ~(size_t)7; }

/*------------------------------------------------------------------- key --*/

static uint64_t hashText(const char *text, uint64_t h) {
  return cmCacheHash(text, strlen(text) + 1, h);
}

/* A hash of everything a policy set tells the parse: kernels, axes,
 * transforms, regime keys, in order. */
static uint64_t hashPolicies(const CmPolicySet *set) {
  uint64_t h = kSnapshotVersion;
  for (size_t i = 0; i < set->count; i++) {
    const CmPolicy *p = &set->items[i];
    h = hashText(p->kernel, h);
    for (int a = 0; a < p->numAxes; a++) {
      uint64_t transform = (uint64_t)p->transforms[a];
      h = cmCacheHash(&transform, sizeof transform, hashText(p->axes[a], h));
    }
    h = hashText("\x1e", h); /* axes end */
    for (int r = 0; r < p->numRegime; r++)
      h = hashText(p->regime[r], h);
    h = hashText("\x1d", h); /* policy end */
  }
  return h;
}

bool cmTableSnapshotKeyOf(const struct CmProfileImpl *profile, const char *path,
                          CmTableSnapshotKey *key) {
  char dir[kCmCachePathSize];
  if (!cmCacheDir(dir, sizeof dir))
    return false;
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
    if (fd >= 0)
      close(fd);
    return false;
  }
  key->contentSize = (uint64_t)st.st_size;
  if (!cmTableStatLookup(dir, &st, &key->contentHash)) {
    void *bytes = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (bytes == MAP_FAILED) {
      close(fd);
      return false;
    }
    key->contentHash = cmCacheHash(bytes, (size_t)st.st_size, 0x7461626c65ull);
    munmap(bytes, (size_t)st.st_size);
    cmTableStatStore(dir, &st, key->contentHash);
  }
  close(fd);
  key->policyHash = hashPolicies(&profile->policies);
  uint64_t name =
      cmCacheHash(&key->policyHash, sizeof key->policyHash, key->contentHash);
  int n = snprintf(key->path, sizeof key->path, "%s/tab-v%d-%016llx.bin", dir,
                   kSnapshotVersion, (unsigned long long)name);
  return n > 0 && (size_t)n < sizeof key->path;
}

/*--------------------------------------------------------------- reading --*/

/* A record of the payload, its strings and arrays pointing into the map. */
typedef struct {
  GroupRecord record;
  const char *kernel, *regime;
  const unsigned char *x, *y; /* doubles, read with memcpy */
} GroupView;

/* Reads the record at `*offset` of `payload` (`size` bytes) into `view` and
 * advances `*offset`; returns why it is unusable, or NULL. */
static const char *viewGroup(const unsigned char *payload, size_t size,
                             size_t *offset, const CmPolicySet *policies,
                             GroupView *view) {
  if (size - *offset < sizeof view->record)
    return "a record runs past the end";
  memcpy(&view->record, payload + *offset, sizeof view->record);
  const GroupRecord *r = &view->record;
  size_t at = *offset + sizeof *r, left = size - at;
  size_t names = padded((size_t)r->kernelLength + r->regimeLength);
  if (r->kernelLength == 0 || r->kernelLength >= kMaxName ||
      r->regimeLength >= kMaxName || names > left ||
      r->dim > (uint32_t)CM_MAX_AXES ||
      r->numRows > (left - names) / ((r->dim + 1) * sizeof(double)))
    return "a record's sizes are out of range";
  view->kernel = (const char *)payload + at;
  view->regime = view->kernel + r->kernelLength;
  view->x = payload + at + names;
  view->y = view->x + r->numRows * r->dim * sizeof(double);
  *offset = at + names + r->numRows * (r->dim + 1) * sizeof(double);
  char kernel[kMaxName];
  memcpy(kernel, view->kernel, r->kernelLength);
  kernel[r->kernelLength] = '\0';
  const CmPolicy *policy = cmPolicySetFind(policies, kernel);
  if (!policy || policy->numAxes != (int)r->dim)
    return "a kernel without a policy of its axes";
  return NULL;
}

/* Checks every record of the payload; returns why it is unusable, or NULL. */
static const char *checkPayload(const SnapshotHeader *h,
                                const unsigned char *payload,
                                const CmPolicySet *policies) {
  size_t offset = 0;
  GroupView view;
  for (uint64_t g = 0; g < h->numGroups; g++) {
    const char *why =
        viewGroup(payload, h->payloadSize, &offset, policies, &view);
    if (why)
      return why;
  }
  return offset == h->payloadSize ? NULL : "bytes after the last record";
}

/* Adds one checked record's rows to its group, created when new. */
static CmStatus addGroup(struct CmProfileImpl *profile, const GroupView *view) {
  char kernel[kMaxName], regime[kMaxName];
  memcpy(kernel, view->kernel, view->record.kernelLength);
  kernel[view->record.kernelLength] = '\0';
  memcpy(regime, view->regime, view->record.regimeLength);
  regime[view->record.regimeLength] = '\0';
  const CmPolicy *policy = cmPolicySetFind(&profile->policies, kernel);
  CmGroup *g = cmGroupSetFind(&profile->groups, kernel, regime, policy, true);
  if (!g)
    return CM_ERR_NOMEM;
  if (cmGroupAppendRows(g, view->x, view->y, view->record.numRows) != CM_OK)
    return CM_ERR_NOMEM;
  g->numDropped += view->record.numDropped;
  profile->numDropped += view->record.numDropped;
  profile->numRows += view->record.numRows;
  return CM_OK;
}

/* Checks the mapped file of `size` bytes against `key`; returns why it is
 * unusable, or NULL. */
static const char *checkFile(const unsigned char *file, size_t size,
                             const CmTableSnapshotKey *key,
                             const CmPolicySet *policies) {
  SnapshotHeader h;
  if (size < sizeof h)
    return "truncated header";
  memcpy(&h, file, sizeof h);
  if (memcmp(h.magic, kMagic, sizeof kMagic))
    return "bad magic";
  if (h.version != kSnapshotVersion)
    return "unknown version";
  if (h.contentHash != key->contentHash || h.contentSize != key->contentSize ||
      h.policyHash != key->policyHash)
    return "another table's key";
  if (h.payloadSize != size - sizeof h)
    return "truncated or wrong size";
  if (cmCacheHash(file + sizeof h, h.payloadSize, kSnapshotVersion) !=
      h.checksum)
    return "checksum mismatch";
  return checkPayload(&h, file + sizeof h, policies);
}

CmStatus cmTableSnapshotLoad(struct CmProfileImpl *profile,
                             const CmTableSnapshotKey *key, bool *loaded,
                             CmError *err) {
  *loaded = false;
  struct stat st;
  int fd = cmCacheOpenEntry(key->path, &st);
  if (fd < 0)
    return CM_OK; /* no snapshot yet, or not a file */
  void *map = MAP_FAILED;
  if (st.st_size > 0)
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  size_t size = map == MAP_FAILED ? 0 : (size_t)st.st_size;
  const unsigned char *file = map == MAP_FAILED ? NULL : map;
  const char *why =
      file ? checkFile(file, size, key, &profile->policies) : "empty file";
  CmStatus status = CM_OK;
  if (why) {
    cmCacheNoteCorrupt(key->path, why);
  } else {
    SnapshotHeader h;
    memcpy(&h, file, sizeof h);
    size_t offset = 0;
    GroupView view;
    for (uint64_t g = 0; status == CM_OK && g < h.numGroups; g++) {
      viewGroup(file + sizeof h, h.payloadSize, &offset, &profile->policies,
                &view);
      status = addGroup(profile, &view);
    }
    *loaded = status == CM_OK;
  }
  if (file)
    munmap(map, size);
  return status == CM_OK ? CM_OK : cmErrorSet(err, status, "out of memory");
}

/*--------------------------------------------------------------- writing --*/

/* Bytes the record of `run` takes in the payload. */
static size_t recordSize(const CmTableRun *run) {
  const CmGroup *g = run->group;
  size_t rows = g->numRows - run->firstRow;
  return sizeof(GroupRecord) +
         padded(strlen(g->kernel) + strlen(g->regimeKey)) +
         rows * (g->dim + 1) * sizeof(double);
}

/* Writes the record of `run` at `out`; returns the byte after it. */
static unsigned char *writeRecord(const CmTableRun *run, unsigned char *out) {
  const CmGroup *g = run->group;
  GroupRecord r = {.kernelLength = (uint32_t)strlen(g->kernel),
                   .regimeLength = (uint32_t)strlen(g->regimeKey),
                   .dim = (uint32_t)g->dim,
                   .numRows = g->numRows - run->firstRow,
                   .numDropped = g->numDropped - run->firstDropped};
  size_t names = padded((size_t)r.kernelLength + r.regimeLength);
  size_t xBytes = r.numRows * r.dim * sizeof(double);
  memcpy(out, &r, sizeof r);
  out += sizeof r;
  memset(out, 0, names);
  memcpy(out, g->kernel, r.kernelLength);
  memcpy(out + r.kernelLength, g->regimeKey, r.regimeLength);
  out += names;
  /* a group of dropped rows only (or of no axes) has no arrays: NULL plus
   * an offset is undefined even when nothing is copied */
  if (xBytes)
    memcpy(out, g->x + run->firstRow * g->dim, xBytes);
  out += xBytes;
  if (r.numRows)
    memcpy(out, g->y + run->firstRow, r.numRows * sizeof(double));
  return out + r.numRows * sizeof(double);
}

void cmTableSnapshotStore(const CmTableSnapshotKey *key, const CmTableRun *runs,
                          size_t numRuns) {
  size_t size = 0;
  for (size_t i = 0; i < numRuns; i++)
    size += recordSize(&runs[i]);
  unsigned char *payload = malloc(size + 1);
  if (!payload)
    return; /* the next process parses again */
  unsigned char *end = payload;
  for (size_t i = 0; i < numRuns; i++)
    end = writeRecord(&runs[i], end);
  SnapshotHeader h = {.version = kSnapshotVersion,
                      .contentHash = key->contentHash,
                      .contentSize = key->contentSize,
                      .policyHash = key->policyHash,
                      .numGroups = numRuns,
                      .payloadSize = size,
                      .checksum = cmCacheHash(payload, size, kSnapshotVersion)};
  memcpy(h.magic, kMagic, sizeof kMagic);
  CmCacheChunk chunks[] = {{&h, sizeof h}, {payload, size}};
  cmCacheWriteFile(key->path, chunks, 2);
  free(payload);
}
