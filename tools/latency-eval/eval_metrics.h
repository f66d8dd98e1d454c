/*===- eval_metrics.h - error summaries for latency-eval (internal) -------===*/
#ifndef LATENCY_EVAL_METRICS_H
#define LATENCY_EVAL_METRICS_H

#include <stddef.h>

/// Accuracy of `n` predictions against measurements.
typedef struct {
  size_t count;    /* points summarised                    */
  double mape;     /* mean |rel err|, %                    */
  double rmspe;    /* root mean squared rel err, %         */
  double p50, p90; /* percentiles of |rel err|, %          */
  double within5;  /* share with |rel err| <= 5%, %        */
  double within10; /* share with |rel err| <= 10%, %       */
  double spearman; /* rank correlation, NaN when n < 2     */
} EvalSummary;

/// Orders two doubles for qsort, ascending.
int evalCompareDoubles(const void *a, const void *b);

/// Summarises `predicted` against `measured` (n values each).
EvalSummary evalSummarise(const double *predicted, const double *measured,
                          size_t n);

#endif /* LATENCY_EVAL_METRICS_H */
