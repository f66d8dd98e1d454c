/*===- files.c - directories, copies and CSV cells ------------------------===*/
#define _XOPEN_SOURCE 700 /* nftw */
#include "files.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool lpMakeDirs(const char *path, char *err, size_t size) {
  char buffer[4096];
  snprintf(buffer, sizeof buffer, "%s", path);
  for (char *p = buffer + 1;; p++) {
    bool end = *p == '\0';
    if (*p != '/' && !end)
      continue;
    *p = '\0';
    if (mkdir(buffer, 0755) != 0 && errno != EEXIST) {
      snprintf(err, size, "cannot create %s: %s", buffer, strerror(errno));
      return false;
    }
    if (end)
      return true;
    *p = '/';
  }
}

bool lpCopyFile(const char *from, const char *to, char *err, size_t size) {
  FILE *in = fopen(from, "rb");
  FILE *out = in ? fopen(to, "wb") : NULL;
  char chunk[8192];
  size_t n;
  bool ok = in && out;
  while (ok && (n = fread(chunk, 1, sizeof chunk, in)) > 0)
    ok = fwrite(chunk, 1, n, out) == n;
  if (in)
    fclose(in);
  if (out && fclose(out) != 0)
    ok = false;
  if (!ok)
    snprintf(err, size, "cannot copy %s to %s", from, to);
  return ok;
}

static const char *tmpDir(void) {
  const char *tmp = getenv("TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

bool lpScratchTemplate(const char *name, char *out, size_t size) {
  int n = snprintf(out, size, "%s/%s-XXXXXX", tmpDir(), name);
  return n > 0 && (size_t)n < size;
}

bool lpJitDumpDir(long pid, char *out, size_t size) {
  int n = snprintf(out, size, "%s/latency-jit-%ld", tmpDir(), pid);
  return n > 0 && (size_t)n < size;
}

static bool removedAll; /* nftw's callback has no context of its own */

static int removeEntry(const char *path, const struct stat *st, int flag,
                       struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  removedAll &= remove(path) == 0;
  return 0; /* on with the rest */
}

bool lpRemoveTree(const char *dir) {
  removedAll = true;
  /* depth first, links not followed: a directory after what it holds */
  return nftw(dir, removeEntry, 16, FTW_DEPTH | FTW_PHYS) == 0 && removedAll;
}

void lpRemoveCsvFiles(const char *dir) {
  DIR *d = opendir(dir);
  if (!d)
    return;
  for (struct dirent *e = readdir(d); e; e = readdir(d)) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".csv")) {
      char path[4400];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  }
  closedir(d);
}

void lpCsvCell(FILE *out, const char *text) {
  size_t n = strlen(text);
  bool quote = n && (strpbrk(text, ",\"\r\n") || text[0] == ' ' ||
                     text[n - 1] == ' ' || text[0] == '\t');
  if (!quote) {
    fputs(text, out);
    return;
  }
  fputc('"', out);
  for (const char *c = text; *c; c++) {
    if (*c == '"')
      fputc('"', out);
    fputc(*c, out);
  }
  fputc('"', out);
}

bool lpWriteTextFile(const char *path, const char *text) {
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  bool written = fputs(text, out) >= 0;
  return fclose(out) == 0 && written;
}

const char *lpBaseName(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* Copies CSV cell `cell` (up to the line end; quotes undone) into `out`. */
static void unquoteCell(const char *cell, char *out, size_t size) {
  size_t n = 0;
  bool quoted = *cell == '"';
  for (const char *c = cell + quoted; *c && n + 1 < size; c++) {
    if (quoted && *c == '"' && c[1] == '"')
      c++;
    else if (quoted && *c == '"')
      break;
    else if (!quoted && (*c == '\n' || *c == '\r'))
      break;
    out[n++] = *c;
  }
  out[n] = '\0';
}

bool lpReadKeyValue(const char *path, const char *key, char *out, size_t size) {
  FILE *in = fopen(path, "r");
  if (!in)
    return false;
  char line[8192];
  size_t keyLength = strlen(key);
  bool found = false;
  while (!found && fgets(line, sizeof line, in))
    if (!strncmp(line, key, keyLength) && line[keyLength] == ',') {
      unquoteCell(line + keyLength + 1, out, size);
      found = true;
    }
  fclose(in);
  return found;
}
