/*===- cache_file.c - the on-disk cache's directory, hashes, files, notes --===*
 *
 * The invariant every entry kind builds on: a file at an entry's path is
 * always complete, because writers write a uniquely named temporary file
 * and rename() it into place; two processes building the same entry at once
 * both succeed and the later rename wins with identical content.
 *
 *===----------------------------------------------------------------------===*/
#include "cache_file.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static pthread_mutex_t gNoteLock = PTHREAD_MUTEX_INITIALIZER;
static char gNotes[2 * kCmCachePathSize]; /* corrupt entries, "" when none */
static atomic_uint gTempCounter; /* distinct temporary names per process */

/* One step of a lane: FNV-1a's multiply, then a shift to mix high bits
 * back down. */
static uint64_t mixWord(uint64_t h, const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  h = (h ^ w) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

uint64_t cmCacheHash(const void *data, size_t size, uint64_t h) {
  const unsigned char *p = data;
  if (size >= 32) { /* four independent lanes: the multiplies overlap */
    uint64_t lane[4] = {h, h ^ 0x9e3779b97f4a7c15ull, h + 0x632be59bd9b4e019ull,
                        ~h};
    for (; size >= 32; p += 32, size -= 32)
      for (int i = 0; i < 4; i++)
        lane[i] = mixWord(lane[i], p + 8 * i);
    for (int i = 0; i < 4; i++)
      h = (h ^ lane[i]) * 0xff51afd7ed558ccdull, h ^= h >> 32;
  }
  for (; size >= 8; p += 8, size -= 8)
    h = mixWord(h, p);
  for (; size; p++, size--)
    h = (h ^ *p) * 0x100000001b3ull;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

static bool makeDir(const char *path) {
  return mkdir(path, 0755) == 0 || errno == EEXIST;
}

bool cmCacheDir(char *dir, size_t size) {
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

bool cmCacheWriteFile(const char *path, const CmCacheChunk *chunks,
                      size_t numChunks) {
  char temp[kCmCachePathSize + 64];
  snprintf(temp, sizeof temp, "%s.tmp.%ld.%u", path, (long)getpid(),
           atomic_fetch_add(&gTempCounter, 1));
  FILE *f = fopen(temp, "wb");
  bool ok = f != NULL;
  for (size_t i = 0; ok && i < numChunks; i++)
    ok = fwrite(chunks[i].data, 1, chunks[i].size, f) == chunks[i].size;
  if (f && fclose(f) != 0)
    ok = false;
  if (!ok || rename(temp, path) != 0) {
    remove(temp);
    return false;
  }
  return true;
}

int cmCacheOpenEntry(const char *path, struct stat *st) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return -1; /* not built yet */
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    close(fd);
    cmCacheNoteCorrupt(path, "not a regular file");
    return -1;
  }
  return fd;
}

bool cmCacheReadEntry(const char *path, void *buffer, size_t size, ssize_t *n) {
  struct stat st;
  int fd = cmCacheOpenEntry(path, &st);
  if (fd < 0)
    return false;
  *n = read(fd, buffer, size);
  close(fd);
  return true;
}

void cmCacheNoteCorrupt(const char *path, const char *why) {
  pthread_mutex_lock(&gNoteLock);
  size_t used = strlen(gNotes);
  snprintf(gNotes + used, sizeof gNotes - used,
           "%scache entry %s is corrupt (%s); rebuilt", used ? "\n" : "", path,
           why);
  pthread_mutex_unlock(&gNoteLock);
}

bool cmCacheTakeNotes(char *notes, size_t size) {
  pthread_mutex_lock(&gNoteLock);
  bool any = gNotes[0] != '\0';
  if (any)
    snprintf(notes, size, "%s", gNotes);
  gNotes[0] = '\0';
  pthread_mutex_unlock(&gNoteLock);
  return any;
}
