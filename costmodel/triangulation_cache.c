/*===- triangulation_cache.c - Delaunay simplices kept across processes ----===*
 *
 * One file per triangulated point set, named by a 64-bit hash of its points:
 *
 *   header  magic "MLLATTRI", version, dim, numPoints, numSimplices,
 *           cellsPerAxis, numEntries, checksum
 *   points  numPoints * dim doubles, the input as given
 *   ids     numSimplices * (dim + 1) uint32 point indices, in Qhull's order
 *   grid    the point-location grid (triangulation.h): per axis
 *           cellsPerAxis - 1 double boundaries, numCells + 1 uint64 cell
 *           offsets, numEntries uint32 simplex indices
 *
 * in host byte order. The invariant: an entry is used only when its magic,
 * version, dim, sizes and checksum are right, its points equal the query's
 * byte for byte and its grid passes cmTriangulationCreateFromGridOwned's
 * checks, so a hash collision, a stale file or a corrupt one can cost time
 * but never change an answer. Files are written by cmCacheWriteFile
 * (temporary file, then rename), so readers see a whole file or none.
 *
 *===----------------------------------------------------------------------===*/
#include "triangulation_cache.h"

#include "cache_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kCacheVersion = 3, kMaxCells = 64 };
static const char kMagic[8] = {'M', 'L', 'L', 'A', 'T', 'T', 'R', 'I'};

_Static_assert(sizeof(size_t) == sizeof(uint64_t),
               "cell offsets are stored as uint64 and read in place");

typedef struct {
  char magic[8];            /* kMagic                                 */
  uint32_t version;         /* kCacheVersion                          */
  uint32_t dim;             /* 2 or 3                                 */
  uint64_t numPoints;       /* input points                           */
  uint64_t numSimplices;    /* simplices that follow the points       */
  uint32_t cellsPerAxis[4]; /* grid cells per axis (unused axes: 0)   */
  uint64_t numEntries;      /* simplex indices listed in the cells    */
  uint64_t checksum;        /* chained cmCacheHash of every section   */
} EntryHeader;

/* Sizes in bytes of the sections after the header. */
typedef struct {
  size_t points, ids, bounds[3], starts, entries;
} Sections;

/* Entry path of these points into `path`; false when the cache is off. */
static bool entryPath(const double *points, size_t numPoints, int dim,
                      char *path, size_t size) {
  char dir[kCmCachePathSize];
  if (!cmCacheDir(dir, sizeof dir))
    return false;
  uint64_t key = cmCacheHash(points, numPoints * dim * sizeof *points,
                             0xcbf29ce484222325ull ^ (uint64_t)dim);
  int n = snprintf(path, size, "%s/tri-v%d-%dd-%zu-%016llx.bin", dir,
                   kCacheVersion, dim, numPoints, (unsigned long long)key);
  return n > 0 && (size_t)n < size;
}

/*----------------------------------------------------------------- reading --*/

/* Section sizes a header announces, or false when they cannot be those of
 * a file of `fileSize` bytes (checked before multiplying, so a damaged
 * count cannot overflow into a plausible size). */
static bool sectionsOf(const EntryHeader *h, size_t fileSize, Sections *s) {
  size_t numCells = 1;
  memset(s, 0, sizeof *s);
  for (uint32_t i = 0; i < h->dim; i++) {
    uint32_t n = h->cellsPerAxis[i];
    if (n < 1 || n > kMaxCells)
      return false;
    s->bounds[i] = (n - 1) * sizeof(double);
    numCells *= n;
  }
  if (h->numSimplices > fileSize / ((h->dim + 1) * sizeof(uint32_t)) ||
      h->numEntries > fileSize / sizeof(uint32_t))
    return false;
  s->points = (size_t)h->numPoints * h->dim * sizeof(double);
  s->ids = (size_t)h->numSimplices * (h->dim + 1) * sizeof(uint32_t);
  s->starts = (numCells + 1) * sizeof(uint64_t);
  s->entries = (size_t)h->numEntries * sizeof(uint32_t);
  return sizeof *h + s->points + s->ids + s->bounds[0] + s->bounds[1] +
             s->bounds[2] + s->starts + s->entries ==
         fileSize;
}

/* Checks the header of an entry of `fileSize` bytes against the query;
 * returns why it is unusable, or NULL. */
static const char *checkHeader(const EntryHeader *h, size_t fileSize,
                               size_t numPoints, int dim, Sections *s) {
  if (memcmp(h->magic, kMagic, sizeof kMagic))
    return "bad magic";
  if (h->version != kCacheVersion)
    return "unknown version";
  if (h->dim != (uint32_t)dim || h->numPoints != numPoints)
    return "wrong point set";
  if (!sectionsOf(h, fileSize, s))
    return "truncated or wrong size";
  return NULL;
}

/* Reads `size` bytes into a new array at `*out` and chains them into
 * `*checksum`; false when out of memory or short. */
static bool readSection(FILE *f, size_t size, void **out, uint64_t *checksum) {
  *out = malloc(size + 1);
  if (!*out || fread(*out, 1, size, f) != size)
    return false;
  *checksum = cmCacheHash(*out, size, *checksum);
  return true;
}

/* The arrays of one entry as read. */
typedef struct {
  double *points;
  uint32_t *ids;
  CmTriangulationGrid grid;
} Payload;

static void freePayload(Payload *p) {
  free(p->points);
  free(p->ids);
  for (int i = 0; i < 3; i++)
    free(p->grid.bounds[i]);
  free(p->grid.cellStart);
  free(p->grid.cellSimplices);
}

/* Reads the sections of an entry whose header `h` checked out; returns why
 * they are unusable, or NULL. A failed allocation is not corruption:
 * `*ok` tells whether the payload was read. */
static const char *readPayload(FILE *f, const EntryHeader *h, const Sections *s,
                               Payload *p, bool *ok) {
  uint64_t sum = kCacheVersion;
  *ok = readSection(f, s->points, (void **)&p->points, &sum) &&
        readSection(f, s->ids, (void **)&p->ids, &sum);
  for (uint32_t i = 0; *ok && i < 3; i++) {
    p->grid.cellsPerAxis[i] = i < h->dim ? (int)h->cellsPerAxis[i] : 0;
    if (i < h->dim)
      *ok = readSection(f, s->bounds[i], (void **)&p->grid.bounds[i], &sum);
  }
  *ok = *ok && readSection(f, s->starts, (void **)&p->grid.cellStart, &sum) &&
        readSection(f, s->entries, (void **)&p->grid.cellSimplices, &sum);
  if (!*ok)
    return NULL; /* out of memory (the size was checked): triangulate */
  if (sum != h->checksum)
    return "checksum mismatch";
  size_t numCells = s->starts / sizeof(uint64_t) - 1;
  if (p->grid.cellStart[numCells] != h->numEntries)
    return "cell offsets do not match the entry count";
  return NULL;
}

/* Loads the entry at `path` for these points; NULL when absent or unusable
 * (keeping a note when it is corrupt rather than merely absent). */
static CmTriangulation *readEntry(const char *path, const double *points,
                                  size_t numPoints, int dim) {
  struct stat st;
  int fd = cmCacheOpenEntry(path, &st);
  FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
  if (!f) {
    if (fd >= 0)
      close(fd);
    return NULL;
  }
  EntryHeader h;
  Sections sections;
  Payload p = {0};
  const char *why = NULL;
  bool ok = false;
  CmTriangulation *t = NULL;
  if ((size_t)st.st_size < sizeof h || fread(&h, sizeof h, 1, f) != 1)
    why = "truncated header";
  else if (!(why = checkHeader(&h, (size_t)st.st_size, numPoints, dim,
                               &sections)))
    why = readPayload(f, &h, &sections, &p, &ok);
  fclose(f);
  if (ok && !why && !memcmp(p.points, points, sections.points)) {
    t = cmTriangulationCreateFromGridOwned(points, numPoints, dim, p.ids,
                                           (size_t)h.numSimplices, &p.grid);
    if (!t)
      why = "an index out of range";
    p.ids = NULL, memset(&p.grid, 0, sizeof p.grid); /* taken (or freed) */
  } /* else another point set with the same hash: not corrupt */
  freePayload(&p);
  if (why)
    cmCacheNoteCorrupt(path, why);
  return t;
}

/*----------------------------------------------------------------- writing --*/

/* Stores the simplices and grid of `t` at `path`; failures are silent (the
 * next process triangulates again). */
static void writeEntry(const char *path, const CmTriangulation *t,
                       const double *points, size_t numPoints, int dim) {
  size_t numSimplices, numCells = 1;
  const uint32_t *ids = cmTriangulationGetSimplices(t, &numSimplices);
  CmTriangulationGrid grid;
  cmTriangulationGetGrid(t, &grid);
  EntryHeader h = {.version = kCacheVersion,
                   .dim = (uint32_t)dim,
                   .numPoints = numPoints,
                   .numSimplices = numSimplices};
  memcpy(h.magic, kMagic, sizeof kMagic);
  CmCacheChunk chunks[8] = {{&h, sizeof h},
                            {points, numPoints * dim * sizeof(double)},
                            {ids, numSimplices * (dim + 1) * sizeof *ids}};
  size_t n = 3;
  for (int i = 0; i < dim; i++) {
    h.cellsPerAxis[i] = (uint32_t)grid.cellsPerAxis[i];
    numCells *= (size_t)grid.cellsPerAxis[i];
    chunks[n++] = (CmCacheChunk){grid.bounds[i],
                                 (grid.cellsPerAxis[i] - 1) * sizeof(double)};
  }
  h.numEntries = grid.cellStart[numCells];
  chunks[n++] = (CmCacheChunk){grid.cellStart, (numCells + 1) * sizeof(size_t)};
  chunks[n++] = (CmCacheChunk){grid.cellSimplices,
                               h.numEntries * sizeof *grid.cellSimplices};
  h.checksum = kCacheVersion;
  for (size_t i = 1; i < n; i++)
    h.checksum = cmCacheHash(chunks[i].data, chunks[i].size, h.checksum);
  cmCacheWriteFile(path, chunks, n);
}

/*----------------------------------------------------------------- the API --*/

CmTriangulation *cmTriangulationCreateCached(const double *points,
                                             size_t numPoints, int dim,
                                             char *reason, size_t reasonSize) {
  char path[kCmCachePathSize];
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
