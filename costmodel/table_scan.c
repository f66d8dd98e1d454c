/*===- table_scan.c - search a table's bytes for the fields needs name -----===*
 *
 * Every string looked for (each need's kernel, each element type and its
 * aliases) is a "needle". The file is mapped and searched once per distinct
 * first byte of the needles, with memchr, every needle with that first byte
 * compared at each hit. Searching needle by needle instead made BERT's f32
 * queries read the 17 MB of shipped tables eleven times (f32, "float32" and
 * "float" in two cases each, per kernel), half of the pass's own time.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strncasecmp and MAP_POPULATE with the POSIX headers */
#include "table_scan.h"

#include "cm_error.h"
#include "dtype.h"
#include "policy.h"

#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kMaxAliases = 16 };

/* One string looked for as a whole field. */
typedef struct {
  const char *text;
  size_t length;
  bool anyCase; /* aliases match in any case, canonical names exactly */
  bool found;
} Needle;

/* What one need asks for, as needle indexes: its kernel (-1: the kernel
 * holds a quote, would be escaped in CSV, so it is assumed present) and,
 * per element type, the run [dtypeFirst[d], dtypeFirst[d + 1]) of
 * alternatives. */
typedef struct {
  int kernel;
  int numDtypes;
  int dtypeFirst[CM_MAX_REGIME + 1];
} NeedNeedles;

typedef struct {
  Needle *needles;
  size_t count, capacity;
  NeedNeedles *needs;
  bool scanned[256]; /* first bytes already searched for */
} Search;

/* Index of the needle (text, anyCase), added if new; -1 when out of
 * memory. */
static int needleIndex(Search *s, const char *text, bool anyCase) {
  for (size_t i = 0; i < s->count; i++)
    if (s->needles[i].anyCase == anyCase && !strcmp(s->needles[i].text, text))
      return (int)i;
  if (s->count == s->capacity) {
    size_t capacity = s->capacity ? 2 * s->capacity : 16;
    Needle *grown = realloc(s->needles, capacity * sizeof *grown);
    if (!grown)
      return -1;
    s->needles = grown;
    s->capacity = capacity;
  }
  s->needles[s->count] = (Needle){text, strlen(text), anyCase, false};
  return (int)s->count++;
}

/* Appends the alternatives of `canonical` as a contiguous run of needle
 * indexes to `runs` (from `*numRuns`); false when out of memory. */
static bool addDtypeRun(Search *s, const char *canonical, int **runs,
                        size_t *numRuns, size_t *capacity) {
  const char *aliases[kMaxAliases];
  size_t numAliases = cmDtypeAliasesOf(canonical, aliases, kMaxAliases);
  if (*numRuns + numAliases + 1 > *capacity) {
    size_t grown = 2 * (*capacity + numAliases + 1);
    int *more = realloc(*runs, grown * sizeof *more);
    if (!more)
      return false;
    *runs = more;
    *capacity = grown;
  }
  int index = needleIndex(s, canonical, false);
  if (index < 0)
    return false;
  (*runs)[(*numRuns)++] = index;
  for (size_t a = 0; a < numAliases; a++) {
    if ((index = needleIndex(s, aliases[a], true)) < 0)
      return false;
    (*runs)[(*numRuns)++] = index;
  }
  return true;
}

/* Needles for every need; `*alternatives` holds the dtype runs the needs'
 * dtypeFirst offsets point into. False when out of memory. */
static bool addNeedles(Search *s, const CmTableNeed *needs, size_t numNeeds,
                       int **alternatives) {
  size_t numRuns = 0, capacity = 0;
  for (size_t i = 0; i < numNeeds; i++) {
    NeedNeedles *n = &s->needs[i];
    bool quoted = strchr(needs[i].kernel, '"') != NULL;
    n->kernel = quoted ? -1 : needleIndex(s, needs[i].kernel, false);
    if (!quoted && n->kernel < 0)
      return false; /* out of memory */
    n->numDtypes = needs[i].numDtypes;
    for (int d = 0; d < n->numDtypes; d++) {
      n->dtypeFirst[d] = (int)numRuns;
      if (!addDtypeRun(s, needs[i].dtypes[d], alternatives, &numRuns,
                       &capacity))
        return false;
    }
    n->dtypeFirst[n->numDtypes] = (int)numRuns;
  }
  return true;
}

/* What may surround a field's text: libcsv trims spaces and tabs around
 * unquoted fields, so " bf16" is the field bf16. */
static bool isDelimiter(char c) {
  return c == ',' || c == '"' || c == '\n' || c == '\r' || c == ' ' ||
         c == '\t';
}

static bool startsWith(const Needle *n, unsigned char byte) {
  unsigned char first = (unsigned char)n->text[0];
  return n->anyCase ? tolower(first) == tolower(byte) : first == byte;
}

/* A needle is settled when found, or when every byte it may start with has
 * been searched for. */
static bool isSettled(const Search *s, const Needle *n) {
  unsigned char first = (unsigned char)n->text[0];
  return n->found ||
         (n->anyCase ? s->scanned[tolower(first)] && s->scanned[toupper(first)]
                     : s->scanned[first]);
}

/* Marks the needles starting with `byte` that occur in data as whole
 * fields; stops early once all of them are found. */
static void searchByte(Search *s, const char *data, size_t size,
                       unsigned char byte) {
  const char *end = data + size;
  size_t open = 0;
  for (size_t i = 0; i < s->count; i++)
    open += !s->needles[i].found && startsWith(&s->needles[i], byte);
  for (const char *at = data;
       open && (at = memchr(at, byte, (size_t)(end - at))); at++) {
    if (at != data && !isDelimiter(at[-1]))
      continue;
    for (size_t i = 0; i < s->count; i++) {
      Needle *n = &s->needles[i];
      if (n->found || !startsWith(n, byte) || (size_t)(end - at) < n->length)
        continue;
      bool same = n->anyCase ? !strncasecmp(at, n->text, n->length)
                             : !memcmp(at, n->text, n->length);
      if (same && (at + n->length == end || isDelimiter(at[n->length]))) {
        n->found = true;
        open--;
      }
    }
  }
  s->scanned[byte] = true;
}

enum Verdict { kUnknown, kYes, kNo };

/* Whether some need is met (yes), none can be (no), or it is not known yet. */
static enum Verdict verdictOf(const Search *s, size_t numNeeds,
                              const int *alternatives) {
  bool open = false;
  for (size_t i = 0; i < numNeeds; i++) {
    const NeedNeedles *n = &s->needs[i];
    bool possible = true, met = true;
    if (n->kernel >= 0) {
      const Needle *k = &s->needles[n->kernel];
      met = k->found;
      possible = k->found || !isSettled(s, k);
    }
    for (int d = 0; d < n->numDtypes && possible; d++) {
      bool anyFound = false, anyOpen = false;
      for (int a = n->dtypeFirst[d]; a < n->dtypeFirst[d + 1]; a++) {
        const Needle *alt = &s->needles[alternatives[a]];
        anyFound |= alt->found;
        anyOpen |= !isSettled(s, alt);
      }
      met &= anyFound;
      possible &= anyFound || anyOpen;
    }
    if (met)
      return kYes;
    open |= possible;
  }
  return open ? kUnknown : kNo;
}

/* The bytes to search for, kernels' first bytes first (a table without
 * the kernel is ruled out before its element types are looked at). */
static size_t searchOrder(const Search *s, size_t numNeeds,
                          unsigned char order[256]) {
  bool listed[256] = {false};
  size_t count = 0;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < s->count; i++) {
      bool isKernel = false;
      for (size_t k = 0; k < numNeeds && !isKernel; k++)
        isKernel = s->needs[k].kernel == (int)i;
      if (isKernel != (pass == 0))
        continue;
      unsigned char first = (unsigned char)s->needles[i].text[0];
      unsigned char cases[2] = {first, first};
      if (s->needles[i].anyCase) {
        cases[0] = (unsigned char)tolower(first);
        cases[1] = (unsigned char)toupper(first);
      }
      for (int c = 0; c < 2; c++)
        if (!listed[cases[c]]) {
          listed[cases[c]] = true;
          order[count++] = cases[c];
        }
    }
  return count;
}

static bool searchMayAnswer(Search *s, const char *data, size_t size,
                            size_t numNeeds, const int *alternatives) {
  unsigned char order[256];
  size_t numBytes = searchOrder(s, numNeeds, order);
  enum Verdict verdict = verdictOf(s, numNeeds, alternatives);
  for (size_t b = 0; b < numBytes && verdict == kUnknown; b++) {
    searchByte(s, data, size, order[b]);
    verdict = verdictOf(s, numNeeds, alternatives);
  }
  return verdict != kNo;
}

CmStatus cmTableScanMayAnswer(const char *path, const char *name,
                              const CmTableNeed *needs, size_t numNeeds,
                              bool *mayAnswer, CmError *err) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    if (fd >= 0)
      close(fd);
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot read", name);
  }
  size_t size = (size_t)st.st_size;
  /* MAP_POPULATE maps the whole (page-cached) file in one call instead of
   * one page fault per 4 KiB. */
  char *data =
      size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0)
           : NULL;
  close(fd);
  if (data == MAP_FAILED)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot read", name);
  Search search = {.needs =
                       calloc(numNeeds ? numNeeds : 1, sizeof *search.needs)};
  int *alternatives = NULL;
  CmStatus status = CM_OK;
  if (!search.needs || !addNeedles(&search, needs, numNeeds, &alternatives))
    status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  else
    *mayAnswer = searchMayAnswer(&search, size ? data : "", size, numNeeds,
                                 alternatives);
  free(alternatives);
  free(search.needles);
  free(search.needs);
  if (size)
    munmap(data, size);
  return status;
}
