/*===- profile_tables.c - measured tables: tables/NAME.csv into groups -----===*
 *
 * Every row is checked as it is read: a missing column or an unparsable
 * number stops the load with "tables/x.csv:LINE: ..."; a NaN, infinite, zero
 * or negative latency drops the row and counts it. Files are read in name
 * order, so a profile loads the same way on every machine.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strncasecmp with the POSIX headers */
#include "profile.h"

#include "cm_error.h"
#include "csv_reader.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum { kMaxKernelsPerTable = 32, kRegimeKeySize = 512 };

/* Column positions of one kernel's policy within one table. */
typedef struct {
  char *kernel;
  CmPolicy const *policy;
  int axisColumn[CM_MAX_AXES];
  int regimeColumn[CM_MAX_REGIME];
} KernelColumns;

typedef struct {
  struct CmProfileImpl *profile;
  const char *name;                /* "tables/x.csv", for messages           */
  char lastRegime[kRegimeKeySize]; /* raw regime cells of the last row, */
  const KernelColumns *lastKernel; /* its kernel and its group: rows of */
  CmGroup *lastGroup;              /* one regime come in runs, so most  */
                                   /* rows skip canonicalising          */
  size_t numColumns;               /* header width                           */
  char *header[CM_CSV_MAX_FIELDS];
  int kernelColumn, latencyColumn;
  KernelColumns kernels[kMaxKernelsPerTable];
  size_t numKernels;
} TableReader;

static int findColumn(const TableReader *r, const char *column) {
  for (size_t i = 0; i < r->numColumns; i++)
    if (!strcmp(r->header[i], column))
      return (int)i;
  return -1;
}

static CmStatus readHeader(TableReader *r, char **fields, size_t n, size_t line,
                           CmError *err) {
  for (size_t i = 0; i < n; i++)
    if (!(r->header[r->numColumns++] = cmStrDup(fields[i])))
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  r->kernelColumn = findColumn(r, "kernel");
  r->latencyColumn = findColumn(r, "latency_us");
  const char *missing = r->kernelColumn < 0    ? "kernel"
                        : r->latencyColumn < 0 ? "latency_us"
                                               : NULL;
  if (missing)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: missing required column '%s' (header: "
                      "kernel, latency_us, axes, regime keys)",
                      r->name, line, missing);
  return CM_OK;
}

/* Finds or sets up the column mapping of `kernel` in this table. */
static CmStatus kernelColumns(TableReader *r, const char *kernel, size_t line,
                              const KernelColumns **out, CmError *err) {
  for (size_t i = 0; i < r->numKernels; i++)
    if (!strcmp(r->kernels[i].kernel, kernel)) {
      *out = &r->kernels[i];
      return CM_OK;
    }
  if (r->numKernels == kMaxKernelsPerTable)
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: more than %d kernels",
                      r->name, line, kMaxKernelsPerTable);
  const CmPolicy *policy = cmPolicySetFind(&r->profile->policies, kernel);
  if (!policy)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: kernel '%s' has no policy (add a policy.csv "
                      "row: kernel,axes,regime,transform)",
                      r->name, line, kernel);
  KernelColumns *k = &r->kernels[r->numKernels];
  k->policy = policy;
  for (int a = 0; a < policy->numAxes; a++)
    if ((k->axisColumn[a] = findColumn(r, policy->axes[a])) < 0)
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: missing required column '%s' (axis of '%s')",
                        r->name, line, policy->axes[a], kernel);
  for (int i = 0; i < policy->numRegime; i++)
    if ((k->regimeColumn[i] = findColumn(r, policy->regime[i])) < 0)
      return cmErrorSet(
          err, CM_ERR_FORMAT,
          "%s:%zu: missing required column '%s' (regime key of '%s')", r->name,
          line, policy->regime[i], kernel);
  if (!(k->kernel = cmStrDup(kernel)))
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  r->numKernels++;
  *out = k;
  return CM_OK;
}

/* Joins the canonical regime values of a row with '\x1f'. */
static void regimeKeyOf(const CmPolicy *policy, const int *columns,
                        char **fields, char *key) {
  size_t used = 0;
  key[0] = '\0';
  for (int i = 0; i < policy->numRegime; i++) {
    char value[128];
    cmCanonicalRegimeValue(policy->regime[i], fields[columns[i]], value,
                           sizeof value);
    used += (size_t)snprintf(key + used, kRegimeKeySize - used, "%s%s",
                             i ? "\x1f" : "", value);
    if (used >= kRegimeKeySize)
      used = kRegimeKeySize - 1;
  }
}

/* The group of a row: the last row's when kernel and raw regime cells are
 * the same (canonicalising numbers with %.17g is the cost of loading). */
static CmGroup *groupOfRow(TableReader *r, const KernelColumns *k,
                           char **fields) {
  char raw[kRegimeKeySize];
  size_t used = 0;
  for (int i = 0; i < k->policy->numRegime; i++) {
    const char *cell = fields[k->regimeColumn[i]];
    size_t n = strlen(cell);
    if (used + n + 2 > sizeof raw)
      break; /* an absurd regime: compared truncated, canonicalised fully */
    memcpy(raw + used, cell, n);
    used += n;
    raw[used++] = '\x1f';
  }
  raw[used] = '\0';
  if (r->lastGroup && r->lastKernel == k && !strcmp(raw, r->lastRegime))
    return r->lastGroup;
  char key[kRegimeKeySize];
  regimeKeyOf(k->policy, k->regimeColumn, fields, key);
  CmGroup *g =
      cmGroupSetFind(&r->profile->groups, k->kernel, key, k->policy, true);
  r->lastKernel = k;
  r->lastGroup = g;
  snprintf(r->lastRegime, sizeof r->lastRegime, "%s", raw);
  return g;
}

static CmStatus readRow(void *context, char **fields, size_t n, size_t line,
                        CmError *err) {
  TableReader *r = context;
  if (r->numColumns == 0)
    return readHeader(r, fields, n, line, err);
  if (n != r->numColumns)
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: %zu fields, header has %zu",
                      r->name, line, n, r->numColumns);
  const KernelColumns *k = NULL;
  CmStatus status = kernelColumns(r, fields[r->kernelColumn], line, &k, err);
  if (status != CM_OK)
    return status;
  double x[CM_MAX_AXES], latency;
  for (int a = 0; a < k->policy->numAxes; a++) {
    const char *cell = fields[k->axisColumn[a]];
    if (!cmParseNumber(cell, &x[a]) || !isfinite(x[a]))
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: column '%s': '%.40s' is not a finite number",
                        r->name, line, k->policy->axes[a], cell);
  }
  const char *cell = fields[r->latencyColumn];
  if (!cmParseNumber(cell, &latency))
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: column 'latency_us': '%.40s' is not a number",
                      r->name, line, cell);
  CmGroup *g = groupOfRow(r, k, fields);
  if (!g)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  if (!isfinite(latency) || latency <= 0) {
    g->numDropped++;
    r->profile->numDropped++;
    return CM_OK;
  }
  if (cmGroupAppend(g, x, latency) != CM_OK)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  r->profile->numRows++;
  return CM_OK;
}

/* Maps all of `path` read-only; NULL on failure (an empty file maps to a
 * static empty buffer). Release with unmapWhole. */
static char *mapWhole(const char *path, size_t *size) {
  static char empty[1];
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return NULL;
  struct stat st;
  char *data = NULL;
  if (fstat(fd, &st) == 0) {
    *size = (size_t)st.st_size;
    data = *size ? mmap(NULL, *size, PROT_READ, MAP_PRIVATE, fd, 0) : empty;
    if (data == MAP_FAILED)
      data = NULL;
  }
  close(fd);
  return data;
}

static void unmapWhole(char *data, size_t size) {
  if (size)
    munmap(data, size);
}

/* First occurrence of needle[0..n) in data[0..size), or NULL. memchr on the
 * first byte, then memcmp: for the short needles here (kernel names,
 * dtypes) several times faster than glibc's general memmem. */
static const char *findBytes(const char *data, size_t size, const char *needle,
                             size_t n) {
  if (n == 0 || n > size)
    return n == 0 ? data : NULL;
  const char *last = data + size - n;
  for (const char *at = data;
       at <= last && (at = memchr(at, needle[0], (size_t)(last - at) + 1));
       at++)
    if (!memcmp(at + 1, needle + 1, n - 1))
      return at;
  return NULL;
}

static bool isDelimiter(char c) {
  return c == ',' || c == '"' || c == '\n' || c == '\r';
}

/* True when `name` occurs in `data` as a whole CSV field: bounded by the
 * start, a comma, a quote or a line end on both sides. After a candidate
 * that is not a whole field ("attention" in "attention_decode", on every
 * row), the search resumes past it: a field cannot start inside `name`,
 * which holds no delimiter (the callers treat names with quotes apart). */
static bool hasField(const char *data, size_t size, const char *name) {
  size_t n = strlen(name);
  for (const char *at = data, *end = data + size;
       (at = findBytes(at, (size_t)(end - at), name, n)); at += n) {
    char before = at == data ? '\n' : at[-1];
    char after = at + n == end ? '\n' : at[n];
    if (isDelimiter(before) && isDelimiter(after))
      return true;
  }
  return false;
}

/* True when `name` occurs as a whole field, ignoring case. Candidates are
 * found with memchr on the first letter in both cases (fast on large
 * tables), then compared. */
static bool hasFieldNoCase(const char *data, size_t size, const char *name) {
  size_t n = strlen(name);
  const char firsts[2] = {(char)tolower((unsigned char)name[0]),
                          (char)toupper((unsigned char)name[0])};
  for (int c = 0; c < (firsts[0] == firsts[1] ? 1 : 2); c++)
    for (const char *at = data, *end = data + size;
         (at = memchr(at, firsts[c], (size_t)(end - at))); at++)
      if ((at == data || isDelimiter(at[-1])) && (size_t)(end - at) >= n &&
          !strncasecmp(at, name, n) && (at + n == end || isDelimiter(at[n])))
        return true;
  return false;
}

/* True when a cell of `data` may canonicalise to dtype `canonical`: the
 * canonical spelling exactly, or an alias of it in any case. */
static bool hasDtypeField(const char *data, size_t size,
                          const char *canonical) {
  const char *aliases[16];
  size_t n = cmDtypeAliasesOf(canonical, aliases, 16);
  if (hasField(data, size, canonical))
    return true;
  for (size_t i = 0; i < n; i++)
    if (hasFieldNoCase(data, size, aliases[i]))
      return true;
  return false;
}

/* True when `data` may hold a row for one of `needs`: such a row has the
 * table kernel as a whole field and a cell for each of its element types
 * (names with quotes would be escaped in CSV: then assume yes). */
static bool mayAnswer(const char *data, size_t size, const CmTableNeed *needs,
                      size_t numNeeds) {
  for (size_t i = 0; i < numNeeds; i++) {
    const CmTableNeed *need = &needs[i];
    if (!strchr(need->kernel, '"') && !hasField(data, size, need->kernel))
      continue;
    bool all = true; /* needOf lists each distinct element type once */
    for (int d = 0; d < need->numDtypes && all; d++)
      all = hasDtypeField(data, size, need->dtypes[d]);
    if (all)
      return true;
  }
  return false;
}

/* Parses one table; with `needs`, skips it unparsed when its bytes could
 * hold a row for none of them. */
static CmStatus loadTable(struct CmProfileImpl *profile, const char *path,
                          const char *name, const CmTableNeed *needs,
                          size_t numNeeds, CmError *err) {
  TableReader reader = {.profile = profile, .name = name};
  CmStatus status;
  if (needs) { /* scan the bytes first: cheap next to parsing */
    size_t size = 0;
    char *data = mapWhole(path, &size);
    if (!data)
      return cmErrorSet(err, CM_ERR_IO, "%s: cannot read", name);
    bool needed = mayAnswer(data, size, needs, numNeeds);
    unmapWhole(data, size);
    if (!needed)
      return CM_OK; /* no row could answer the needs: not parsed */
  }
  status = cmCsvReadFile(path, name, readRow, &reader, err);
  if (status == CM_OK && reader.numColumns == 0)
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:1: empty table, no header", name);
  for (size_t i = 0; i < reader.numColumns; i++)
    free(reader.header[i]);
  for (size_t i = 0; i < reader.numKernels; i++)
    free(reader.kernels[i].kernel);
  return status;
}

static int compareNames(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool isCsvName(const char *name) {
  size_t n = strlen(name);
  return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".csv");
}

CmStatus cmProfileLoadTables(struct CmProfileImpl *profile,
                             const CmTableNeed *needs, size_t numNeeds,
                             CmError *err) {
  char dirPath[4096];
  snprintf(dirPath, sizeof dirPath, "%s/tables", profile->dir);
  DIR *dir = opendir(dirPath);
  if (!dir)
    return CM_OK; /* a profile may be roofline-only */
  char **names = NULL;
  size_t count = 0, capacity = 0;
  CmStatus status = CM_OK;
  for (struct dirent *e; status == CM_OK && (e = readdir(dir));) {
    if (!isCsvName(e->d_name))
      continue;
    if (count == capacity) {
      capacity = capacity ? 2 * capacity : 16;
      char **grown = realloc(names, capacity * sizeof *names);
      if (!grown) {
        status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
        break;
      }
      names = grown;
    }
    if (!(names[count] = cmStrDup(e->d_name)))
      status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    else
      count++;
  }
  closedir(dir);
  if (count)
    qsort(names, count, sizeof *names, compareNames);
  for (size_t i = 0; status == CM_OK && i < count; i++) {
    char path[4096 + 256], name[300];
    snprintf(path, sizeof path, "%s/%s", dirPath, names[i]);
    snprintf(name, sizeof name, "tables/%s", names[i]);
    status = loadTable(profile, path, name, needs, numNeeds, err);
  }
  for (size_t i = 0; i < count; i++)
    free(names[i]);
  free(names);
  return status;
}
