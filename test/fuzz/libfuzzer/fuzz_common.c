/*===- fuzz_common.c - queries and checks shared by the fuzz targets -------===*
 *
 * Every check that fails prints both answers as JSON and aborts, which
 * libFuzzer reports as a crash with the input that caused it.
 *
 *===----------------------------------------------------------------------===*/
#include "fuzz_common.h"

#include "latency/costmodel_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool fuzzQueryAdd(FuzzQuery *q, const char *name, const char *value) {
  if (q->numFields == kFuzzMaxFields)
    return false;
  char *n = cmStrDup(name), *v = cmStrDup(value);
  if (!n || !v) {
    free(n);
    free(v);
    return false;
  }
  q->fields[q->numFields++] = (CmField){n, v};
  return true;
}

void fuzzQueryClear(FuzzQuery *q) {
  free(q->kernel);
  for (size_t i = 0; i < q->numFields; i++) {
    free((char *)q->fields[i].name);
    free((char *)q->fields[i].value);
  }
  memset(q, 0, sizeof *q);
  q->flops = q->bytes = -1;
}

CmQuery fuzzQueryView(const FuzzQuery *q) {
  CmQuery query = {q->kernel, q->fields, q->numFields, q->flops, q->bytes};
  return query;
}

static void fail(const char *what, const CmEstimate *a, const CmEstimate *b) {
  fprintf(stderr, "fuzz check failed: %s\n", what);
  cmEstimatePrintJson(a, stderr);
  fputc('\n', stderr);
  if (b) {
    cmEstimatePrintJson(b, stderr);
    fputc('\n', stderr);
  }
  abort();
}

void fuzzCheckSame(const char *what, const CmEstimate *a, const CmEstimate *b) {
  if (memcmp(&a->latencyUs, &b->latencyUs, sizeof a->latencyUs) != 0 ||
      a->source != b->source || a->method != b->method)
    fail(what, a, b);
}

/* Never extrapolates: an interpolated answer lies between the values it
 * combines (its lines' for weighted-1d, else its corners'), up to rounding. */
static void checkBetween(const CmEstimate *e) {
  double lo = INFINITY, hi = -INFINITY;
  if (e->method == CM_METHOD_WEIGHTED_1D)
    for (int i = 0; i < e->numLines; i++)
      lo = fmin(lo, e->lines[i].value), hi = fmax(hi, e->lines[i].value);
  else
    for (int i = 0; i < e->numCorners; i++)
      lo = fmin(lo, e->corners[i].latencyUs),
      hi = fmax(hi, e->corners[i].latencyUs);
  double slack = 1e-9 * fmax(fabs(lo), fabs(hi));
  if (!(e->latencyUs >= lo - slack && e->latencyUs <= hi + slack))
    fail("an interpolated answer lies outside what it combines", e, NULL);
}

/* A table answer is a number within its corners; every confidence lies in
 * [0, 1]. */
static void checkAnswer(const CmEstimate *e, bool saneTables) {
  bool fromTable =
      e->source == CM_SOURCE_MEASURED || e->source == CM_SOURCE_INTERPOLATED;
  if (saneTables && fromTable && !isfinite(e->latencyUs))
    fail("a measured or interpolated answer is not a finite number", e, NULL);
  if (saneTables && e->source == CM_SOURCE_INTERPOLATED)
    checkBetween(e);
  if (!(e->confidence >= 0 && e->confidence <= 1))
    fail("confidence outside [0, 1]", e, NULL);
}

/* Writes each answer as JSON, which must not crash on any text. */
static FILE *jsonSink(void) {
  static FILE *sink;
  if (!sink && !(sink = fopen("/dev/null", "w")))
    abort();
  return sink;
}

CmStatus fuzzEstimate(CmProfile profile, const FuzzQuery *q, bool saneTables,
                      CmEstimate *out) {
  CmQuery query = fuzzQueryView(q);
  CmOptions on = cmOptionsDefault(), off = {false};
  CmEstimate rollback, prepared;
  CmStatus status = cmProfileEstimate(profile, &query, &on, out, NULL);
  if (cmProfileEstimate(profile, &query, &off, &rollback, NULL) != status)
    fail("interpolation=false changed the status", out, &rollback);
  if (status != CM_OK)
    return status;
  checkAnswer(out, saneTables);
  checkAnswer(&rollback, saneTables);
  cmEstimatePrintJson(out, jsonSink());

  /* The prepared API on the same query: identical table answers, and
   * identical roofline answers when the query gives its own work. */
  CmPrepared prep;
  if (cmProfilePrepare(profile, &query, &prep, NULL) != CM_OK)
    fail("cmProfilePrepare failed where cmProfileEstimate did not", out, NULL);
  double axes[CM_MAX_AXES];
  for (int a = 0; a < prep.numAxes; a++) {
    const char *text = cmQueryFindField(&query, prep.axisNames[a]);
    bool number = text && cmParseNumber(text, &axes[a]) && isfinite(axes[a]);
    if (text && !number && prep.policy)
      fail("an axis the text API accepted does not parse", out, NULL);
    if (!number) /* not given, or a family's field that is no number */
      axes[a] = NAN;
  }
  if (cmPreparedEstimate(&prep, axes, q->flops, q->bytes, &on, &prepared,
                         NULL) != CM_OK)
    fail("cmPreparedEstimate failed where cmProfileEstimate did not", out,
         NULL);
  /* A kernel without a table of its own may be mapped onto another's by
   * the text API (a conv2d as its implicit GEMM), never by the prepared. */
  bool fromTable = out->source == CM_SOURCE_MEASURED ||
                   out->source == CM_SOURCE_INTERPOLATED;
  bool workGiven = q->flops >= 0 && q->bytes >= 0;
  if (prep.policy ? fromTable || workGiven : !fromTable && workGiven)
    fuzzCheckSame("prepared and text APIs disagree", out, &prepared);
  return status;
}
