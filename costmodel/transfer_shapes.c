/*===- transfer_shapes.c - target points and candidate shapes from CSV ----===*
 *
 * Both files use the table format of the reference's policies: `kernel`
 * (or a default kernel for a file without that column), each kernel's
 * regime keys and axes, and (points) `latency_us`; any other column is kept
 * only to be echoed. Every row is checked as a table row
 * is, with "file:line: ..." errors; a NaN, infinite, zero or negative
 * latency drops the point and counts it.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"
#include "profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxKernels = 32, kRegimeKeySize = 512 };

typedef struct {
  const CmPolicy *policy;
  int axis[CM_MAX_AXES];
  int regime[CM_MAX_REGIME];
} Columns;

typedef struct {
  struct CmTransferImpl *t;
  const char *path;
  bool needLatency;
  CmShapeList *list;
  char **header; /* this file's header */
  size_t numColumns;
  int kernelColumn, latencyColumn;
  Columns kernels[kMaxKernels];
  size_t numKernels;
} Reader;

static int findColumn(const Reader *r, const char *name) {
  for (size_t i = 0; i < r->numColumns; i++)
    if (!strcmp(r->header[i], name))
      return (int)i;
  return -1;
}

/* A copy of `n` fields in one block: the pointer array, then the text. */
static char **copyFields(char **fields, size_t n) {
  size_t bytes = (n + 1) * sizeof(char *);
  for (size_t i = 0; i < n; i++)
    bytes += strlen(fields[i]) + 1;
  char **copy = malloc(bytes);
  if (!copy)
    return NULL;
  char *text = (char *)(copy + n + 1);
  for (size_t i = 0; i < n; i++) {
    size_t len = strlen(fields[i]) + 1;
    copy[i] = memcpy(text, fields[i], len);
    text += len;
  }
  copy[n] = NULL;
  return copy;
}

static CmStatus readHeader(Reader *r, char **fields, size_t n, CmError *err) {
  if (!(r->header = copyFields(fields, n)))
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  r->numColumns = n;
  r->kernelColumn = findColumn(r, "kernel");
  r->latencyColumn = findColumn(r, "latency_us");
  bool kernelKnown = r->kernelColumn >= 0 || r->t->defaultKernel;
  if (!kernelKnown || (r->needLatency && r->latencyColumn < 0))
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:1: missing required column '%s'",
                      r->path, !kernelKnown ? "kernel" : "latency_us");
  if (!r->needLatency && !r->list->header) { /* the list owns it now */
    r->list->header = r->header;
    r->list->numFields = n;
  }
  return CM_OK;
}

/* The column mapping of `kernel` in this file. */
static CmStatus columnsOf(Reader *r, const char *kernel, size_t line,
                          const Columns **out, CmError *err) {
  for (size_t i = 0; i < r->numKernels; i++)
    if (!strcmp(r->kernels[i].policy->kernel, kernel))
      return *out = &r->kernels[i], CM_OK;
  const CmPolicy *policy =
      cmPolicySetFind(&r->t->reference.ptr->policies, kernel);
  if (!policy)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: kernel '%.60s' has no policy in the reference",
                      r->path, line, kernel);
  if (r->numKernels == kMaxKernels)
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: more than %d kernels",
                      r->path, line, kMaxKernels);
  Columns *c = &r->kernels[r->numKernels];
  c->policy = policy;
  for (int a = 0; a < policy->numAxes; a++)
    if ((c->axis[a] = findColumn(r, policy->axes[a])) < 0)
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: missing required column '%s' (axis of '%s')",
                        r->path, line, policy->axes[a], kernel);
  for (int i = 0; i < policy->numRegime; i++)
    if ((c->regime[i] = findColumn(r, policy->regime[i])) < 0)
      return cmErrorSet(
          err, CM_ERR_FORMAT,
          "%s:%zu: missing required column '%s' (regime key of '%s')", r->path,
          line, policy->regime[i], kernel);
  r->numKernels++;
  *out = c;
  return CM_OK;
}

/* The canonical regime key of a row; false when it does not fit. */
static bool regimeKeyOf(const Columns *c, char **fields, char *key) {
  size_t used = 0;
  key[0] = '\0';
  for (int i = 0; i < c->policy->numRegime; i++) {
    char value[128];
    cmCanonicalRegimeValue(c->policy->regime[i], fields[c->regime[i]], value,
                           sizeof value);
    used += (size_t)snprintf(key + used, kRegimeKeySize - used, "%s%s",
                             i ? "\x1f" : "", value);
    if (used >= kRegimeKeySize)
      return false;
  }
  return true;
}

static CmStatus appendShape(CmShapeList *list, const CmShape *shape) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity ? 2 * list->capacity : 256;
    CmShape *items = realloc(list->items, capacity * sizeof *items);
    if (!items)
      return CM_ERR_NOMEM;
    list->items = items;
    list->capacity = capacity;
  }
  list->items[list->count++] = *shape;
  return CM_OK;
}

/* Fills the axes and latency of `shape`; false (with `err`) on bad text. */
static CmStatus parseShape(const Reader *r, const Columns *c, char **fields,
                           size_t line, CmShape *shape, CmError *err) {
  const CmPolicy *policy = c->policy;
  for (int a = 0; a < policy->numAxes; a++) {
    const char *cell = fields[c->axis[a]];
    if (!cmParseNumber(cell, &shape->axes[a]) || !isfinite(shape->axes[a]))
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: column '%s': '%.40s' is not a finite number",
                        r->path, line, policy->axes[a], cell);
  }
  shape->latencyUs = NAN;
  if (r->needLatency) {
    const char *cell = fields[r->latencyColumn];
    if (!cmParseNumber(cell, &shape->latencyUs))
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: column 'latency_us': '%.40s' is not a number",
                        r->path, line, cell);
  }
  return CM_OK;
}

static CmStatus readRow(void *context, char **fields, size_t n, size_t line,
                        CmError *err) {
  Reader *r = context;
  if (!r->header)
    return readHeader(r, fields, n, err);
  if (n != r->numColumns)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: %zu fields, the header has %zu", r->path, line,
                      n, r->numColumns);
  const Columns *c = NULL;
  const char *kernel =
      r->kernelColumn >= 0 ? fields[r->kernelColumn] : r->t->defaultKernel;
  CmStatus status = columnsOf(r, kernel, line, &c, err);
  if (status != CM_OK)
    return status;
  CmShape shape = {0};
  char key[kRegimeKeySize];
  if ((status = parseShape(r, c, fields, line, &shape, err)) != CM_OK)
    return status;
  if (!regimeKeyOf(c, fields, key))
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: regime values too long",
                      r->path, line);
  if (r->needLatency && !(shape.latencyUs > 0 && isfinite(shape.latencyUs))) {
    r->list->dropped++;
    return CM_OK;
  }
  shape.group = cmTransferGroupIndex(r->t, c->policy, key);
  if (shape.group < 0 ||
      (!r->needLatency && !(shape.fields = copyFields(fields, n))))
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  if (appendShape(r->list, &shape) != CM_OK) {
    free(shape.fields);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  return CM_OK;
}

CmStatus cmShapesRead(struct CmTransferImpl *t, const char *path,
                      bool needLatency, CmShapeList *list, CmError *err) {
  Reader r = {t, path, needLatency, list, NULL, 0, -1, -1, {{0}}, 0};
  CmStatus status = cmCsvReadFile(path, path, readRow, &r, err);
  if (status == CM_OK && !r.header)
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:1: empty file, no header", path);
  if (r.header != list->header)
    free(r.header);
  return status;
}

int cmShapeCompare(const CmShape *a, const CmShape *b) {
  if (a->group != b->group)
    return a->group < b->group ? -1 : 1;
  for (int i = 0; i < CM_MAX_AXES; i++)
    if (a->axes[i] != b->axes[i])
      return a->axes[i] < b->axes[i] ? -1 : 1;
  return 0;
}

static int compareShapes(const void *a, const void *b) {
  return cmShapeCompare(a, b);
}

void cmShapesMerge(CmShapeList *list) {
  qsort(list->items, list->count, sizeof *list->items, compareShapes);
  size_t out = 0;
  for (size_t i = 0; i < list->count;) {
    size_t j = i;
    double sum = 0;
    for (; j < list->count && !cmShapeCompare(&list->items[i], &list->items[j]);
         j++)
      sum += list->items[j].latencyUs;
    list->items[out] = list->items[i];
    list->items[out++].latencyUs = sum / (double)(j - i);
    i = j;
  }
  list->count = out;
}

void cmShapeListFree(CmShapeList *list) {
  for (size_t i = 0; i < list->count; i++)
    free(list->items[i].fields);
  free(list->items);
  free(list->header);
  memset(list, 0, sizeof *list);
}

void cmCsvWriteField(FILE *out, const char *text) {
  bool quote = strpbrk(text, ",\"\r\n") || (*text == ' ' || *text == '\t') ||
               (*text && (text[strlen(text) - 1] == ' ' ||
                          text[strlen(text) - 1] == '\t'));
  if (!quote) {
    fputs(text, out);
    return;
  }
  fputc('"', out);
  for (const char *s = text; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}
