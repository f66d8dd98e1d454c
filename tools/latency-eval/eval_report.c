/*===- eval_report.c - latency-eval's summaries, bands and sample rows ---===*
 *
 * Summaries per answering tier (interpolated, transferred when any answer is,
 * roofline fallback, all) plus the roofline alone over every point; accuracy
 * per confidence quintile; one row per sample. Markdown for people, JSON for
 * scripts (NaN as null).
 *
 *===----------------------------------------------------------------------===*/
#include "eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
  bool optional; /* printed only when some answer is in it */
} Row;

enum { kNumRows = 5 };

static void summarise(const Sample *samples, size_t n, Row *rows) {
  double *pred = malloc((n + 1) * sizeof *pred);
  double *meas = malloc((n + 1) * sizeof *meas);
  const struct {
    const char *label;
    int source; /* -1: all, -2: roofline alone over all */
  } tiers[] = {{"interpolated", CM_SOURCE_INTERPOLATED},
               {"transferred", CM_SOURCE_TRANSFERRED},
               {"roofline (fallback)", CM_SOURCE_ROOFLINE},
               {"all answers", -1},
               {"roofline only, all points", -2}};
  for (int t = 0; t < kNumRows; t++) {
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
    rows[t].optional = tiers[t].source == CM_SOURCE_TRANSFERRED;
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
  for (int t = 0; t < kNumRows; t++) {
    const EvalSummary *s = &rows[t].s;
    if (rows[t].optional && s->count == 0)
      continue;
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
  for (int t = 0; t < kNumRows; t++) {
    if (rows[t].optional && rows[t].s.count == 0)
      continue;
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

void evalPrintReport(bool json, const char *protocol, const Sample *samples,
                     size_t n, bool summaryOnly) {
  Row rows[kNumRows];
  summarise(samples, n, rows);
  if (json)
    printJson(protocol, samples, n, rows, summaryOnly);
  else
    printMarkdown(protocol, samples, n, rows, summaryOnly);
}
