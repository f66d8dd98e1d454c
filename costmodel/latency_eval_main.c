/*===- latency_eval_main.c - hold-out accuracy reports ---------------------===*
 *
 *   latency-eval --profile P [--kernel K] [key=value ...]
 *                (--holdout F --seed S | --leave-one-out [--samples N])
 *                [--format md|json] [--summary-only]
 *
 * Hold-out: picks F (a fraction < 1, or a count) of the measured points that
 * pass the filters, at random with seed S, loads the profile without them
 * (all their duplicate rows go too), and predicts each one. Leave-one-out:
 * for N sampled points, loads the profile without that one point and
 * predicts it. Every point is also predicted by the roofline alone. Reports
 * per-sample rows and summaries per answering tier.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"

#include "csv_reader.h"
#include "eval_metrics.h"
#include "policy.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kUsage[] =
    "usage: latency-eval --profile NAME|DIR [--kernel K] [key=value ...]\n"
    "         (--holdout F --seed S | --holdout-points FILE |\n"
    "          --off-grid AXES [--values N] --seed S |\n"
    "          --leave-one-out [--samples N] [--seed S])\n"
    "         [--format md|json] [--summary-only]\n"
    "--holdout: F < 1 is a fraction of the points, F >= 1 a count, at random.\n"
    "--holdout-points: the points whose axis values are rows of FILE (a CSV\n"
    "  with the axis columns), e.g. the golden hold-out of the 1D rule.\n"
    "--off-grid m,n: N interior values of each axis (default 3) at random;\n"
    "  every point at one of them is held out, and those off-grid on all the\n"
    "  named axes are predicted (what a query between grid values meets).\n"
    "key=value keeps only points whose regime key has that value.\n";

typedef struct {
  char key[256]; /* kernel|regime|axes, identifies a point     */
  CmPoint point; /* names borrow from the full profile; kernel */
                 /* and regime values point into this struct:  */
                 /* call repoint() after moving it             */
  char kernel[64];
  char regime[CM_MAX_REGIME][48];
} Candidate;

/* Points the candidate's strings at its own copies again. */
static void repoint(Candidate *c) {
  c->point.kernel = c->kernel;
  for (int r = 0; r < c->point.numRegime; r++)
    c->point.regimeValues[r] = c->regime[r];
}

typedef struct {
  const char *kernel;  /* --kernel filter or NULL */
  CmField filters[16]; /* regime filters          */
  size_t numFilters;
  Candidate *items;
  size_t count, capacity;
} Selection;

static void pointKey(const CmPoint *p, char *out, size_t size) {
  size_t used = (size_t)snprintf(out, size, "%s", p->kernel);
  for (int r = 0; r < p->numRegime && used < size; r++)
    used +=
        (size_t)snprintf(out + used, size - used, "|%s", p->regimeValues[r]);
  for (int a = 0; a < p->numAxes && used < size; a++)
    used += (size_t)snprintf(out + used, size - used, "|%.17g", p->axes[a]);
}

static bool passesFilters(const Selection *s, const CmPoint *p) {
  if (s->kernel && strcmp(s->kernel, p->kernel))
    return false;
  for (size_t f = 0; f < s->numFilters; f++) {
    bool match = false;
    for (int r = 0; r < p->numRegime; r++) {
      if (strcmp(p->regimeNames[r], s->filters[f].name))
        continue;
      char want[64];
      cmCanonicalRegimeValue(s->filters[f].name, s->filters[f].value, want,
                             sizeof want);
      match = !strcmp(want, p->regimeValues[r]);
    }
    if (!match)
      return false;
  }
  return true;
}

static void collect(void *context, const CmPoint *p) {
  Selection *s = context;
  if (!passesFilters(s, p))
    return;
  if (s->count == s->capacity) {
    s->capacity = s->capacity ? 2 * s->capacity : 1024;
    s->items = realloc(s->items, s->capacity * sizeof *s->items);
    if (!s->items) {
      fputs("latency-eval: out of memory\n", stderr);
      exit(1);
    }
  }
  Candidate *c = &s->items[s->count++];
  pointKey(p, c->key, sizeof c->key);
  c->point = *p;
  snprintf(c->kernel, sizeof c->kernel, "%s", p->kernel);
  for (int r = 0; r < p->numRegime; r++)
    snprintf(c->regime[r], sizeof c->regime[r], "%s", p->regimeValues[r]);
}

/* splitmix64: a small, well-mixed generator; same seed, same points. */
static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void shuffle(Candidate *items, size_t n, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)(nextRandom(&state) % i);
    Candidate tmp = items[i - 1];
    items[i - 1] = items[j];
    items[j] = tmp;
  }
}

static int compareKeys(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct {
  char **keys; /* sorted keys of held-out points */
  size_t count;
} HeldOut;

static bool keepRow(void *context, const CmPoint *row) {
  const HeldOut *h = context;
  char key[256];
  pointKey(row, key, sizeof key);
  const char *k = key;
  return !bsearch(&k, h->keys, h->count, sizeof *h->keys, compareKeys);
}

typedef struct {
  const Candidate *c;
  double predicted, roofline;
  CmEstimate e;
} Sample;

/* Predicts candidate c from `train`: the full model and the roofline alone. */
static void predict(CmProfile train, const Candidate *c, Sample *out) {
  const CmPoint *p = &c->point;
  char text[CM_MAX_AXES][32];
  CmField fields[CM_MAX_REGIME + CM_MAX_AXES];
  size_t n = 0;
  for (int r = 0; r < p->numRegime; r++)
    fields[n++] = (CmField){p->regimeNames[r], p->regimeValues[r]};
  for (int a = 0; a < p->numAxes; a++) {
    snprintf(text[a], sizeof text[a], "%.17g", p->axes[a]);
    fields[n++] = (CmField){p->axisNames[a], text[a]};
  }
  CmQuery q = {p->kernel, fields, n, -1, -1};
  CmOptions on = cmOptionsDefault(), off = {false};
  CmEstimate roof;
  out->c = c;
  cmProfileEstimate(train, &q, &on, &out->e, NULL);
  cmProfileEstimate(train, &q, &off, &roof, NULL);
  out->predicted = out->e.latencyUs;
  out->roofline = roof.latencyUs;
}

/*----------------------------------------------------------- confidence --*/

/* Accuracy of the answers in one confidence band. */
typedef struct {
  double lo, hi, meanConfidence; /* band of displayed confidence       */
  EvalSummary s;                 /* actual accuracy in the band        */
} Band;

static const Sample *sortSamples; /* qsort has no context argument */

static int compareByConfidence(const void *a, const void *b) {
  double x = sortSamples[*(const size_t *)a].e.confidence;
  double y = sortSamples[*(const size_t *)b].e.confidence;
  return (x > y) - (x < y);
}

/* Summarises samples order[from..to) into a band. */
static Band bandOf(const Sample *samples, const size_t *order, size_t from,
                   size_t to, double *pred, double *meas) {
  Band band = {INFINITY, -INFINITY, 0, {0}};
  size_t m = 0;
  for (size_t i = from; i < to; i++) {
    const Sample *s = &samples[order[i]];
    band.lo = fmin(band.lo, s->e.confidence);
    band.hi = fmax(band.hi, s->e.confidence);
    band.meanConfidence += s->e.confidence / (double)(to - from);
    pred[m] = s->predicted;
    meas[m++] = s->c->point.latencyUs;
  }
  band.s = evalSummarise(pred, meas, m);
  return band;
}

/* Five equal-count bands by displayed confidence, lowest first, then the
 * better half; `bands` has 6 entries. Returns false when n < 5. */
static bool confidenceBands(const Sample *samples, size_t n, Band *bands) {
  if (n < 5)
    return false;
  size_t *order = malloc(n * sizeof *order);
  double *pred = malloc(n * sizeof *pred), *meas = malloc(n * sizeof *meas);
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  sortSamples = samples;
  qsort(order, n, sizeof *order, compareByConfidence);
  for (int q = 0; q < 5; q++)
    bands[q] = bandOf(samples, order, q * n / 5, (q + 1) * n / 5, pred, meas);
  bands[5] = bandOf(samples, order, n / 2, n, pred, meas);
  free(order);
  free(pred);
  free(meas);
  return true;
}

/*---------------------------------------------------------------- output --*/

typedef struct {
  const char *label;
  EvalSummary s;
} Row;

static void summarise(const Sample *samples, size_t n, Row *rows) {
  double *pred = malloc((n + 1) * sizeof *pred);
  double *meas = malloc((n + 1) * sizeof *meas);
  const struct {
    const char *label;
    int source; /* -1: all, -2: roofline alone over all */
  } tiers[] = {{"interpolated", CM_SOURCE_INTERPOLATED},
               {"roofline (fallback)", CM_SOURCE_ROOFLINE},
               {"all answers", -1},
               {"roofline only, all points", -2}};
  for (int t = 0; t < 4; t++) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
      const Sample *s = &samples[i];
      bool in = tiers[t].source < 0 || (int)s->e.source == tiers[t].source;
      double value = tiers[t].source == -2 ? s->roofline : s->predicted;
      if (!in || !(value > 0))
        continue;
      pred[m] = value;
      meas[m++] = s->c->point.latencyUs;
    }
    rows[t].label = tiers[t].label;
    rows[t].s = evalSummarise(pred, meas, m);
  }
  free(pred);
  free(meas);
}

static void printMarkdown(const char *protocol, const Sample *samples, size_t n,
                          const Row *rows, bool summaryOnly) {
  printf("# latency-eval: %s\n\n", protocol);
  printf("| answers | points | MAPE %% | RMSPE %% | p50 %% | p90 %% | within "
         "5%% | within 10%% | Spearman |\n|---|---:|---:|---:|---:|---:|---:|"
         "---:|---:|\n");
  for (int t = 0; t < 4; t++) {
    const EvalSummary *s = &rows[t].s;
    printf("| %s | %zu | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.4f |\n",
           rows[t].label, s->count, s->mape, s->rmspe, s->p50, s->p90,
           s->within5, s->within10, s->spearman);
  }
  Band bands[6];
  if (confidenceBands(samples, n, bands)) {
    printf(
        "\nBy displayed confidence (all answers; confidence is the predicted "
        "chance of being within 10%%):\n\n| band | confidence | mean "
        "confidence | points | MAPE %% | within 10%% |\n|---|---|---:|---:|"
        "---:|---:|\n");
    for (int q = 0; q < 6; q++)
      printf("| %s | %.3f - %.3f | %.3f | %zu | %.2f | %.1f |\n",
             q < 5 ? (const char *[]){"quintile 1 (lowest)", "quintile 2",
                                      "quintile 3", "quintile 4",
                                      "quintile 5 (highest)"}[q]
                   : "better half",
             bands[q].lo, bands[q].hi, bands[q].meanConfidence,
             bands[q].s.count, bands[q].s.mape, bands[q].s.within10);
  }
  if (summaryOnly)
    return;
  printf("\n| kernel | regime | axes | measured us | predicted us | abs err us "
         "| rel err %% | source | confidence | method | candidates |\n"
         "|---|---|---|---:|---:|---:|---:|---|---:|---|---:|\n");
  for (size_t i = 0; i < n; i++) {
    const Sample *s = &samples[i];
    const CmPoint *p = &s->c->point;
    printf("| %s | ", p->kernel);
    for (int r = 0; r < p->numRegime; r++)
      printf("%s%s=%s", r ? " " : "", p->regimeNames[r], p->regimeValues[r]);
    printf(" | ");
    for (int a = 0; a < p->numAxes; a++)
      printf("%s%s=%.17g", a ? " " : "", p->axisNames[a], p->axes[a]);
    double y = p->latencyUs;
    printf(" | %.6g | %.6g | %.4g | %.3f | %s | %.3f | %s | %zu |\n", y,
           s->predicted, fabs(s->predicted - y), 100 * (s->predicted - y) / y,
           cmSourceGetName(s->e.source), s->e.confidence,
           cmMethodGetName(s->e.method), s->e.counts.filtered);
  }
}

/* JSON has no NaN: an empty summary's figures print as null. */
static void printJsonNumber(const char *key, double value, bool last) {
  if (isfinite(value))
    printf("\"%s\":%.17g%s", key, value, last ? "" : ",");
  else
    printf("\"%s\":null%s", key, last ? "" : ",");
}

static void printJsonSummary(const EvalSummary *s) {
  printf("{\"points\":%zu,", s->count);
  printJsonNumber("mape", s->mape, false);
  printJsonNumber("rmspe", s->rmspe, false);
  printJsonNumber("p50", s->p50, false);
  printJsonNumber("p90", s->p90, false);
  printJsonNumber("within5", s->within5, false);
  printJsonNumber("within10", s->within10, false);
  printJsonNumber("spearman", s->spearman, true);
  printf("}");
}

static void printJson(const char *protocol, const Sample *samples, size_t n,
                      const Row *rows, bool summaryOnly) {
  printf("{\"protocol\":\"%s\",\"summary\":{", protocol);
  for (int t = 0; t < 4; t++) {
    printf("%s\"%s\":", t ? "," : "", rows[t].label);
    printJsonSummary(&rows[t].s);
  }
  Band bands[6];
  printf("},\"confidence_bands\":[");
  if (confidenceBands(samples, n, bands))
    for (int q = 0; q < 6; q++) {
      printf("%s{\"band\":\"%s\",\"lo\":%.17g,\"hi\":%.17g,"
             "\"mean_confidence\":%.17g,\"summary\":",
             q ? "," : "", q < 5 ? "quintile" : "better half", bands[q].lo,
             bands[q].hi, bands[q].meanConfidence);
      printJsonSummary(&bands[q].s);
      printf("}");
    }
  printf("],\"samples\":[");
  for (size_t i = 0; !summaryOnly && i < n; i++) {
    const Sample *s = &samples[i];
    const CmPoint *p = &s->c->point;
    printf("%s\n{\"kernel\":\"%s\",\"regime\":{", i ? "," : "", p->kernel);
    for (int r = 0; r < p->numRegime; r++)
      printf("%s\"%s\":\"%s\"", r ? "," : "", p->regimeNames[r],
             p->regimeValues[r]);
    printf("},\"axes\":{");
    for (int a = 0; a < p->numAxes; a++)
      printf("%s\"%s\":%.17g", a ? "," : "", p->axisNames[a], p->axes[a]);
    double y = p->latencyUs;
    printf("},\"measured_us\":%.17g,\"predicted_us\":%.17g,\"abs_err_us\":"
           "%.17g,\"rel_err\":%.17g,\"source\":\"%s\",\"confidence\":%.17g,"
           "\"method\":\"%s\",\"candidates\":%zu,\"roofline_us\":%.17g}",
           y, s->predicted, fabs(s->predicted - y), (s->predicted - y) / y,
           cmSourceGetName(s->e.source), s->e.confidence,
           cmMethodGetName(s->e.method), s->e.counts.filtered, s->roofline);
  }
  printf("]}\n");
}

/*------------------------------------------------------------------ main --*/

typedef struct {
  const char *profile, *kernel, *format;
  double holdout;            /* --holdout F, 0 when not given          */
  const char *holdoutPoints; /* --holdout-points FILE                  */
  const char *offGrid;       /* --off-grid axes, comma-separated       */
  size_t values;             /* --values: interior values per axis     */
  uint64_t seed;
  bool leaveOneOut, summaryOnly;
  size_t samples;
} Args;

static bool parseArgs(int argc, char **argv, Args *a, Selection *sel) {
  *a = (Args){NULL, NULL, "md", 0, NULL, NULL, 3, 0, false, false, 100};
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--profile") && next)
      a->profile = argv[++i];
    else if (!strcmp(arg, "--kernel") && next)
      a->kernel = argv[++i];
    else if (!strcmp(arg, "--holdout") && next)
      a->holdout = atof(argv[++i]);
    else if (!strcmp(arg, "--holdout-points") && next)
      a->holdoutPoints = argv[++i];
    else if (!strcmp(arg, "--off-grid") && next)
      a->offGrid = argv[++i];
    else if (!strcmp(arg, "--values") && next)
      a->values = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(arg, "--seed") && next)
      a->seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(arg, "--samples") && next)
      a->samples = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(arg, "--format") && next)
      a->format = argv[++i];
    else if (!strcmp(arg, "--leave-one-out"))
      a->leaveOneOut = true;
    else if (!strcmp(arg, "--summary-only"))
      a->summaryOnly = true;
    else if (arg[0] != '-' && strchr(arg, '=') && sel->numFilters < 16) {
      char *eq = strchr(argv[i], '=');
      *eq = '\0';
      sel->filters[sel->numFilters++] = (CmField){argv[i], eq + 1};
    } else
      return false;
  }
  sel->kernel = a->kernel;
  int protocols =
      (a->holdout > 0) + a->leaveOneOut + !!a->holdoutPoints + !!a->offGrid;
  return protocols == 1 &&
         (!strcmp(a->format, "md") || !strcmp(a->format, "json"));
}

/*------------------------------------------------------ point selection --*/

/* Axis tuples read from a --holdout-points file. */
typedef struct {
  const Selection *sel;
  int column[CM_MAX_AXES]; /* file column of each axis of the points */
  double (*rows)[CM_MAX_AXES];
  size_t count, capacity;
} PointFile;

static CmStatus readPointRow(void *context, char **f, size_t n, size_t line,
                             CmError *err) {
  PointFile *pf = context;
  const CmPoint *p = &pf->sel->items[0].point;
  if (line == 1) {
    for (int a = 0; a < p->numAxes; a++) {
      pf->column[a] = -1;
      for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i], p->axisNames[a]))
          pf->column[a] = (int)i;
      if (pf->column[a] < 0) {
        snprintf(err->message, sizeof err->message, "line 1: no column '%s'",
                 p->axisNames[a]);
        return CM_ERR_FORMAT;
      }
    }
    return CM_OK;
  }
  if (pf->count == pf->capacity) {
    pf->capacity = pf->capacity ? 2 * pf->capacity : 1024;
    pf->rows = realloc(pf->rows, pf->capacity * sizeof *pf->rows);
    if (!pf->rows)
      return CM_ERR_NOMEM;
  }
  for (int a = 0; a < p->numAxes; a++)
    pf->rows[pf->count][a] =
        (size_t)pf->column[a] < n ? atof(f[pf->column[a]]) : NAN;
  pf->count++;
  return CM_OK;
}

static bool samePoint(const double *x, const double *y, int n) {
  for (int a = 0; a < n; a++)
    if (x[a] != y[a])
      return false;
  return true;
}

/* Moves the candidates listed in `path` to the front; returns their count,
 * or (size_t)-1 on error. Quadratic in the worst case, fine for thousands. */
static size_t selectListed(Selection *sel, const char *path) {
  PointFile pf = {.sel = sel};
  CmError err;
  if (cmCsvReadFile(path, path, readPointRow, &pf, &err) != CM_OK) {
    fprintf(stderr, "latency-eval: %s: %s\n", path, err.message);
    free(pf.rows);
    return (size_t)-1;
  }
  size_t front = 0;
  for (size_t i = 0; i < sel->count; i++)
    for (size_t r = 0; r < pf.count; r++)
      if (samePoint(sel->items[i].point.axes, pf.rows[r],
                    sel->items[i].point.numAxes)) {
        Candidate tmp = sel->items[front];
        sel->items[front++] = sel->items[i];
        sel->items[i] = tmp;
        break;
      }
  free(pf.rows);
  return front;
}

static int compareValues(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Picks `want` interior values of axis `a` at random into `out`. */
static size_t pickInterior(const Selection *sel, int a, size_t want,
                           uint64_t *state, double *out) {
  double *v = malloc(sel->count * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < sel->count; i++)
    v[n++] = sel->items[i].point.axes[a];
  qsort(v, n, sizeof *v, compareValues);
  size_t distinct = 0;
  for (size_t i = 0; i < n; i++)
    if (distinct == 0 || v[i] != v[distinct - 1])
      v[distinct++] = v[i];
  size_t interior = distinct > 2 ? distinct - 2 : 0, picked = 0;
  for (size_t i = 0; i < interior && picked < want; i++) /* selection */
    if (nextRandom(state) % (interior - i) < want - picked)
      out[picked++] = v[i + 1];
  free(v);
  return picked;
}

static bool isAmong(double x, const double *values, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (values[i] == x)
      return true;
  return false;
}

/* The --off-grid protocol: held-out keys (every point at a picked value of
 * any named axis) into `keys`; the predicted points (at picked values of all
 * named axes) moved to the front of the selection; returns their count. */
static size_t selectOffGrid(Selection *sel, const Args *args, char ***keys,
                            size_t *numKeys, char *names, size_t namesSize) {
  const CmPoint *p0 = &sel->items[0].point;
  int axes[CM_MAX_AXES], numAxes = 0;
  double values[CM_MAX_AXES][64];
  size_t numValues[CM_MAX_AXES];
  uint64_t state = args->seed;
  char list[256];
  snprintf(list, sizeof list, "%s", args->offGrid);
  names[0] = '\0';
  for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
    int a = -1;
    for (int i = 0; i < p0->numAxes; i++)
      if (!strcmp(p0->axisNames[i], t))
        a = i;
    if (a < 0 || numAxes == CM_MAX_AXES) {
      fprintf(stderr, "latency-eval: '%s' is not an axis of %s\n", t,
              p0->kernel);
      return (size_t)-1;
    }
    axes[numAxes] = a;
    numValues[numAxes] = pickInterior(
        sel, a, args->values < 64 ? args->values : 64, &state, values[numAxes]);
    size_t used = strlen(names);
    used += (size_t)snprintf(names + used, namesSize - used,
                             "%s%s=", used ? " " : "", t);
    for (size_t v = 0; v < numValues[numAxes]; v++)
      used += (size_t)snprintf(names + used, namesSize - used, "%s%.17g",
                               v ? "," : "", values[numAxes][v]);
    numAxes++;
  }
  *keys = malloc((sel->count + 1) * sizeof **keys);
  *numKeys = 0;
  size_t front = 0;
  for (size_t i = 0; i < sel->count; i++) {
    int hits = 0;
    for (int k = 0; k < numAxes; k++)
      hits +=
          isAmong(sel->items[i].point.axes[axes[k]], values[k], numValues[k]);
    if (hits == 0)
      continue;
    if (hits == numAxes) {
      Candidate tmp = sel->items[front];
      sel->items[front] = sel->items[i];
      sel->items[i] = tmp;
      front++;
    }
  }
  for (size_t i = 0; i < sel->count; i++) {
    int hits = 0;
    for (int k = 0; k < numAxes; k++)
      hits +=
          isAmong(sel->items[i].point.axes[axes[k]], values[k], numValues[k]);
    if (hits)
      (*keys)[(*numKeys)++] = sel->items[i].key;
  }
  return front;
}

static void progress(size_t done, size_t total) {
  if (total >= 20 && done % (total / 10) == 0)
    fprintf(stderr, "latency-eval: %zu/%zu\n", done, total);
}

int main(int argc, char **argv) {
  Args args;
  Selection sel = {0};
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (!parseArgs(argc, argv, &args, &sel)) {
    fputs(kUsage, stderr);
    return 2;
  }
  char dir[4096];
  CmError err;
  CmProfile full;
  if (!cmProfileFindDir(args.profile, dir, sizeof dir, &err) ||
      cmProfileCreateFromDir(dir, &full, &err) != CM_OK) {
    fprintf(stderr, "latency-eval: %s\n", err.message);
    return 1;
  }
  cmProfileForEachPoint(full, collect, &sel); /* names borrow from full */
  if (sel.count == 0) {
    fputs("latency-eval: no measured points pass the filters\n", stderr);
    cmProfileDestroy(full);
    return 1;
  }
  shuffle(sel.items, sel.count, args.seed);
  size_t n, numKeys = 0;
  char **keys = NULL;
  char detail[1024] = "";
  if (args.holdoutPoints) {
    n = selectListed(&sel, args.holdoutPoints);
    snprintf(detail, sizeof detail, "the %zu points of %s", n,
             args.holdoutPoints);
  } else if (args.offGrid) {
    char names[900];
    n = selectOffGrid(&sel, &args, &keys, &numKeys, names, sizeof names);
    snprintf(detail, sizeof detail,
             "off-grid in %s: %zu points held out, %zu predicted (seed %llu)",
             names, numKeys, n, (unsigned long long)args.seed);
  } else {
    n = args.leaveOneOut   ? args.samples
        : args.holdout < 1 ? (size_t)llround(args.holdout * sel.count)
                           : (size_t)args.holdout;
    if (n > sel.count)
      n = sel.count;
    snprintf(detail, sizeof detail, "%s, %zu of %zu points (seed %llu)",
             args.leaveOneOut ? "leave-one-out" : "random hold-out", n,
             sel.count, (unsigned long long)args.seed);
  }
  if (n == (size_t)-1) {
    cmProfileDestroy(full);
    return 1;
  }
  for (size_t i = 0; i < sel.count; i++)
    repoint(&sel.items[i]);
  if (!keys) {
    keys = malloc((n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++)
      keys[i] = sel.items[i].key;
    numKeys = n;
  }
  Sample *samples = calloc(n + 1, sizeof *samples);
  char protocol[6000];
  snprintf(protocol, sizeof protocol, "%s, profile %s", detail, dir);
  int rc = 0;
  if (args.leaveOneOut) {
    for (size_t i = 0; i < n && rc == 0; i++) {
      HeldOut one = {&keys[i], 1};
      CmProfile train;
      if (cmProfileCreateFromDirFiltered(dir, keepRow, &one, &train, &err) !=
          CM_OK) {
        fprintf(stderr, "latency-eval: %s\n", err.message);
        rc = 1;
        break;
      }
      predict(train, &sel.items[i], &samples[i]);
      cmProfileDestroy(train);
      progress(i + 1, n);
    }
  } else {
    qsort(keys, numKeys, sizeof *keys, compareKeys);
    HeldOut held = {keys, numKeys};
    CmProfile train;
    if (cmProfileCreateFromDirFiltered(dir, keepRow, &held, &train, &err) !=
        CM_OK) {
      fprintf(stderr, "latency-eval: %s\n", err.message);
      rc = 1;
    } else {
      for (size_t i = 0; i < n; i++) {
        predict(train, &sel.items[i], &samples[i]);
        progress(i + 1, n);
      }
      cmProfileDestroy(train);
    }
  }
  if (rc == 0) {
    Row rows[4];
    summarise(samples, n, rows);
    if (!strcmp(args.format, "json"))
      printJson(protocol, samples, n, rows, args.summaryOnly);
    else
      printMarkdown(protocol, samples, n, rows, args.summaryOnly);
  }
  free(keys);
  free(samples);
  free(sel.items);
  cmProfileDestroy(full);
  return rc;
}
