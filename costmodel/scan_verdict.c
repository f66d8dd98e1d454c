/*===- scan_verdict.c - table scan verdicts kept across processes ----------===*
 *
 * One 64-byte file per (table content, needs): magic "MLLATSCN", version,
 * the key in full (content hash and size, needs hash), the verdict and a
 * checksum of the fields before it. A verdict is used only when all of them
 * check out and the key matches in full.
 *
 *===----------------------------------------------------------------------===*/
#include "scan_verdict.h"

#include "dtype.h"
#include "table_scan.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Bump when the scan would give another verdict for the same bytes and
 * needs (needles, aliases) or the layout changes. */
enum { kVerdictVersion = 1, kMaxAliases = 16 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'S', 'C', 'N'};

typedef struct {
  char magic[8];        /* kMagic                           */
  uint32_t version;     /* kVerdictVersion                  */
  uint32_t mayAnswer;   /* the verdict: 0 or 1              */
  uint64_t contentHash; /* the table's key, checked in full */
  uint64_t contentSize; /*                                  */
  uint64_t needsHash;   /* needsHashOf                      */
  uint64_t reserved[2]; /* 0                                */
  uint64_t checksum;    /* cmCacheHash of the fields above  */
} Verdict;

static uint64_t hashText(const char *text, uint64_t h) {
  return cmCacheHash(text, strlen(text) + 1, h);
}

/* A hash of everything the scan searches for, in order: each dtype with
 * the aliases the scan also accepts for it (dtype.c), so a verdict kept
 * before an alias was added is not trusted after. */
static uint64_t needsHashOf(const CmTableNeed *needs, size_t numNeeds) {
  uint64_t h = cmCacheHash(&numNeeds, sizeof numNeeds, kVerdictVersion);
  for (size_t i = 0; i < numNeeds; i++) {
    h = hashText(needs[i].kernel, h);
    for (int d = 0; d < needs[i].numDtypes; d++) {
      h = hashText(needs[i].dtypes[d], h);
      const char *aliases[kMaxAliases];
      size_t numAliases =
          cmDtypeAliasesOf(needs[i].dtypes[d], aliases, kMaxAliases);
      for (size_t a = 0; a < numAliases; a++)
        h = hashText(aliases[a], h);
      h = hashText("\x1f", h); /* dtype end */
    }
    h = hashText("\x1d", h); /* need end */
  }
  return h;
}

static uint64_t checksumOf(const Verdict *v) {
  return cmCacheHash(v, offsetof(Verdict, checksum), kVerdictVersion);
}

/* Writes the entry's path beside the snapshot at `key` into `path`. */
static bool verdictPath(const CmTableSnapshotKey *key, uint64_t needsHash,
                        char *path, size_t size) {
  const char *slash = strrchr(key->path, '/');
  uint64_t parts[3] = {key->contentHash, key->contentSize, needsHash};
  uint64_t name = cmCacheHash(parts, sizeof parts, 0x7363616e76ull);
  int n =
      snprintf(path, size, "%.*s/scan-v%d-%016llx.bin",
               slash ? (int)(slash - key->path) : 1, slash ? key->path : ".",
               kVerdictVersion, (unsigned long long)name);
  return n > 0 && (size_t)n < size;
}

/* Reads the verdict at `path` for `key` into `*mayAnswer`; false when there
 * is none that matches (a corrupt one is noted). */
static bool readVerdict(const char *path, const CmTableSnapshotKey *key,
                        uint64_t needsHash, bool *mayAnswer) {
  Verdict v[2]; /* room for one byte more: a longer file is wrong */
  ssize_t n;
  if (!cmCacheReadEntry(path, v, sizeof v, &n))
    return false; /* not scanned yet, or not a file */
  const char *why = n != (ssize_t)sizeof v[0]                   ? "wrong size"
                    : memcmp(v[0].magic, kMagic, sizeof kMagic) ? "bad magic"
                    : v[0].version != kVerdictVersion    ? "unknown version"
                    : checksumOf(&v[0]) != v[0].checksum ? "checksum mismatch"
                    : v[0].mayAnswer > 1                 ? "bad verdict"
                                                         : NULL;
  if (why) {
    cmCacheNoteCorrupt(path, why);
    return false;
  }
  if (v[0].contentHash != key->contentHash ||
      v[0].contentSize != key->contentSize || v[0].needsHash != needsHash)
    return false; /* another key behind the same name */
  *mayAnswer = v[0].mayAnswer != 0;
  return true;
}

CmStatus cmScanVerdictMayAnswer(const CmTableSnapshotKey *key, const char *path,
                                const char *name, const CmTableNeed *needs,
                                size_t numNeeds, bool *mayAnswer,
                                CmError *err) {
  uint64_t needsHash = needsHashOf(needs, numNeeds);
  char entry[kCmCachePathSize];
  bool named = verdictPath(key, needsHash, entry, sizeof entry);
  if (named && readVerdict(entry, key, needsHash, mayAnswer))
    return CM_OK;
  CmStatus status =
      cmTableScanMayAnswer(path, name, needs, numNeeds, mayAnswer, err);
  if (status != CM_OK || !named)
    return status;
  Verdict v = {.version = kVerdictVersion,
               .mayAnswer = *mayAnswer,
               .contentHash = key->contentHash,
               .contentSize = key->contentSize,
               .needsHash = needsHash};
  memcpy(v.magic, kMagic, sizeof kMagic);
  v.checksum = checksumOf(&v);
  CmCacheChunk chunk = {&v, sizeof v};
  cmCacheWriteFile(entry, &chunk, 1);
  return CM_OK;
}
