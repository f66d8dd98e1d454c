/*===- triangulation_cache.c - Delaunay simplices kept across processes ----===*
 *
 * One file per triangulated point set, named by a 64-bit hash of its points:
 *
 *   header  magic "MLLATTRI", version, dim, numPoints, numSimplices, checksum
 *   points  numPoints * dim doubles, the input as given
 *   ids     numSimplices * (dim + 1) uint32 point indices, in Qhull's order
 *
 * in host byte order. The invariant: an entry is used only when its magic,
 * version, dim, sizes and checksum are right and its points equal the
 * query's byte for byte, so a hash collision, a stale file or a corrupt one
 * can cost time but never change an answer. Writers write a temporary file
 * and rename() it over the entry, so readers see a whole file or none.
 *
 *===----------------------------------------------------------------------===*/
#include "triangulation_cache.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kCacheVersion = 2, kPathSize = 4096 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'T', 'R', 'I'};

typedef struct {
  char magic[8];         /* kMagic                                */
  uint32_t version;      /* kCacheVersion                         */
  uint32_t dim;          /* 2 or 3                                */
  uint64_t numPoints;    /* input points                          */
  uint64_t numSimplices; /* simplices that follow the points      */
  uint64_t checksum;     /* entryChecksum of points and ids       */
} EntryHeader;

static pthread_mutex_t gNoteLock = PTHREAD_MUTEX_INITIALIZER;
static char gNote[kPathSize + 128]; /* last corrupt entry, "" when none */
static atomic_uint gTempCounter;    /* distinct temporary names per process */

/*----------------------------------------------------------------- hashing --*/

/* Hashes `size` bytes into `h` 8 bytes at a time (FNV-1a style multiply,
 * then a final avalanche); not cryptographic, only a key and a checksum. */
static uint64_t hashBytes(const void *data, size_t size, uint64_t h) {
  const unsigned char *p = data;
  for (; size >= 8; p += 8, size -= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; size; p++, size--)
    h = (h ^ *p) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

/* The checksum of an entry: its points, then its ids, hashed in a chain. */
static uint64_t entryChecksum(const double *points, size_t pointBytes,
                              const uint32_t *ids, size_t idBytes) {
  return hashBytes(ids, idBytes, hashBytes(points, pointBytes, kCacheVersion));
}

/*------------------------------------------------------------------ places --*/

static bool makeDir(const char *path) {
  return mkdir(path, 0755) == 0 || errno == EEXIST;
}

/* Writes the cache directory into `dir` and creates it; false when the
 * cache is off or no directory can be had. */
static bool cacheDir(char *dir, size_t size) {
  const char *env = getenv("MLIR_LATENCY_CACHE");
  if (env && (!strcmp(env, "off") || !strcmp(env, "0") || !strcmp(env, "no")))
    return false;
  if (env && *env) {
    snprintf(dir, size, "%s", env);
    return makeDir(dir);
  }
  const char *xdg = getenv("XDG_CACHE_HOME");
  const char *home = getenv("HOME");
  if (xdg && *xdg) {
    snprintf(dir, size, "%s", xdg);
  } else if (home && *home) {
    snprintf(dir, size, "%s/.cache", home);
  } else {
    return false;
  }
  if (!makeDir(dir))
    return false;
  size_t len = strlen(dir);
  if (len + sizeof "/mlir-latency" > size)
    return false;
  memcpy(dir + len, "/mlir-latency", sizeof "/mlir-latency");
  return makeDir(dir);
}

/* Writes the entry path of these points into `path`; false when the cache
 * is off. */
static bool entryPath(const double *points, size_t numPoints, int dim,
                      char *path, size_t size) {
  char dir[kPathSize];
  if (!cacheDir(dir, sizeof dir))
    return false;
  uint64_t key = hashBytes(points, numPoints * dim * sizeof *points,
                           0xcbf29ce484222325ull ^ (uint64_t)dim);
  int n = snprintf(path, size, "%s/tri-v%d-%dd-%zu-%016llx.bin", dir,
                   kCacheVersion, dim, numPoints, (unsigned long long)key);
  return n > 0 && (size_t)n < size;
}

static void keepNote(const char *path, const char *why) {
  pthread_mutex_lock(&gNoteLock);
  snprintf(gNote, sizeof gNote, "cache entry %s is corrupt (%s); rebuilt", path,
           why);
  pthread_mutex_unlock(&gNoteLock);
}

/*----------------------------------------------------------------- reading --*/

/* Checks the header of an entry of `fileSize` bytes against the query;
 * returns why it is unusable, or NULL. */
static const char *checkHeader(const EntryHeader *h, size_t fileSize,
                               size_t numPoints, int dim) {
  if (memcmp(h->magic, kMagic, sizeof kMagic))
    return "bad magic";
  if (h->version != kCacheVersion)
    return "unknown version";
  if (h->dim != (uint32_t)dim || h->numPoints != numPoints)
    return "wrong point set";
  size_t pointBytes = numPoints * dim * sizeof(double);
  size_t idBytes = (fileSize - sizeof *h - pointBytes);
  if (fileSize < sizeof *h + pointBytes ||
      h->numSimplices != idBytes / ((dim + 1) * sizeof(uint32_t)) ||
      idBytes % ((dim + 1) * sizeof(uint32_t)))
    return "truncated or wrong size";
  return NULL;
}

/* Reads the points and ids of an entry whose header `h` checked out into
 * new arrays; returns why they are unusable, or NULL (with *ids NULL when
 * out of memory or when they are another point set's). */
static const char *readPayload(FILE *f, const EntryHeader *h,
                               const double *points, size_t pointBytes,
                               uint32_t **ids) {
  size_t idBytes = (size_t)h->numSimplices * (h->dim + 1) * sizeof **ids;
  double *stored = malloc(pointBytes + 1);
  *ids = malloc(idBytes + 1);
  const char *why = NULL;
  if (!stored || !*ids) {
    why = NULL; /* out of memory: triangulate instead */
  } else if (fread(stored, 1, pointBytes, f) != pointBytes ||
             fread(*ids, 1, idBytes, f) != idBytes ||
             entryChecksum(stored, pointBytes, *ids, idBytes) != h->checksum) {
    why = "checksum mismatch";
  } else if (!memcmp(stored, points, pointBytes)) {
    free(stored);
    return NULL; /* the entry of these points */
  }
  free(stored); /* else another point set with the same hash: not corrupt */
  free(*ids);
  *ids = NULL;
  return why;
}

/* Loads the entry at `path` for these points; NULL when absent or unusable
 * (keeping a note when it is corrupt rather than merely absent). */
static CmTriangulation *readEntry(const char *path, const double *points,
                                  size_t numPoints, int dim) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  struct stat st;
  EntryHeader h;
  const char *why = NULL;
  uint32_t *ids = NULL;
  CmTriangulation *t = NULL;
  if (fstat(fileno(f), &st) != 0 || (size_t)st.st_size < sizeof h ||
      fread(&h, sizeof h, 1, f) != 1)
    why = "truncated header";
  else if (!(why = checkHeader(&h, (size_t)st.st_size, numPoints, dim)))
    why = readPayload(f, &h, points, numPoints * dim * sizeof(double), &ids);
  fclose(f);
  if (ids) {
    t = cmTriangulationCreateFromSimplicesOwned(points, numPoints, dim, ids,
                                                (size_t)h.numSimplices);
    if (!t)
      why = "a vertex index out of range";
  }
  if (why)
    keepNote(path, why);
  return t;
}

/*----------------------------------------------------------------- writing --*/

/* Stores the simplices of `t` at `path` through a temporary file; failures
 * are silent (the next process triangulates again). */
static void writeEntry(const char *path, const CmTriangulation *t,
                       const double *points, size_t numPoints, int dim) {
  size_t numSimplices;
  const uint32_t *ids = cmTriangulationGetSimplices(t, &numSimplices);
  size_t pointBytes = numPoints * dim * sizeof(double);
  size_t idBytes = numSimplices * (dim + 1) * sizeof(uint32_t);
  EntryHeader h = {.version = kCacheVersion,
                   .dim = (uint32_t)dim,
                   .numPoints = numPoints,
                   .numSimplices = numSimplices,
                   .checksum = entryChecksum(points, pointBytes, ids, idBytes)};
  memcpy(h.magic, kMagic, sizeof kMagic);
  char temp[kPathSize + 64];
  snprintf(temp, sizeof temp, "%s.tmp.%ld.%u", path, (long)getpid(),
           atomic_fetch_add(&gTempCounter, 1));
  FILE *f = fopen(temp, "wb");
  bool ok = f && fwrite(&h, sizeof h, 1, f) == 1 &&
            fwrite(points, 1, pointBytes, f) == pointBytes &&
            fwrite(ids, 1, idBytes, f) == idBytes;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok || rename(temp, path) != 0)
    remove(temp);
}

/*----------------------------------------------------------------- the API --*/

CmTriangulation *cmTriangulationCreateCached(const double *points,
                                             size_t numPoints, int dim,
                                             char *reason, size_t reasonSize) {
  char path[kPathSize];
  if (numPoints < kCmCacheMinPoints || dim < 2 || dim > 3 ||
      !entryPath(points, numPoints, dim, path, sizeof path))
    return cmTriangulationCreate(points, numPoints, dim, reason, reasonSize);
  CmTriangulation *t = readEntry(path, points, numPoints, dim);
  if (t)
    return t;
  t = cmTriangulationCreate(points, numPoints, dim, reason, reasonSize);
  if (t)
    writeEntry(path, t, points, numPoints, dim);
  return t;
}

bool cmTriangulationCacheTakeNote(char *note, size_t noteSize) {
  pthread_mutex_lock(&gNoteLock);
  bool any = gNote[0] != '\0';
  if (any)
    snprintf(note, noteSize, "%s", gNote);
  gNote[0] = '\0';
  pthread_mutex_unlock(&gNoteLock);
  return any;
}
