/*===- eval_transfer.c - latency-eval --transfer: accuracy of a transfer --===*
 *
 *   latency-eval --transfer --from REF --device DEV.csv --target TABLE.csv
 *                [--kernel K] [key=value ...] [--random K | --suggest K]
 *                [--seed S] [--format md|json] [--summary-only]
 *
 * TABLE.csv is a measured table of the target (profile table format; with
 * --kernel K, a table without a kernel column is read as K's). K of
 * its points are "measured": at random, or the K that latency-transfer
 * --suggest picks from the table's shapes (then looked up in the table, as
 * a user would measure them). The transfer from REF with those points is
 * written to a scratch profile and every other point of the table is
 * predicted from it, and from the target's roofline alone, through the
 * ordinary cost model. The scratch directory is removed afterwards.
 *
 *===----------------------------------------------------------------------===*/
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw */

#include "latency/transfer.h"

#include "eval.h"

#include "latency/costmodel_util.h"
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { kMaxColumns = 64 };

typedef struct {
  const char *from, *device, *target, *format;
  size_t count; /* target points to use */
  bool suggest, summaryOnly;
  uint64_t seed;
} Args;

static bool parseArgs(int argc, char **argv, Args *a, Selection *sel) {
  *a = (Args){.format = "md"};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--transfer") || !strcmp(arg, "--summary-only")) {
      a->summaryOnly |= !strcmp(arg, "--summary-only");
      continue;
    }
    if (arg[0] != '-' && strchr(arg, '=') && sel->numFilters < 16) {
      char *eq = strchr(argv[i], '=');
      *eq = '\0';
      sel->filters[sel->numFilters++] = (CmField){argv[i], eq + 1};
      continue;
    }
    if (!next)
      return false;
    if (!strcmp(arg, "--from"))
      a->from = next;
    else if (!strcmp(arg, "--device"))
      a->device = next;
    else if (!strcmp(arg, "--target"))
      a->target = next;
    else if (!strcmp(arg, "--kernel"))
      sel->kernel = next;
    else if (!strcmp(arg, "--random") || !strcmp(arg, "--suggest")) {
      a->count = strtoul(next, NULL, 10);
      a->suggest = !strcmp(arg, "--suggest");
    } else if (!strcmp(arg, "--seed"))
      a->seed = strtoull(next, NULL, 10);
    else if (!strcmp(arg, "--format"))
      a->format = next;
    else
      return false;
    i++;
  }
  return a->from && a->device && a->target &&
         (!strcmp(a->format, "md") || !strcmp(a->format, "json"));
}

static int removeEntry(const char *path, const struct stat *st, int flag,
                       struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

/* Copies the target table, adding a `kernel` column when it has none and
 * --kernel names one (a raw GEMM table: m,n,k,dtype,latency_us). */
typedef struct {
  FILE *out;
  const char *kernel; /* --kernel, or NULL */
  bool sawHeader, add;
} TableCopy;

static CmStatus copyRow(void *context, char **fields, size_t n, size_t line,
                        CmError *err) {
  TableCopy *c = context;
  (void)line, (void)err;
  if (!c->sawHeader) {
    c->sawHeader = true;
    c->add = c->kernel != NULL;
    for (size_t i = 0; i < n; i++)
      c->add &= strcmp(fields[i], "kernel") != 0;
    if (c->add)
      fputs("kernel,", c->out);
  } else if (c->add) {
    cmCsvWriteField(c->out, c->kernel);
    fputc(',', c->out);
  }
  for (size_t i = 0; i < n; i++) {
    fputs(i ? "," : "", c->out);
    cmCsvWriteField(c->out, fields[i]);
  }
  fputc('\n', c->out);
  return CM_OK;
}

static CmStatus copyTable(const char *from, const char *to, const char *kernel,
                          CmError *err) {
  TableCopy c = {fopen(to, "w"), kernel, false, false};
  if (!c.out)
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot write", to);
  CmStatus status = cmCsvReadFile(from, from, copyRow, &c, err);
  fclose(c.out);
  return status;
}

/* Loads TABLE.csv as the only table of a scratch profile of the target. */
static CmStatus loadTarget(const Args *a, const char *kernel, const char *ref,
                           const char *dir, CmProfile *out, CmError *err) {
  char from[4200], to[4200];
  snprintf(to, sizeof to, "%s/target/tables", dir);
  char *slash = strrchr(to, '/');
  *slash = '\0';
  mkdir(to, 0755);
  *slash = '/';
  mkdir(to, 0755);
  const char *copies[][2] = {
      {a->device, "device.csv"}, {NULL, "fusion.csv"}, {NULL, "policy.csv"}};
  for (int i = 0; i < 3; i++) {
    snprintf(from, sizeof from, "%s/%s", ref, copies[i][1]);
    snprintf(to, sizeof to, "%s/target/%s", dir, copies[i][1]);
    CmStatus status = cmCopyFile(copies[i][0] ? copies[i][0] : from, to, err);
    if (status != CM_OK && i != 2) /* the reference may have no policy */
      return status;
  }
  char table[4200];
  snprintf(table, sizeof table, "%s/target/tables/target.csv", dir);
  CmStatus status = copyTable(a->target, table, kernel, err);
  snprintf(to, sizeof to, "%s/target", dir);
  if (status != CM_OK ||
      (status = cmProfileCreateFromDir(to, out, err)) == CM_OK)
    return status;
  char *at = strstr(err->message, table); /* name the user's file */
  if (at) {
    char message[sizeof err->message];
    snprintf(message, sizeof message, "%s%s", a->target, at + strlen(table));
    snprintf(err->message, sizeof err->message, "%s", message);
  }
  return status;
}

/* The union of the chosen points' columns: kernel, regime keys, axes. */
static size_t columnsOf(const Selection *sel, const char **columns) {
  size_t n = 0;
  columns[n++] = "kernel";
  for (size_t i = 0; i < sel->count; i++) {
    const CmPoint *p = &sel->items[i].point;
    const char *names[CM_MAX_REGIME + CM_MAX_AXES];
    int m = 0;
    for (int r = 0; r < p->numRegime; r++)
      names[m++] = p->regimeNames[r];
    for (int a = 0; a < p->numAxes; a++)
      names[m++] = p->axisNames[a];
    for (int k = 0; k < m; k++) {
      size_t c = 0;
      while (c < n && strcmp(columns[c], names[k]))
        c++;
      if (c == n && n < kMaxColumns)
        columns[n++] = names[k];
    }
  }
  return n;
}

static void writeCell(FILE *out, const CmPoint *p, const char *column) {
  if (!strcmp(column, "kernel"))
    cmCsvWriteField(out, p->kernel);
  for (int r = 0; r < p->numRegime; r++)
    if (!strcmp(column, p->regimeNames[r]))
      cmCsvWriteField(out, p->regimeValues[r]);
  for (int a = 0; a < p->numAxes; a++)
    if (!strcmp(column, p->axisNames[a]))
      fprintf(out, "%.17g", p->axes[a]);
}

/* Writes the selected points (`pick[i]`, or all when NULL) as a table CSV,
 * with latency_us (points) or with their index as column `row`
 * (candidates). */
static bool writePoints(const char *path, const Selection *sel,
                        const bool *pick, bool withLatency) {
  const char *columns[kMaxColumns];
  size_t n = columnsOf(sel, columns);
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  for (size_t c = 0; c < n; c++)
    fprintf(out, "%s%s", c ? "," : "", columns[c]);
  fputs(withLatency ? ",latency_us\n" : ",row\n", out);
  for (size_t i = 0; i < sel->count; i++) {
    if (pick && !pick[i])
      continue;
    for (size_t c = 0; c < n; c++) {
      fputs(c ? "," : "", out);
      writeCell(out, &sel->items[i].point, columns[c]);
    }
    if (withLatency)
      fprintf(out, ",%.17g\n", sel->items[i].point.latencyUs);
    else
      fprintf(out, ",%zu\n", i);
  }
  return fclose(out) == 0;
}

/* Reads the `row` column of the suggestions back into `chosen`. */
typedef struct {
  bool *chosen;
  size_t count;
  int column;
} Suggested;

static CmStatus readSuggested(void *context, char **fields, size_t n,
                              size_t line, CmError *err) {
  Suggested *s = context;
  (void)err;
  if (line == 1) {
    for (size_t i = 0; i < n; i++)
      if (!strcmp(fields[i], "row"))
        s->column = (int)i;
    return CM_OK;
  }
  if (s->column < 0 || (size_t)s->column >= n)
    return CM_OK;
  size_t row = strtoul(fields[s->column], NULL, 10);
  if (row < s->count)
    s->chosen[row] = true;
  return CM_OK;
}

/* Asks the transfer for `k` points among the selection's shapes. */
static CmStatus suggestPoints(CmTransfer t, const Selection *sel, size_t k,
                              uint64_t seed, const char *dir, bool *chosen,
                              CmError *err) {
  char candidates[4200], suggested[4200];
  snprintf(candidates, sizeof candidates, "%s/candidates.csv", dir);
  snprintf(suggested, sizeof suggested, "%s/suggested.csv", dir);
  FILE *out = fopen(suggested, "w");
  if (!out || !writePoints(candidates, sel, NULL, false)) {
    if (out)
      fclose(out);
    snprintf(err->message, sizeof err->message, "%.400s: cannot write", dir);
    return CM_ERR_IO;
  }
  CmStatus status = cmTransferSuggest(t, candidates, k, seed, out, err);
  fclose(out);
  Suggested s = {chosen, sel->count, -1};
  return status == CM_OK
             ? cmCsvReadFile(suggested, suggested, readSuggested, &s, err)
             : status;
}

/* Predicts candidate c from the transferred profile and from the target's
 * roofline alone. */
static void predict(CmProfile transferred, CmProfile roofline,
                    const Candidate *c, Sample *out) {
  PointQuery storage;
  CmQuery q = evalPointQuery(&c->point, &storage);
  CmOptions on = cmOptionsDefault();
  CmEstimate roof;
  out->c = c;
  cmProfileEstimate(transferred, &q, &on, &out->e, NULL);
  cmProfileEstimate(roofline, &q, &on, &roof, NULL);
  out->predicted = out->e.latencyUs;
  out->roofline = roof.latencyUs;
}

/* Transfers with the chosen points into `dir`/out and predicts the rest. */
static CmStatus evaluate(const Args *a, CmTransfer t, const Selection *sel,
                         const bool *chosen, const char *dir, CmError *err) {
  char points[4200], out[4200], protocol[9000];
  snprintf(points, sizeof points, "%s/points.csv", dir);
  snprintf(out, sizeof out, "%s/out", dir);
  if (!writePoints(points, sel, chosen, true))
    return CM_ERR_IO;
  CmStatus status = cmTransferAddPoints(t, points, err);
  if (status == CM_OK)
    status = cmTransferWriteProfile(t, out, NULL, err);
  CmProfile full = {NULL}, roof = {NULL};
  if (status == CM_OK &&
      (status = cmProfileCreateFromDir(out, &full, err)) == CM_OK)
    status = cmProfileCreateFromDirWithoutTables(out, &roof, err);
  Sample *samples = calloc(sel->count + 1, sizeof *samples);
  size_t n = 0;
  for (size_t i = 0; status == CM_OK && samples && i < sel->count; i++)
    if (!chosen[i])
      predict(full, roof, &sel->items[i], &samples[n++]);
  snprintf(protocol, sizeof protocol,
           "transfer from %s to %s: %zu %s target points of %s (seed %llu), "
           "%zu held-out points predicted",
           a->from, a->device, cmTransferGetNumPoints(t),
           a->suggest ? "suggested" : "random", a->target,
           (unsigned long long)a->seed, n);
  if (status == CM_OK && samples)
    evalPrintReport(!strcmp(a->format, "json"), protocol, samples, n,
                    a->summaryOnly);
  free(samples);
  cmProfileDestroy(full);
  cmProfileDestroy(roof);
  return status;
}

/* Everything after the scratch directory exists; returns the exit code. */
static int run(const Args *a, Selection sel, const char *ref, const char *dir) {
  CmError err = {""};
  CmProfile target = {NULL};
  CmTransfer t = {NULL};
  bool *chosen = NULL;
  CmStatus status = loadTarget(a, sel.kernel, ref, dir, &target, &err);
  if (status == CM_OK)
    cmProfileForEachPoint(target, evalCollect, &sel);
  if (status == CM_OK && sel.count == 0) {
    status = CM_ERR_QUERY;
    snprintf(err.message, sizeof err.message,
             "%s: no measured points pass the filters", a->target);
  }
  if (status == CM_OK) {
    evalShuffle(sel.items, sel.count, a->seed);
    for (size_t i = 0; i < sel.count; i++)
      evalRepoint(&sel.items[i]);
    chosen = calloc(sel.count, sizeof *chosen);
    status = chosen ? cmTransferCreate(ref, a->device, &t, &err) : CM_ERR_NOMEM;
  }
  size_t k = a->count < sel.count ? a->count : sel.count;
  if (status == CM_OK && a->suggest)
    status = suggestPoints(t, &sel, k, a->seed, dir, chosen, &err);
  for (size_t i = 0; status == CM_OK && !a->suggest && i < k; i++)
    chosen[i] = true;
  if (status == CM_OK)
    status = evaluate(a, t, &sel, chosen, dir, &err);
  if (status != CM_OK)
    fprintf(stderr, "latency-eval: %s\n",
            err.message[0] ? err.message : "out of memory or I/O error");
  cmTransferDestroy(t);
  free(chosen);
  free(sel.items);
  cmProfileDestroy(target);
  return status == CM_OK ? 0 : 1;
}

int evalTransferMain(int argc, char **argv) {
  Args args;
  Selection filters = {0};
  if (!parseArgs(argc, argv, &args, &filters)) {
    fputs("usage: latency-eval --transfer --from REF --device DEV.csv "
          "--target TABLE.csv\n         [--kernel K] [key=value ...] "
          "[--random K | --suggest K] [--seed S]\n         [--format md|json] "
          "[--summary-only]\n",
          stderr);
    return 2;
  }
  char ref[4096], dir[4096];
  CmError err;
  if (!cmProfileFindDir(args.from, ref, sizeof ref, &err)) {
    fprintf(stderr, "latency-eval: %s\n", err.message);
    return 1;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/latency-eval-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror(dir);
    return 1;
  }
  int rc = run(&args, filters, ref, dir);
  nftw(dir, removeEntry, 16, FTW_DEPTH | FTW_PHYS);
  return rc;
}
