/*===- fuzz_query.c - libFuzzer target: hostile queries on two profiles ---===*
 *
 * The shipped H100 profile (LATENCY_FUZZ_PROFILE) and a host profile
 * (LATENCY_FUZZ_HOST_PROFILE, host-profile/ here), compiled in, are loaded
 * once and every query asks both;
 * the input is one query, in either form latency-query reads:
 *
 *   kernel=matmul dtype=bf16 m=1000 n=4096 k=4096      (fields, like argv)
 *   kernel,dtype,m,n,k\nmatmul,bf16,1000,4096,4096     (--batch CSV rows)
 *
 * A first line with a comma is a CSV header and every row after it a query;
 * otherwise the input is whitespace-separated name=value fields. Each query
 * is estimated through the text API (interpolation on and off) and the
 * prepared API. Checked: no crash, leak, UB or hang; both APIs agree; a
 * measured or interpolated answer is a number. Indexes and triangulations
 * the queries build stay cached in the profile, as in a long-running tool.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* fmemopen */
#include "fuzz_common.h"

#include "latency/costmodel_util.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* loaded once, destroyed at exit: the shipped H100 profile, and a host
 * profile with latency-profile's keys (cache geometry, column walk and
 * weight copy rates, a weight_transposed regime), whose roofline counts a
 * matmul's weight column for every query */
static CmProfile profiles[2];

static void destroyProfiles(void) {
  cmProfileDestroy(profiles[0]);
  cmProfileDestroy(profiles[1]);
}

static void setUp(void) {
  if (!cmProfileIsNull(profiles[0]))
    return;
  const char *dirs[2] = {LATENCY_FUZZ_PROFILE, LATENCY_FUZZ_HOST_PROFILE};
  for (int i = 0; i < 2; i++) {
    CmError err;
    if (cmProfileCreateFromDir(dirs[i], &profiles[i], &err) != CM_OK) {
      fprintf(stderr, "fuzz_query: %s\n", err.message);
      abort();
    }
  }
  atexit(destroyProfiles);
}

/* Adds field `name`=`value` to `q` as latency-query does: the last
 * kernel= names the kernel, flops= and bytes= must be non-negative finite
 * numbers. False when latency-query would reject the query. */
static bool takeField(FuzzQuery *q, const char *name, const char *value) {
  double *target = !strcmp(name, "flops")   ? &q->flops
                   : !strcmp(name, "bytes") ? &q->bytes
                                            : NULL;
  if (!strcmp(name, "kernel")) {
    free(q->kernel);
    if (!(q->kernel = strdup(value)))
      return false;
  }
  if (target &&
      (!cmParseNumber(value, target) || !(*target >= 0) || isinf(*target)))
    return false;
  return fuzzQueryAdd(q, name, value);
}

static void estimate(const FuzzQuery *q) {
  CmEstimate e;
  for (int i = 0; i < 2 && q->kernel; i++)
    fuzzEstimate(profiles[i], q, true, &e);
}

/*------------------------------------------------- name=value fields --*/

static void runFields(const char *text) {
  FuzzQuery q;
  memset(&q, 0, sizeof q);
  fuzzQueryClear(&q);
  bool ok = true;
  for (const char *s = text; *s && ok;) {
    size_t n = strcspn(s, " \t\r\n");
    if (n) {
      char *token = strndup(s, n), *eq = token ? strchr(token, '=') : NULL;
      if (eq) {
        *eq = '\0';
        ok = takeField(&q, token, eq + 1);
      }
      free(token);
    }
    s += n + (s[n] != '\0');
  }
  if (ok)
    estimate(&q);
  fuzzQueryClear(&q);
}

/*------------------------------------------------------ --batch rows --*/

typedef struct {
  char *header[CM_CSV_MAX_FIELDS]; /* owned column names */
  size_t numColumns;               /* 0 until the header */
} Batch;

static CmStatus answerRow(void *context, char **cells, size_t n, size_t line,
                          CmError *err) {
  (void)line, (void)err;
  Batch *b = context;
  if (b->numColumns == 0) {
    for (size_t i = 0; i < n; i++)
      if (!(b->header[b->numColumns++] = strdup(cells[i])))
        return CM_ERR_NOMEM;
    return CM_OK;
  }
  if (n != b->numColumns)
    return CM_OK; /* latency-query: an error row, and on to the next */
  FuzzQuery q;
  memset(&q, 0, sizeof q);
  fuzzQueryClear(&q);
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++)
    ok = takeField(&q, b->header[i], cells[i]);
  if (ok)
    estimate(&q);
  fuzzQueryClear(&q);
  return CM_OK;
}

static void runBatch(const uint8_t *data, size_t size) {
  FILE *stream = fmemopen((void *)data, size, "r");
  if (!stream)
    abort();
  Batch b = {.numColumns = 0};
  CmError err;
  cmCsvReadStream(stream, "stdin", answerRow, &b, &err);
  fclose(stream);
  for (size_t i = 0; i < b.numColumns; i++)
    free(b.header[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  setUp();
  if (size == 0)
    return 0;
  const uint8_t *nl = memchr(data, '\n', size);
  size_t firstLine = nl ? (size_t)(nl - data) : size;
  if (memchr(data, ',', firstLine)) {
    runBatch(data, size);
    return 0;
  }
  char *text = strndup((const char *)data, size); /* stops at a NUL byte */
  if (!text)
    abort();
  runFields(text);
  free(text);
  return 0;
}
