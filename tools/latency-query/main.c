/*===- latency-query/main.c - the cost model on the command line -----------===*
 *
 *   latency-query [--profile P] [--no-interpolation] kernel=matmul dtype=bf16
 *                 m=1000 n=4096 k=4096       -> one JSON object
 *   latency-query [--profile P] [--no-interpolation] --batch < queries.csv
 *                                            -> the rows + latency columns
 *
 * Batch mode streams: each row is answered as soon as it is read, so
 * millions of rows need no more memory than one. A bad row gets an error on
 * stderr naming its line, an "error" row on stdout, and the rest still run.
 * A single query reads only the tables that could answer it (the answer is
 * that of a full load), loads their snapshots and large triangulations
 * from the on-disk cache (table_snapshot.h, triangulation_cache.h;
 * MLIR_LATENCY_CACHE=off disables it).
 * Corrupt cache entries (rebuilt) are noted on stderr.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include <csv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char kUsage[] =
    "usage: latency-query [--profile NAME|DIR] [--no-interpolation] "
    "kernel=K [key=value ...]\n"
    "       latency-query [--profile NAME|DIR] [--no-interpolation] --batch "
    "< queries.csv\n"
    "Keys: the kernel's regime keys and axes (matmul: dtype m n k), and\n"
    "optionally flops= and bytes= for the roofline, and precision=bf16|f16|\n"
    "fp8|int8 to cost a float dtype in that precision. Prints one JSON "
    "object;\n"
    "--batch reads a CSV with a header (kernel, regime keys, axes) on stdin\n"
    "and writes each row plus latency_us,source,confidence,method.\n"
    "Default profile: $MLIR_LATENCY_PROFILE, else h100-sxm.\n";

/* precision=bf16|f16|fp8|int8 (as the pass option): float dtype and
 * kv_dtype fields are costed in that type; false for an unknown name. */
static bool applyPrecision(CmField *fields, size_t n, CmError *err) {
  const char *precision = NULL;
  for (size_t i = 0; i < n; i++)
    if (!strcmp(fields[i].name, "precision"))
      precision = fields[i].value;
  bool known;
  const char *dtype = cmPrecisionGetDtype(precision, &known);
  if (!known) {
    cmErrorSet(err, CM_ERR_QUERY,
               "precision: '%.40s' is not as-is, bf16, f16, fp8 or int8",
               precision);
    return false;
  }
  for (size_t i = 0; dtype && i < n; i++)
    if ((!strcmp(fields[i].name, "dtype") ||
         !strcmp(fields[i].name, "kv_dtype")) &&
        cmDtypeIsFloat(fields[i].value))
      fields[i].value = dtype;
  return true;
}

/* Splits the fields into the query proper and the flops/bytes numbers;
 * returns false with a message for a malformed number. */
static bool buildQuery(CmField *fields, size_t n, CmQuery *query,
                       CmError *err) {
  memset(query, 0, sizeof *query);
  query->flops = query->bytes = -1;
  query->fields = fields;
  query->numFields = n;
  for (size_t i = 0; i < n; i++) {
    double *target = !strcmp(fields[i].name, "flops")   ? &query->flops
                     : !strcmp(fields[i].name, "bytes") ? &query->bytes
                                                        : NULL;
    if (!strcmp(fields[i].name, "kernel"))
      query->kernel = fields[i].value;
    if (target && (!cmParseNumber(fields[i].value, target) || !(*target >= 0) ||
                   isinf(*target))) {
      cmErrorSet(err, CM_ERR_QUERY, "%s: '%.40s' is not a non-negative number",
                 fields[i].name, fields[i].value);
      return false;
    }
  }
  if (!query->kernel) {
    cmErrorSet(err, CM_ERR_QUERY, "no kernel= given");
    return false;
  }
  return applyPrecision(fields, n, err);
}

/*------------------------------------------------------------------ batch --*/

typedef struct {
  CmProfile profile;
  CmOptions options;
  char *header[CM_CSV_MAX_FIELDS];
  size_t numColumns;
  size_t numErrors;
} Batch;

static void writeCell(const char *text) {
  if (strpbrk(text, ",\"\r\n"))
    csv_fwrite(stdout, text, strlen(text));
  else
    fputs(text, stdout);
}

static CmStatus answerRow(void *context, char **cells, size_t n, size_t line,
                          CmError *unused) {
  (void)unused;
  Batch *b = context;
  if (b->numColumns == 0) {
    for (size_t i = 0; i < n; i++) {
      if (!(b->header[i] = cmStrDup(cells[i])))
        return CM_ERR_NOMEM;
      writeCell(cells[i]);
      fputc(',', stdout);
    }
    b->numColumns = n;
    fputs("latency_us,source,confidence,method\n", stdout);
    return CM_OK;
  }
  CmField fields[CM_CSV_MAX_FIELDS];
  for (size_t i = 0; i < n && i < b->numColumns; i++)
    fields[i] = (CmField){b->header[i], cells[i]};
  CmQuery query;
  CmEstimate e;
  CmError err;
  bool ok = n == b->numColumns;
  if (!ok)
    cmErrorSet(&err, CM_ERR_QUERY, "%zu fields, header has %zu", n,
               b->numColumns);
  ok = ok && buildQuery(fields, n, &query, &err) &&
       cmProfileEstimate(b->profile, &query, &b->options, &e, &err) == CM_OK;
  for (size_t i = 0; i < n; i++) {
    writeCell(cells[i]);
    fputc(',', stdout);
  }
  if (!ok) {
    fprintf(stderr, "latency-query: stdin:%zu: %s\n", line, err.message);
    b->numErrors++;
    fputs(",error,,\n", stdout);
  } else if (e.source == CM_SOURCE_UNKNOWN) {
    fputs(",unknown,0,none\n", stdout);
  } else {
    fprintf(stdout, "%.17g,%s,%.17g,%s\n", e.latencyUs,
            cmSourceGetName(e.source), e.confidence, cmMethodGetName(e.method));
  }
  return CM_OK;
}

static int runBatch(CmProfile profile, CmOptions options) {
  static char buffer[1 << 16];
  setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  Batch b = {.profile = profile, .options = options};
  CmError err;
  CmStatus status = cmCsvReadStream(stdin, "stdin", answerRow, &b, &err);
  for (size_t i = 0; i < b.numColumns; i++)
    free(b.header[i]);
  fflush(stdout);
  if (status != CM_OK) {
    fprintf(stderr, "latency-query: %s\n", err.message);
    return 1;
  }
  if (b.numErrors)
    fprintf(stderr, "latency-query: %zu row(s) had errors\n", b.numErrors);
  return b.numErrors ? 2 : 0;
}

/*------------------------------------------------------------------- main --*/

/* Loads the profile in `dir`: every table for a batch (`query` NULL), else
 * only those that could answer `query`. */
static CmStatus loadProfile(const char *dir, const CmQuery *query,
                            CmProfile *profile, CmError *err) {
  if (!query)
    return cmProfileCreateFromDir(dir, profile, err);
  CmStatus status = cmProfileCreateFromDirWithoutTables(dir, profile, err);
  if (status != CM_OK)
    return status;
  if ((status = cmProfileLoadTablesFor(*profile, query, 1, err)) != CM_OK)
    cmProfileDestroy(*profile);
  return status;
}

int main(int argc, char **argv) {
  const char *profileName = NULL;
  CmOptions options = cmOptionsDefault();
  bool batch = false;
  CmField fields[64];
  size_t numFields = 0;
  for (int i = 1; i < argc; i++) {
    char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(kUsage, stdout);
      return 0;
    } else if (!strcmp(arg, "--profile") && i + 1 < argc) {
      profileName = argv[++i];
    } else if (!strncmp(arg, "--profile=", 10)) {
      profileName = arg + 10;
    } else if (!strcmp(arg, "--no-interpolation")) {
      options.interpolation = false;
    } else if (!strcmp(arg, "--batch")) {
      batch = true;
    } else if (!strncmp(arg, "profile=", 8)) {
      /* the pass's spelling: as a field it would be ignored and the
       * default profile would answer */
      fprintf(stderr, "latency-query: '%s': the profile is --profile DIR\n",
              arg);
      return 2;
    } else if (arg[0] != '-' && strchr(arg, '=') && numFields < 64) {
      char *eq = strchr(arg, '=');
      *eq = '\0';
      fields[numFields++] = (CmField){arg, eq + 1};
    } else {
      fprintf(stderr, "latency-query: unexpected argument '%s'\n%s", arg,
              kUsage);
      return 2;
    }
  }
  if (!batch && numFields == 0) {
    fputs(kUsage, stderr);
    return 2;
  }
  CmError err;
  CmQuery query;
  if (!batch && !buildQuery(fields, numFields, &query, &err)) {
    fprintf(stderr, "latency-query: %s\n", err.message);
    return 2;
  }
  char dir[4096];
  CmProfile profile;
  if (!cmProfileFindDir(profileName, dir, sizeof dir, &err) ||
      loadProfile(dir, batch ? NULL : &query, &profile, &err) != CM_OK) {
    fprintf(stderr, "latency-query: %s\n", err.message);
    return 1;
  }
  int rc = 0;
  if (batch) {
    rc = runBatch(profile, options);
  } else {
    CmEstimate e;
    if (cmProfileEstimate(profile, &query, &options, &e, &err) != CM_OK) {
      fprintf(stderr, "latency-query: %s\n", err.message);
      rc = 2;
    } else {
      cmEstimatePrintJson(&e, stdout);
    }
  }
  char notes[8192]; /* room for several notes, one per line */
  if (cmCacheTakeNotes(notes, sizeof notes))
    for (char *line = strtok(notes, "\n"); line; line = strtok(NULL, "\n"))
      fprintf(stderr, "latency-query: note: %s\n", line);
  cmProfileDestroy(profile);
  return rc;
}
