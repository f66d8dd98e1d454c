/*===- profile.c - loading a profile directory, device and fusion data -----===*
 *
 * A profile is loaded completely (device.csv, fusion.csv, policy.csv,
 * tables/NAME.csv) or not at all: on any error everything read so far is freed
 * and the caller gets the first error with its file and line.
 *
 *===----------------------------------------------------------------------===*/
#include "profile.h"

#include "dtype.h"
#include "work.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*------------------------------------------------------- two-column CSVs --*/

/* Reads a CSV whose header names `first` and `second` into pairs. With a
 * `filter` column named, a row is kept only when that column is absent or
 * reads `keep` (fusion.csv written from measurements lists the pairs that
 * did not pay too, as `decision` = `no`, so the file can be audited). */
typedef struct {
  const char *name;
  const char *columns[2];
  int position[2];    /* column of each wanted field        */
  const char *filter; /* optional column, or NULL           */
  const char *keep;   /* the value of `filter` that keeps a row */
  int filterPosition; /* its column, or -1                  */
  bool sawHeader;
  char **pairs; /* 2 * count strings                  */
  size_t count, capacity;
} PairReader;

static CmStatus readPair(void *context, char **fields, size_t n, size_t line,
                         CmError *err) {
  PairReader *r = context;
  if (!r->sawHeader) {
    for (int c = 0; c < 2; c++) {
      r->position[c] = -1;
      for (size_t i = 0; i < n; i++)
        if (!strcmp(fields[i], r->columns[c]))
          r->position[c] = (int)i;
      if (r->position[c] < 0)
        return cmErrorSet(err, CM_ERR_FORMAT,
                          "%s:%zu: missing required column '%s'", r->name, line,
                          r->columns[c]);
    }
    r->filterPosition = -1;
    for (size_t i = 0; r->filter && i < n; i++)
      if (!strcmp(fields[i], r->filter))
        r->filterPosition = (int)i;
    r->sawHeader = true;
    return CM_OK;
  }
  for (int c = 0; c < 2; c++)
    if ((size_t)r->position[c] >= n)
      return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: missing field '%s'",
                        r->name, line, r->columns[c]);
  if (r->filterPosition >= 0 && (size_t)r->filterPosition < n &&
      strcmp(fields[r->filterPosition], r->keep))
    return CM_OK;
  if (r->count == r->capacity) {
    size_t capacity = r->capacity ? 2 * r->capacity : 16;
    char **pairs = realloc(r->pairs, 2 * capacity * sizeof *pairs);
    if (!pairs)
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    r->pairs = pairs;
    r->capacity = capacity;
  }
  char *a = cmStrDup(fields[r->position[0]]);
  char *b = cmStrDup(fields[r->position[1]]);
  if (!a || !b) {
    free(a);
    free(b);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  r->pairs[2 * r->count] = a;
  r->pairs[2 * r->count + 1] = b;
  r->count++;
  return CM_OK;
}

static void pairReaderFree(PairReader *r) {
  for (size_t i = 0; i < 2 * r->count; i++)
    free(r->pairs[i]);
  free(r->pairs);
  r->pairs = NULL;
  r->count = 0;
}

/* Reads the pairs of `path` into `r`, the rows going through `row` with
 * `context` (readPair with `r` itself, or a reader that calls it). */
static CmStatus readPairs(const char *path, const char *name, const char *first,
                          const char *second, const char *filter,
                          CmCsvRecordFn row, void *context, PairReader *r,
                          CmError *err) {
  memset(r, 0, sizeof *r);
  r->name = name;
  r->columns[0] = first;
  r->columns[1] = second;
  r->filter = filter;
  r->keep = "yes";
  CmStatus status = cmCsvReadFile(path, name, row, context, err);
  if (status == CM_OK && !r->sawHeader)
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:1: empty file, no header", name);
  if (status != CM_OK)
    pairReaderFree(r);
  return status;
}

/*------------------------------------------------------------ fusion.csv --*/

/* A fusion.csv row goes to both readers: a rule, and a measured pair. */
typedef struct {
  PairReader rules;
  CmFusionMeasurementReader measured;
} FusionReader;

static CmStatus readFusionRow(void *context, char **fields, size_t n,
                              size_t line, CmError *err) {
  FusionReader *f = context;
  CmStatus status = readPair(&f->rules, fields, n, line, err);
  return status == CM_OK
             ? cmFusionMeasurementReadRow(&f->measured, fields, n, line, err)
             : status;
}

CmStatus cmFusionFileLoad(const char *path, const char *name,
                          CmFusionRule **rules, size_t *numRules,
                          CmFusionMeasurement **measured, size_t *numMeasured,
                          CmError *err) {
  FusionReader f;
  memset(&f, 0, sizeof f);
  f.measured.name = name;
  CmStatus status = readPairs(path, name, "producer", "consumer", "decision",
                              readFusionRow, &f, &f.rules, err);
  *rules = status == CM_OK ? calloc(f.rules.count + 1, sizeof **rules) : NULL;
  if (status == CM_OK && !*rules) {
    pairReaderFree(&f.rules);
    status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  if (status != CM_OK) {
    cmFusionMeasurementsFree(f.measured.items, f.measured.count);
    return status;
  }
  for (size_t i = 0; i < f.rules.count; i++) {
    (*rules)[i].producer = f.rules.pairs[2 * i];
    (*rules)[i].consumer = f.rules.pairs[2 * i + 1];
  }
  *numRules = f.rules.count;
  free(f.rules.pairs);
  *measured = f.measured.items;
  *numMeasured = f.measured.count;
  return CM_OK;
}

void cmFusionRulesFree(CmFusionRule *rules, size_t numRules) {
  for (size_t i = 0; i < numRules; i++) {
    free(rules[i].producer);
    free(rules[i].consumer);
  }
  free(rules);
}

/*------------------------------------------------------------ device.csv --*/

/* device.csv rows by key, and within a key in file order (the rows are one
 * array): the first row of a repeated key answers, as a scan would find
 * it. */
static int byKeyThenRow(const void *a, const void *b) {
  const CmDeviceEntry *x = *(const CmDeviceEntry *const *)a;
  const CmDeviceEntry *y = *(const CmDeviceEntry *const *)b;
  int byKey = strcmp(x->key, y->key);
  return byKey ? byKey : (x > y) - (x < y);
}

static CmStatus loadDevice(struct CmProfileImpl *p, CmError *err) {
  char path[4200];
  PairReader r;
  CmStatus status = cmPathJoin(path, sizeof path, p->dir, "device.csv", err);
  if (status == CM_OK)
    status = readPairs(path, "device.csv", "key", "value", NULL, readPair, &r,
                       &r, err);
  if (status != CM_OK)
    return status;
  p->device = calloc(r.count + 1, sizeof *p->device);
  if (!p->device) {
    pairReaderFree(&r);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  for (size_t i = 0; i < r.count; i++) {
    CmDeviceEntry *e = &p->device[i];
    e->key = r.pairs[2 * i];
    e->text = r.pairs[2 * i + 1];
    if (!cmParseNumber(e->text, &e->value))
      e->value = NAN;
  }
  p->numDevice = r.count;
  free(r.pairs);
  p->deviceByKey = malloc((r.count + 1) * sizeof *p->deviceByKey);
  if (!p->deviceByKey)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < r.count; i++)
    p->deviceByKey[i] = &p->device[i];
  qsort(p->deviceByKey, r.count, sizeof *p->deviceByKey, byKeyThenRow);
  const char *name = cmProfileDeviceText(p, "name");
  if (name)
    p->deviceName = name;
  return CM_OK;
}

/*--------------------------------------------------------------- profile --*/

static void profileFree(struct CmProfileImpl *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->numDevice; i++) {
    free(p->device[i].key);
    free(p->device[i].text);
  }
  free(p->device);
  free(p->deviceByKey);
  cmFusionRulesFree(p->rules, p->numRules);
  cmFusionMeasurementsFree(p->fusionMeasured, p->numFusionMeasured);
  cmPolicySetFree(&p->policies);
  cmGroupSetFree(&p->groups);
  free(p->dir);
  free(p);
}

/* Prefixes the directory so an error names the file fully. */
static void prefixDir(const char *dir, CmError *err) {
  if (!err)
    return;
  /* a long directory keeps its last 200 bytes: the reason must still fit */
  size_t n = strlen(dir);
  const char *tail = n > 200 ? dir + n - 200 : dir;
  char message[sizeof err->message + 256];
  snprintf(message, sizeof message, "%s%s/%s", tail != dir ? "..." : "", tail,
           err->message);
  snprintf(err->message, sizeof err->message, "%.511s", message);
}

/* Loads everything but the tables. */
static CmStatus createWithoutTables(const char *dir, CmProfile *out,
                                    CmError *err) {
  out->ptr = NULL;
  cmErrorClear(err);
  struct CmProfileImpl *p = calloc(1, sizeof *p);
  if (!p || !(p->dir = cmStrDup(dir))) {
    free(p);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  p->deviceName = "";
  char path[4200];
  CmStatus status = cmPolicySetInitDefaults(&p->policies, err);
  if (status == CM_OK)
    status = loadDevice(p, err);
  if (status == CM_OK)
    status = cmPathJoin(path, sizeof path, dir, "fusion.csv", err);
  if (status == CM_OK)
    status = cmFusionFileLoad(path, "fusion.csv", &p->rules, &p->numRules,
                              &p->fusionMeasured, &p->numFusionMeasured, err);
  if (status == CM_OK)
    status = cmPathJoin(path, sizeof path, dir, "policy.csv", err);
  if (status == CM_OK)
    status = cmPolicySetLoad(&p->policies, path, "policy.csv", err);
  if (status != CM_OK) {
    prefixDir(dir, err);
    profileFree(p);
    return status;
  }
  out->ptr = p;
  return CM_OK;
}

CmStatus cmProfileCreateFromDir(const char *dir, CmProfile *out, CmError *err) {
  CmStatus status = createWithoutTables(dir, out, err);
  if (status == CM_OK)
    status = cmProfileLoadTablesFor(*out, NULL, 0, err);
  if (status != CM_OK) {
    cmProfileDestroy(*out);
    out->ptr = NULL;
  }
  return status;
}

CmStatus cmProfileCreateFromDirWithoutTables(const char *dir, CmProfile *out,
                                             CmError *err) {
  return createWithoutTables(dir, out, err);
}

/* Whether a row holding element type `value` (canonical: `canonical`) shows
 * it verbatim as a field, so the table scan can look for it: not when empty,
 * a number (the cell may spell it otherwise: 1 = 1.0), holding a quote
 * (escaped in CSV) or `size` bytes or longer. */
static bool isSearchable(const char *value, const char *canonical,
                         size_t size) {
  double number;
  size_t n = strlen(canonical);
  return n > 0 && n < size && !strchr(canonical, '"') &&
         !cmParseNumber(value, &number);
}

/* What a table must hold to answer `query` (false: no table can). */
static bool needOf(const CmPolicySet *policies, const CmQuery *query,
                   CmTableNeed *need) {
  bool viaAnchor;
  const CmPolicy *policy =
      query->kernel ? cmPolicySetResolve(policies, query->kernel, &viaAnchor)
                    : NULL;
  if (!policy && query->kernel && cmKernelIs(query->kernel, "conv2d"))
    policy = cmPolicySetResolve(policies, "matmul", &viaAnchor); /* implicit
                                                                    GEMM */
  if (!policy)
    return false;
  memset(need, 0, sizeof *need);
  need->kernel = policy->kernel;
  for (int r = 0; r < policy->numRegime; r++) {
    const char *value = cmQueryFindField(query, policy->regime[r]);
    if (!value || !cmIsDtypeKey(policy->regime[r]))
      continue;
    char canonical[sizeof need->dtypes[0] + 1];
    cmCanonicalRegimeValue(policy->regime[r], value, canonical,
                           sizeof canonical);
    if (!isSearchable(value, canonical, sizeof need->dtypes[0]))
      continue; /* no constraint: a row may spell it in any way */
    char *dtype = need->dtypes[need->numDtypes];
    memcpy(dtype, canonical, strlen(canonical) + 1);
    bool repeated = false; /* dtype and kv_dtype usually agree */
    for (int d = 0; d < need->numDtypes && !repeated; d++)
      repeated = !strcmp(need->dtypes[d], dtype);
    need->numDtypes += !repeated;
  }
  return true;
}

static bool sameNeed(const CmTableNeed *a, const CmTableNeed *b) {
  if (strcmp(a->kernel, b->kernel) || a->numDtypes != b->numDtypes)
    return false;
  for (int d = 0; d < a->numDtypes; d++)
    if (strcmp(a->dtypes[d], b->dtypes[d]))
      return false;
  return true;
}

CmStatus cmProfileLoadTablesFor(CmProfile profile, const CmQuery *queries,
                                size_t numQueries, CmError *err) {
  struct CmProfileImpl *p = profile.ptr;
  if (p->tablesLoaded)
    return cmErrorSet(err, CM_ERR_QUERY, "the tables are already loaded");
  p->tablesLoaded = true;
  CmTableNeed *needs = NULL;
  size_t n = 0;
  if (queries) {
    /* Distinct needs only: a module has many kernels but few of these. */
    needs = malloc((numQueries + 1) * sizeof *needs);
    if (!needs)
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < numQueries; i++) {
      if (!needOf(&p->policies, &queries[i], &needs[n]))
        continue;
      bool seen = false;
      for (size_t j = 0; j < n && !seen; j++)
        seen = sameNeed(&needs[j], &needs[n]);
      n += !seen;
    }
  }
  CmStatus status = cmProfileLoadTables(p, needs, n, err);
  free(needs);
  if (status != CM_OK)
    prefixDir(p->dir, err);
  return status;
}

void cmProfileDestroy(CmProfile profile) { profileFree(profile.ptr); }

const char *cmProfileGetDeviceName(CmProfile profile) {
  return profile.ptr->deviceName;
}

const char *cmProfileGetDir(CmProfile profile) { return profile.ptr->dir; }

/* The first row of device.csv with `key`, or NULL: the lowest of its rows
 * in deviceByKey. The roofline asks a dozen keys per answer, a host
 * profile has hundreds. */
static const CmDeviceEntry *findDeviceEntry(const struct CmProfileImpl *p,
                                            const char *key) {
  size_t lo = 0, hi = p->numDevice; /* first row whose key is >= `key` */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(p->deviceByKey[mid]->key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < p->numDevice && !strcmp(p->deviceByKey[lo]->key, key)
             ? p->deviceByKey[lo]
             : NULL;
}

const char *cmProfileDeviceText(const struct CmProfileImpl *p,
                                const char *key) {
  const CmDeviceEntry *e = findDeviceEntry(p, key);
  return e ? e->text : NULL;
}

double cmProfileGetDeviceNumber(CmProfile profile, const char *key,
                                double fallback) {
  const CmDeviceEntry *e = findDeviceEntry(profile.ptr, key);
  return e && !isnan(e->value) ? e->value : fallback;
}

bool cmProfileAllowsFusion(CmProfile profile, const char *producer,
                           const char *consumer) {
  for (size_t i = 0; i < profile.ptr->numRules; i++)
    if (!strcmp(profile.ptr->rules[i].producer, producer) &&
        !strcmp(profile.ptr->rules[i].consumer, consumer))
      return true;
  return false;
}

size_t cmProfileGetNumFusionRules(CmProfile profile) {
  return profile.ptr->numRules;
}

CmStatus cmProfileLoadFusionRules(CmProfile profile, const char *path,
                                  CmError *err) {
  CmFusionRule *rules;
  CmFusionMeasurement *measured;
  size_t numRules, numMeasured;
  CmStatus status = cmFusionFileLoad(path, path, &rules, &numRules, &measured,
                                     &numMeasured, err);
  if (status != CM_OK)
    return status;
  cmFusionRulesFree(profile.ptr->rules, profile.ptr->numRules);
  cmFusionMeasurementsFree(profile.ptr->fusionMeasured,
                           profile.ptr->numFusionMeasured);
  profile.ptr->rules = rules;
  profile.ptr->numRules = numRules;
  profile.ptr->fusionMeasured = measured;
  profile.ptr->numFusionMeasured = numMeasured;
  return CM_OK;
}

double cmProfileGetFusionRatio(CmProfile profile, const char *producer,
                               const char *consumer) {
  for (size_t i = 0; i < profile.ptr->numFusionMeasured; i++) {
    const CmFusionMeasurement *m = &profile.ptr->fusionMeasured[i];
    if (!strcmp(m->producer, producer) && !strcmp(m->consumer, consumer))
      return m->ratio;
  }
  return NAN;
}

size_t cmProfileGetNumDroppedRows(CmProfile profile) {
  return profile.ptr->numDropped;
}

size_t cmProfileGetNumRows(CmProfile profile) { return profile.ptr->numRows; }
