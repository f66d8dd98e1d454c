/*===- fusion_measured.c - fused / apart ratios measured per class pair ----===*
 *
 * A fusion.csv written by `latency-profile --fusion-rules` carries, beside
 * each (producer, consumer) pair, what the host measured: the producer
 * alone (`op1_us`), the consumer alone (`op2_us`) and both as one kernel
 * (`fused_us`). The ratio fused / (op1 + op2) is what fusing that pair does
 * on the device, rule or not. A file without those columns has no ratios;
 * a row with them empty (a pair not measured) has none either. Invariant:
 * every ratio kept is finite and positive.
 *
 *===----------------------------------------------------------------------===*/
#include "profile.h"

#include "cm_error.h"
#include "csv_reader.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kProducer, kConsumer, kOp1, kOp2, kFused, kColumns };

typedef struct {
  const char *name;
  int position[kColumns]; /* column of each field, -1 when absent */
  bool sawHeader;
  CmFusionMeasurement *items;
  size_t count, capacity;
} Reader;

static const char *const kNames[kColumns] = {"producer", "consumer", "op1_us",
                                             "op2_us", "fused_us"};

static void readHeader(Reader *r, char **fields, size_t n) {
  for (int c = 0; c < kColumns; c++) {
    r->position[c] = -1;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(fields[i], kNames[c]))
        r->position[c] = (int)i;
  }
  r->sawHeader = true;
}

/* Reads numeric column `c` of a row into `*out`; false when it is empty.
 * A cell that is not a finite positive number is an error. */
static CmStatus readTime(const Reader *r, char **fields, size_t n, int c,
                         size_t line, double *out, CmError *err) {
  int at = r->position[c];
  const char *cell = (size_t)at < n ? fields[at] : "";
  char *end;
  *out = NAN;
  if (!*cell)
    return CM_OK;
  double value = strtod(cell, &end);
  if (*end || !isfinite(value) || value <= 0)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: column '%s': '%.40s' is not a positive time",
                      r->name, line, kNames[c], cell);
  *out = value;
  return CM_OK;
}

static CmStatus append(Reader *r, const char *producer, const char *consumer,
                       double ratio, CmError *err) {
  if (r->count == r->capacity) {
    size_t capacity = r->capacity ? 2 * r->capacity : 16;
    CmFusionMeasurement *items = realloc(r->items, capacity * sizeof *r->items);
    if (!items)
      return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    r->items = items;
    r->capacity = capacity;
  }
  CmFusionMeasurement *m = &r->items[r->count];
  m->producer = cmStrDup(producer);
  m->consumer = cmStrDup(consumer);
  m->ratio = ratio;
  if (!m->producer || !m->consumer) {
    free(m->producer);
    free(m->consumer);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  r->count++;
  return CM_OK;
}

static CmStatus readRow(void *context, char **fields, size_t n, size_t line,
                        CmError *err) {
  Reader *r = context;
  if (!r->sawHeader) {
    readHeader(r, fields, n);
    return CM_OK;
  }
  for (int c = 0; c < kColumns; c++)
    if (r->position[c] < 0)
      return CM_OK; /* rules without measurements */
  double t[3];
  for (int c = kOp1; c <= kFused; c++) {
    CmStatus status = readTime(r, fields, n, c, line, &t[c - kOp1], err);
    if (status != CM_OK)
      return status;
  }
  if (isnan(t[0]) || isnan(t[1]) || isnan(t[2]) ||
      (size_t)r->position[kProducer] >= n ||
      (size_t)r->position[kConsumer] >= n)
    return CM_OK; /* a pair not measured */
  return append(r, fields[r->position[kProducer]],
                fields[r->position[kConsumer]], t[2] / (t[0] + t[1]), err);
}

CmStatus cmFusionMeasurementsLoad(const char *path, const char *name,
                                  CmFusionMeasurement **out, size_t *count,
                                  CmError *err) {
  Reader r;
  memset(&r, 0, sizeof r);
  r.name = name;
  CmStatus status = cmCsvReadFile(path, name, readRow, &r, err);
  if (status != CM_OK) {
    cmFusionMeasurementsFree(r.items, r.count);
    return status;
  }
  *out = r.items;
  *count = r.count;
  return CM_OK;
}

void cmFusionMeasurementsFree(CmFusionMeasurement *items, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(items[i].producer);
    free(items[i].consumer);
  }
  free(items);
}
