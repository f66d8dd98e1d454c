/*===- fusion_measured.c - fused / apart ratios measured per class pair ----===*
 *
 * A fusion.csv written by `latency-profile --fusion-rules` carries, beside
 * each (producer, consumer) pair, what the host measured, among it
 * `gain_pct`: how much less the two took as one kernel than apart, in
 * percent of apart. 1 - gain_pct / 100 is what fusing that pair does on
 * the device, rule or not. A file without the column has no ratios; a row
 * with it empty (a pair not measured) has none either. Invariant: every
 * ratio kept is finite and positive.
 *
 *===----------------------------------------------------------------------===*/
#include "profile.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kProducer, kConsumer, kGain, kColumns };

typedef CmFusionMeasurementReader Reader;
_Static_assert(sizeof((Reader *)0)->position / sizeof(int) == kColumns,
               "one column position per field");

static const char *const kNames[kColumns] = {"producer", "consumer",
                                             "gain_pct"};

static void readHeader(Reader *r, char **fields, size_t n) {
  for (int c = 0; c < kColumns; c++) {
    r->position[c] = -1;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(fields[i], kNames[c]))
        r->position[c] = (int)i;
  }
  r->sawHeader = true;
}

/* Reads a row's gain into `*out` (NaN when the cell is empty); a cell that
 * is not a number below 100 is an error. */
static CmStatus readGain(const Reader *r, char **fields, size_t n, size_t line,
                         double *out, CmError *err) {
  int at = r->position[kGain];
  const char *cell = (size_t)at < n ? fields[at] : "";
  char *end;
  *out = NAN;
  if (!*cell)
    return CM_OK;
  double value = strtod(cell, &end);
  if (*end || !isfinite(value) || value >= 100)
    return cmErrorSet(err, CM_ERR_FORMAT,
                      "%s:%zu: column 'gain_pct': '%.40s' is not a number "
                      "below 100",
                      r->name, line, cell);
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

CmStatus cmFusionMeasurementReadRow(void *reader, char **fields, size_t n,
                                    size_t line, CmError *err) {
  Reader *r = reader;
  if (!r->sawHeader) {
    readHeader(r, fields, n);
    return CM_OK;
  }
  for (int c = 0; c < kColumns; c++)
    if (r->position[c] < 0)
      return CM_OK; /* rules without measurements */
  double gain;
  CmStatus status = readGain(r, fields, n, line, &gain, err);
  if (status != CM_OK || isnan(gain) || (size_t)r->position[kProducer] >= n ||
      (size_t)r->position[kConsumer] >= n)
    return status; /* an error, or a pair not measured */
  return append(r, fields[r->position[kProducer]],
                fields[r->position[kConsumer]], 1 - gain / 100, err);
}

void cmFusionMeasurementsFree(CmFusionMeasurement *items, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(items[i].producer);
    free(items[i].consumer);
  }
  free(items);
}
