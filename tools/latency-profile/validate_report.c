/*===- validate_report.c - the validation as a table and as JSON ----------===*
 *
 * Error is (predicted - measured) / measured. The sum of the isolated
 * kernels against the whole run shows what running the kernels together
 * changes (caches, allocation, what fusion would remove).
 *
 *===----------------------------------------------------------------------===*/
#include "validate.h"

#include "files.h"

#include "latency/costmodel.h"

#include <stdio.h>
#include <string.h>

static double errorPct(double predicted, double measured) {
  return measured > 0 ? 100 * (predicted - measured) / measured : 0;
}

/* The isolated time of kernel `k` for all its runs; <0 when unmeasured. */
static double isolatedUs(const LpValidatedKernel *k, const LpShapeSet *set) {
  if (k->shape < 0 || !set->items[k->shape].result.ok)
    return -1;
  return set->items[k->shape].result.us * k->count;
}

/* Sum of the isolated kernels; `*missing` counts those not measured. */
static double isolatedSum(const LpValidatedModel *m, const LpShapeSet *set,
                          size_t *missing) {
  double sum = 0;
  *missing = 0;
  for (size_t i = 0; i < m->numKernels; i++) {
    double us = isolatedUs(&m->kernels[i], set);
    if (us >= 0)
      sum += us;
    else if (m->kernels[i].count > 0)
      ++*missing;
  }
  return sum;
}

/* Why kernel `k` has no isolated time: its child's error, else that it was
 * not measured alone (`--no-isolated`, or a shape no child ran). */
static const char *notIsolatedWhy(const LpValidatedKernel *k,
                                  const LpShapeSet *set) {
  const char *error = k->shape >= 0 ? set->items[k->shape].result.error : "";
  return error[0] ? error : "not measured alone";
}

static void printKernels(const LpValidatedModel *m, const LpShapeSet *set) {
  printf("  %4s  %-34s %-44s %14s %14s %8s  %s\n", "id", "kernel", "axes",
         "isolated_us", "predicted_us", "error", "source");
  for (size_t i = 0; i < m->numKernels; i++) {
    const LpValidatedKernel *k = &m->kernels[i];
    double iso = isolatedUs(k, set);
    double predicted = k->predictedUs * k->count;
    printf("  %4d  %-34.34s %-44.44s ", k->id, k->type, k->axes);
    if (iso >= 0)
      printf("%14.1f %14.1f %7.1f%%  %s\n", iso, predicted,
             errorPct(predicted, iso), k->source);
    else
      printf("%14s %14.1f %8s  %s (%s)\n", "-", predicted, "", k->source,
             notIsolatedWhy(k, set));
  }
}

void lpPrintValidation(const LpValidatedModel *models, size_t count,
                       const LpShapeSet *set) {
  printf("\n%-44s %14s %14s %8s %6s %7s %14s %8s\n", "model", "measured_us",
         "predicted_us", "error", "cv", "spread", "isolated_sum", "sum/whole");
  for (size_t i = 0; i < count; i++) {
    const LpValidatedModel *m = &models[i];
    printf("%-44.44s ", lpBaseName(m->path));
    if (m->error[0]) {
      printf("error: %s\n", m->error);
      continue;
    }
    size_t missing;
    double sum = isolatedSum(m, set, &missing);
    printf("%14.1f %14.1f %7.1f%% %5.1f%% %6.1f%% ", m->whole.us,
           m->predictedUs, errorPct(m->predictedUs, m->whole.us),
           m->whole.cvPct, m->spreadPct);
    if (sum > 0)
      printf("%14.1f %7.1f%%%s\n", sum,
             m->whole.us > 0 ? 100 * sum / m->whole.us : 0,
             missing ? " (some kernels not measured)" : "");
    else /* none measured alone: no sum to compare */
      printf("%14s %8s\n", "-", "-");
  }
  for (size_t i = 0; i < count; i++)
    if (!models[i].error[0] && models[i].numKernels) {
      printf("\n%s: per kernel\n", lpBaseName(models[i].path));
      printKernels(&models[i], set);
    }
}

static void jsonKernel(FILE *out, const LpValidatedKernel *k,
                       const LpShapeSet *set) {
  double iso = isolatedUs(k, set);
  double predicted = k->predictedUs * k->count;
  fprintf(out, "{\"id\": %d, \"type\": ", k->id);
  cmJsonPrintString(out, k->type);
  fputs(", \"axes\": ", out);
  cmJsonPrintString(out, k->axes);
  fprintf(out,
          ", \"count\": %.17g, \"predicted_us\": %.17g, \"source\": ", k->count,
          predicted);
  cmJsonPrintString(out, k->source);
  if (iso >= 0)
    fprintf(out,
            ", \"isolated_us\": %.17g, \"isolated_cv_pct\": %.4g, "
            "\"error_pct\": %.4g}",
            iso, set->items[k->shape].result.cvPct, errorPct(predicted, iso));
  else {
    fputs(", \"error\": ", out);
    cmJsonPrintString(out, notIsolatedWhy(k, set));
    fputc('}', out);
  }
}

static void jsonModel(FILE *out, const LpValidatedModel *m,
                      const LpShapeSet *set) {
  fputs("{\"model\": ", out);
  cmJsonPrintString(out, lpBaseName(m->path));
  if (m->error[0]) {
    fputs(", \"error\": ", out);
    cmJsonPrintString(out, m->error);
    fputc('}', out);
    return;
  }
  size_t missing;
  double sum = isolatedSum(m, set, &missing);
  fprintf(out,
          ", \"measured_us\": %.17g, \"predicted_us\": %.17g, "
          "\"error_pct\": %.4g, \"cv_pct\": %.4g, \"reps\": %d, "
          "\"processes\": %d, \"process_spread_pct\": %.4g, "
          "\"isolated_sum_us\": %.17g, \"kernels_not_isolated\": %zu, "
          "\"kernels\": [",
          m->whole.us, m->predictedUs, errorPct(m->predictedUs, m->whole.us),
          m->whole.cvPct, m->whole.reps, m->processes, m->spreadPct, sum,
          missing);
  for (size_t i = 0; i < m->numKernels; i++) {
    fputs(i ? ",\n    " : "\n    ", out);
    jsonKernel(out, &m->kernels[i], set);
  }
  fputs("]}", out);
}

bool lpWriteValidationJson(const char *path, const char *profile,
                           const char *pipeline, const char *memory,
                           const LpValidatedModel *models, size_t count,
                           const LpShapeSet *set) {
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  fputs("{\"profile\": ", out);
  cmJsonPrintString(out, profile);
  fputs(", \"pipeline\": ", out);
  cmJsonPrintString(out, pipeline);
  fputs(", \"memory\": ", out);
  cmJsonPrintString(out, memory);
  fputs(", \"models\": [", out);
  for (size_t i = 0; i < count; i++) {
    fputs(i ? ",\n  " : "\n  ", out);
    jsonModel(out, &models[i], set);
  }
  fputs("]}\n", out);
  return fclose(out) == 0;
}
