/*===- eval_metrics.c - error summaries for latency-eval -------------------===*
 *
 * Relative error is (predicted - measured) / measured. Percentiles use the
 * nearest-rank method. Spearman is Pearson on average ranks (ties share the
 * mean of their ranks).
 *
 *===----------------------------------------------------------------------===*/
#include "eval_metrics.h"

#include <math.h>
#include <stdlib.h>

int evalCompareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct {
  double value;
  size_t index;
} Ranked;

static int compareRanked(const void *a, const void *b) {
  return evalCompareDoubles(&((const Ranked *)a)->value,
                            &((const Ranked *)b)->value);
}

/* Average ranks of v into rank. */
static void ranks(const double *v, size_t n, double *rank, Ranked *tmp) {
  for (size_t i = 0; i < n; i++)
    tmp[i] = (Ranked){v[i], i};
  qsort(tmp, n, sizeof *tmp, compareRanked);
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && tmp[j + 1].value == tmp[i].value)
      j++;
    for (size_t k = i; k <= j; k++)
      rank[tmp[k].index] = (i + j) / 2.0 + 1;
    i = j + 1;
  }
}

static double spearman(const double *a, const double *b, size_t n) {
  double *ra = malloc(n * sizeof *ra), *rb = malloc(n * sizeof *rb);
  Ranked *tmp = malloc(n * sizeof *tmp);
  double result = NAN;
  if (ra && rb && tmp) {
    ranks(a, n, ra, tmp);
    ranks(b, n, rb, tmp);
    double ma = 0, mb = 0;
    for (size_t i = 0; i < n; i++)
      ma += ra[i] / n, mb += rb[i] / n;
    double sab = 0, saa = 0, sbb = 0;
    for (size_t i = 0; i < n; i++) {
      sab += (ra[i] - ma) * (rb[i] - mb);
      saa += (ra[i] - ma) * (ra[i] - ma);
      sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    result = saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : NAN;
  }
  free(ra);
  free(rb);
  free(tmp);
  return result;
}

EvalSummary evalSummarise(const double *predicted, const double *measured,
                          size_t n) {
  EvalSummary s = {n, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  if (n == 0)
    return s;
  double *err = malloc(n * sizeof *err);
  if (!err)
    return s;
  double sum = 0, sq = 0;
  size_t in5 = 0, in10 = 0;
  for (size_t i = 0; i < n; i++) {
    double rel = (predicted[i] - measured[i]) / measured[i];
    err[i] = fabs(rel) * 100;
    sum += err[i];
    sq += err[i] * err[i];
    in5 += err[i] <= 5;
    in10 += err[i] <= 10;
  }
  qsort(err, n, sizeof *err, evalCompareDoubles);
  s.mape = sum / n;
  s.rmspe = sqrt(sq / n);
  s.p50 = err[(size_t)ceil(0.5 * n) - 1];
  s.p90 = err[(size_t)ceil(0.9 * n) - 1];
  s.within5 = 100.0 * in5 / n;
  s.within10 = 100.0 * in10 / n;
  s.spearman = n >= 2 ? spearman(predicted, measured, n) : NAN;
  free(err);
  return s;
}
