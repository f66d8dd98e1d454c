/*===- latency-eval/main.c - hold-out accuracy reports --------------------===*
 *
 *   latency-eval --profile P [--kernel K] [key=value ...]
 *                (--holdout F --seed S | --holdout-points FILE |
 *                 --off-grid AXES [--values N] --seed S |
 *                 --leave-one-out [--samples N])
 *                [--format md|json] [--summary-only]
 *
 * Loads the profile without the held-out points (all their duplicate rows
 * go too) and predicts each one, with the full model and with the roofline
 * alone. Leave-one-out reloads the profile once per sampled point.
 * Selection: eval_select.c; output: eval_report.c.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include "eval.h"

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
    "key=value keeps only points whose regime key has that value.\n"
    "latency-eval --transfer --from REF --device DEV.csv --target TABLE.csv\n"
    "  [--random K | --suggest K] [--seed S]: accuracy of a profile\n"
    "  transferred from REF with K target points of TABLE on its other rows.\n"
    "latency-eval (--roofline-only | --fit-roofline) --profile P [--holdout "
    "F]\n"
    "  [--seed S] [--out-device FILE | --write]: the roofline tier alone on\n"
    "  held-out points, before and after fitting it to the others.\n";

/* Predicts candidate c from `train`: the full model and the roofline alone. */
static void predict(CmProfile train, const Candidate *c, Sample *out) {
  PointQuery storage;
  CmQuery q = evalPointQuery(&c->point, &storage);
  CmOptions on = cmOptionsDefault(), off = {false};
  CmEstimate roof;
  out->c = c;
  cmProfileEstimate(train, &q, &on, &out->e, NULL);
  cmProfileEstimate(train, &q, &off, &roof, NULL);
  out->predicted = out->e.latencyUs;
  out->roofline = roof.latencyUs;
}

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

static void progress(size_t done, size_t total) {
  if (total >= 20 && done % (total / 10) == 0)
    fprintf(stderr, "latency-eval: %zu/%zu\n", done, total);
}

int main(int argc, char **argv) {
  Args args;
  Selection sel = {0};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--transfer")) /* eval_transfer.c */
      return evalTransferMain(argc, argv);
    else if (!strcmp(argv[i], "--roofline-only") ||
             !strcmp(argv[i], "--fit-roofline")) /* eval_roofline.c */
      return evalRooflineMain(argc, argv);
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
  cmProfileForEachPoint(full, evalCollect, &sel); /* names borrow from full */
  if (sel.count == 0) {
    fputs("latency-eval: no measured points pass the filters\n", stderr);
    cmProfileDestroy(full);
    return 1;
  }
  evalShuffle(sel.items, sel.count, args.seed);
  size_t n, numKeys = 0;
  char **keys = NULL;
  char detail[1024] = "";
  if (args.holdoutPoints) {
    n = evalSelectListed(&sel, args.holdoutPoints);
    snprintf(detail, sizeof detail, "the %zu points of %s", n,
             args.holdoutPoints);
  } else if (args.offGrid) {
    char names[900];
    n = evalSelectOffGrid(&sel, args.offGrid, args.values, args.seed, &keys,
                          &numKeys, names, sizeof names);
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
    evalRepoint(&sel.items[i]);
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
      if (cmProfileCreateFromDirFiltered(dir, evalKeepRow, &one, &train,
                                         &err) != CM_OK) {
        fprintf(stderr, "latency-eval: %s\n", err.message);
        rc = 1;
        break;
      }
      predict(train, &sel.items[i], &samples[i]);
      cmProfileDestroy(train);
      progress(i + 1, n);
    }
  } else {
    qsort(keys, numKeys, sizeof *keys, evalCompareKeys);
    HeldOut held = {keys, numKeys};
    CmProfile train;
    if (cmProfileCreateFromDirFiltered(dir, evalKeepRow, &held, &train, &err) !=
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
  if (rc == 0)
    evalPrintReport(!strcmp(args.format, "json"), protocol, samples, n,
                    args.summaryOnly);
  free(keys);
  free(samples);
  free(sel.items);
  cmProfileDestroy(full);
  return rc;
}
