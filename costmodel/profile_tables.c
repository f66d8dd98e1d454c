/*===- profile_tables.c - measured tables: tables/NAME.csv into groups -----===*
 *
 * Every row is checked as it is read: a missing column, an unparsable
 * number or an axis value outside its policy transform's domain stops the
 * load with "tables/x.csv:LINE: ..."; a NaN, infinite, zero or negative
 * latency drops the row and counts it. Files are read in name order, so a
 * profile loads the same way on every machine. A table parsed once is
 * loaded from its snapshot afterwards (table_snapshot.h), with the same
 * groups; a table scanned once for some needs is not scanned for them again
 * (scan_verdict.h).
 *
 *===----------------------------------------------------------------------===*/
#include "profile.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"
#include "scan_verdict.h"
#include "table_scan.h"
#include "table_snapshot.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* kRegimeValueMax and kRegimeKeySize match the query side (estimate.c). */
enum { kMaxKernelsPerTable = 32, kRegimeValueMax = 127, kRegimeKeySize = 512 };

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
  CmTableRun *runs; /* groups this table added to, in first-seen order, */
  size_t numRuns;   /* for its snapshot                                 */
  size_t runCapacity;
} TableReader;

/* Records that this table adds to `g` (once per group); false when out of
 * memory. */
static bool noteRun(TableReader *r, CmGroup *g) {
  for (size_t i = r->numRuns; i-- > 0;)
    if (r->runs[i].group == g)
      return true;
  if (r->numRuns == r->runCapacity) {
    size_t capacity = r->runCapacity ? 2 * r->runCapacity : 16;
    CmTableRun *grown = realloc(r->runs, capacity * sizeof *grown);
    if (!grown)
      return false;
    r->runs = grown;
    r->runCapacity = capacity;
  }
  r->runs[r->numRuns++] = (CmTableRun){g, g->numRows, g->numDropped};
  return true;
}

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

/* Joins the canonical regime values of a row with '\x1f' into `key`; false
 * when one is longer than kRegimeValueMax bytes or all are longer than
 * kRegimeKeySize - 1 (a query's key is built the same way, estimate.c). */
static bool regimeKeyOf(const CmPolicy *policy, const int *columns,
                        char **fields, char *key) {
  size_t used = 0;
  key[0] = '\0';
  for (int i = 0; i < policy->numRegime; i++) {
    char value[kRegimeValueMax + 2];
    cmCanonicalRegimeValue(policy->regime[i], fields[columns[i]], value,
                           sizeof value);
    if (strlen(value) > kRegimeValueMax)
      return false;
    used += (size_t)snprintf(key + used, kRegimeKeySize - used, "%s%s",
                             i ? "\x1f" : "", value);
    if (used >= kRegimeKeySize)
      return false;
  }
  return true;
}

/* Sets `*out` to the group of a row: the last row's when kernel and raw
 * regime cells are the same (canonicalising numbers with %.17g is the cost
 * of loading); a format error when its regime values are too long. */
static CmStatus groupOfRow(TableReader *r, const KernelColumns *k,
                           char **fields, size_t line, CmGroup **out,
                           CmError *err) {
  char raw[kRegimeKeySize];
  size_t used = 0;
  bool cacheable = true; /* raw cells fit: they name the regime */
  for (int i = 0; i < k->policy->numRegime; i++) {
    const char *cell = fields[k->regimeColumn[i]];
    size_t n = strlen(cell);
    if (used + n + 2 > sizeof raw) {
      cacheable = false; /* "1.000...0" may still canonicalise short */
      break;
    }
    memcpy(raw + used, cell, n);
    used += n;
    raw[used++] = '\x1f';
  }
  raw[used] = '\0';
  if (cacheable && r->lastGroup && r->lastKernel == k &&
      !strcmp(raw, r->lastRegime)) {
    *out = r->lastGroup;
    return CM_OK;
  }
  char key[kRegimeKeySize];
  if (!regimeKeyOf(k->policy, k->regimeColumn, fields, key))
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: regime values longer than %d bytes (or %d "
                      "together)",
                      r->name, line, kRegimeValueMax, kRegimeKeySize - 1);
  CmGroup *g =
      cmGroupSetFind(&r->profile->groups, k->kernel, key, k->policy, true);
  if (!g || !noteRun(r, g))
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  r->lastKernel = k;
  r->lastGroup = cacheable ? g : NULL;
  snprintf(r->lastRegime, sizeof r->lastRegime, "%s", raw);
  *out = g;
  return CM_OK;
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
    if (isnan(cmTransformApply(k->policy->transforms[a], x[a])))
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: column '%s': '%.40s' is outside the domain of "
                        "its transform (log: > 0, sqrt: >= 0)",
                        r->name, line, k->policy->axes[a], cell);
  }
  for (int i = 0; i < k->policy->numRegime; i++) /* the key's separator */
    if (strchr(fields[k->regimeColumn[i]], '\x1f'))
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: column '%s': a regime value may not hold "
                        "the byte 0x1f",
                        r->name, line, k->policy->regime[i]);
  const char *cell = fields[r->latencyColumn];
  if (!cmParseNumber(cell, &latency))
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: column 'latency_us': '%.40s' is not a number",
                      r->name, line, cell);
  CmGroup *g;
  if ((status = groupOfRow(r, k, fields, line, &g, err)) != CM_OK)
    return status;
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

/* Parses one table into `profile` and, with a snapshot `key`, stores what
 * it added. */
static CmStatus parseTable(struct CmProfileImpl *profile, const char *path,
                           const char *name, const CmTableSnapshotKey *key,
                           CmError *err) {
  TableReader reader = {.profile = profile, .name = name};
  CmStatus status = cmCsvReadFile(path, name, readRow, &reader, err);
  if (status == CM_OK && reader.numColumns == 0)
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:1: empty table, no header", name);
  if (status == CM_OK && key)
    cmTableSnapshotStore(key, reader.runs, reader.numRuns);
  for (size_t i = 0; i < reader.numColumns; i++)
    free(reader.header[i]);
  for (size_t i = 0; i < reader.numKernels; i++)
    free(reader.kernels[i].kernel);
  free(reader.runs);
  return status;
}

/* Loads one table, from its snapshot when the cache holds a good one; with
 * `needs`, skips it unparsed when its bytes could hold a row for none of
 * them (a verdict the cache keeps too). */
static CmStatus loadTable(struct CmProfileImpl *profile, const char *path,
                          const char *name, const CmTableNeed *needs,
                          size_t numNeeds, CmError *err) {
  CmStatus status;
  CmTableSnapshotKey key;
  bool cached = cmTableSnapshotKeyOf(profile, path, &key);
  if (needs) { /* search the bytes first: cheap next to parsing */
    bool needed = false;
    status = cached ? cmScanVerdictMayAnswer(&key, path, name, needs, numNeeds,
                                             &needed, err)
                    : cmTableScanMayAnswer(path, name, needs, numNeeds, &needed,
                                           err);
    if (status != CM_OK || !needed)
      return status; /* else no row could answer the needs: not parsed */
  }
  bool loaded = false;
  if (cached &&
      (status = cmTableSnapshotLoad(profile, &key, &loaded, err)) != CM_OK)
    return status;
  return loaded ? CM_OK
                : parseTable(profile, path, name, cached ? &key : NULL, err);
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
    char path[4096 + 256], name[300]; /* a file name has at most 255 bytes */
    snprintf(name, sizeof name, "tables/%s", names[i]);
    status = cmPathJoin(path, sizeof path, dirPath, names[i], err);
    if (status == CM_OK)
      status = loadTable(profile, path, name, needs, numNeeds, err);
  }
  for (size_t i = 0; i < count; i++)
    free(names[i]);
  free(names);
  return status;
}
