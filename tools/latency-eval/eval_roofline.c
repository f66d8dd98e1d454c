/*===- eval_roofline.c - latency-eval --roofline-only and --fit-roofline --===*
 *
 *   latency-eval --roofline-only --profile P [--kernel K] [key=value ...]
 *                [--holdout F] [--seed S]
 *   latency-eval --fit-roofline --profile P [--kernel K] [key=value ...]
 *                [--holdout F] [--seed S] [--out-device FILE | --write]
 *
 * The roofline tier alone on held-out points, per (table kernel, dtype):
 * as device.csv stands, or before and after fitting each group's
 * efficiencies and launch floor to its training points
 * (latency/roofline_fit.h). Both pick the held-out points by the same hash
 * of point and seed, so the fit's "after" is what --roofline-only prints
 * on the written profile.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/roofline_fit.h"

#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kUsage[] =
    "usage: latency-eval (--roofline-only | --fit-roofline) --profile "
    "NAME|DIR\n"
    "         [--kernel K] [key=value ...] [--holdout F] [--seed S]\n"
    "         [--out-device FILE | --write]\n"
    "--holdout F: the fraction of points held out (default 0.2), chosen by a\n"
    "  hash of each point and --seed (default 0).\n"
    "--fit-roofline fits compute_efficiency, memory_efficiency, launch_us,\n"
    "  wave_us and, for GEMMs, tile_bandwidth and split_k_us\n"
    "  per table kernel and dtype on the other points; --out-device FILE\n"
    "  writes device.csv with them to FILE, --write over the profile's own.\n";

typedef struct {
  const char *profile, *outDevice;
  double holdout;
  uint64_t seed;
  bool fit, write;
} Args;

static bool parseArgs(int argc, char **argv, Args *a, Selection *sel) {
  *a = (Args){NULL, NULL, 0.2, 0, false, false};
  bool onlyRoofline = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(arg, "--fit-roofline"))
      a->fit = true;
    else if (!strcmp(arg, "--roofline-only"))
      onlyRoofline = true;
    else if (!strcmp(arg, "--write"))
      a->write = true;
    else if (!strcmp(arg, "--profile") && next)
      a->profile = argv[++i];
    else if (!strcmp(arg, "--kernel") && next)
      sel->kernel = argv[++i];
    else if (!strcmp(arg, "--holdout") && next)
      a->holdout = atof(argv[++i]);
    else if (!strcmp(arg, "--seed") && next)
      a->seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(arg, "--out-device") && next)
      a->outDevice = argv[++i];
    else if (arg[0] != '-' && strchr(arg, '=') && sel->numFilters < 16) {
      char *eq = strchr(argv[i], '=');
      *eq = '\0';
      sel->filters[sel->numFilters++] = (CmField){argv[i], eq + 1};
    } else
      return false;
  }
  bool writes = a->write || a->outDevice;
  return a->fit != onlyRoofline && a->holdout > 0 && a->holdout < 1 &&
         !(a->write && a->outDevice) && (a->fit || !writes);
}

static bool keepPoint(void *selection, const CmPoint *p) {
  return evalPassesFilters(selection, p);
}

static void printSummaryCells(const double *predicted, const double *measured,
                              size_t n) {
  EvalSummary s = evalSummarise(predicted, measured, n);
  printf(" %.2f | %.2f | %.1f | %.4f |", s.mape, s.p90, s.within10, s.spearman);
}

static void printOnly(const CmRooflineGroup *groups, size_t n) {
  printf("| kernel | dtype | held-out points | MAPE %% | p90 %% | within 10%% "
         "| Spearman |\n|---|---|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < n; i++) {
    const CmRooflineGroup *g = &groups[i];
    printf("| %s | %s | %zu |", g->kernel, g->dtype, g->numHeldOut);
    printSummaryCells(g->beforeUs, g->measuredUs, g->numHeldOut);
    printf("\n");
  }
}

/* "before -> after", marked when the fit kept the value. */
static void printChange(double before, double after, bool fitted) {
  printf(" %.4g -> %.4g%s |", before, after, fitted ? "" : " (kept)");
}

static void printFitted(const CmRooflineGroup *groups, size_t n) {
  printf("| kernel | dtype | train | held out | compute_efficiency | "
         "memory_efficiency | launch_us | wave_us | tile_bandwidth | "
         "split_k_us | MAPE %% | p90 %% | within 10%% "
         "|\n|---|---|---:|---:|---|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < n; i++) {
    const CmRooflineGroup *g = &groups[i];
    EvalSummary b = evalSummarise(g->beforeUs, g->measuredUs, g->numHeldOut);
    EvalSummary a = evalSummarise(g->afterUs, g->measuredUs, g->numHeldOut);
    printf("| %s | %s | %zu | %zu |", g->kernel, g->dtype, g->numTrain,
           g->numHeldOut);
    printChange(g->before.computeEfficiency, g->after.computeEfficiency,
                g->fitted.compute);
    printChange(g->before.memoryEfficiency, g->after.memoryEfficiency,
                g->fitted.memory);
    printChange(g->before.launchUs, g->after.launchUs, true);
    printChange(g->before.waveUs, g->after.waveUs, g->fitted.wave);
    printChange(g->before.tileBandwidth, g->after.tileBandwidth,
                g->fitted.tiles);
    printChange(g->before.splitUs, g->after.splitUs, g->fitted.tiles);
    printf(" %.2f -> **%.2f** | %.2f -> %.2f | %.1f -> %.1f |\n", b.mape,
           a.mape, b.p90, a.p90, b.within10, a.within10);
  }
}

/* Writes the fitted device.csv when asked; returns the exit status. */
static int writeDevice(const Args *args, CmProfile profile, const char *dir,
                       const CmRooflineGroup *groups, size_t n,
                       const char *provenance) {
  char path[4200];
  snprintf(path, sizeof path, "%s/device.csv", dir);
  const char *target = args->write ? path : args->outDevice;
  if (!target)
    return 0;
  CmError err;
  if (cmRooflineWriteDevice(profile, groups, n, provenance, target, &err) !=
      CM_OK) {
    fprintf(stderr, "latency-eval: %s\n", err.message);
    return 1;
  }
  fprintf(stderr, "latency-eval: wrote %s\n", target);
  return 0;
}

int evalRooflineMain(int argc, char **argv) {
  Args args;
  Selection sel = {0};
  if (!parseArgs(argc, argv, &args, &sel)) {
    fputs(kUsage, stderr);
    return 2;
  }
  char dir[4096];
  CmError err;
  CmProfile profile;
  if (!cmProfileFindDir(args.profile, dir, sizeof dir, &err) ||
      cmProfileCreateFromDir(dir, &profile, &err) != CM_OK) {
    fprintf(stderr, "latency-eval: %s\n", err.message);
    return 1;
  }
  CmRooflineSplit split = {args.holdout, args.seed, args.fit, keepPoint, &sel};
  CmRooflineGroup *groups;
  size_t n;
  if (cmRooflineGroupsCreate(profile, &split, &groups, &n, &err) != CM_OK) {
    fprintf(stderr, "latency-eval: %s\n", err.message);
    cmProfileDestroy(profile);
    return 1;
  }
  if (n == 0) { /* a profile without tables, or filters that keep nothing */
    fprintf(stderr,
            "latency-eval: %s: no measured points with a work formula pass "
            "the filters\n",
            dir);
    cmRooflineGroupsDestroy(groups, n);
    cmProfileDestroy(profile);
    return 1;
  }
  char provenance[256];
  snprintf(provenance, sizeof provenance,
           "latency-eval --fit-roofline --holdout %g --seed %llu%s%s",
           args.holdout, (unsigned long long)args.seed,
           sel.kernel ? " --kernel " : "", sel.kernel ? sel.kernel : "");
  printf("# latency-eval: roofline %s, held out %g of the points (seed %llu), "
         "profile %s\n\n",
         args.fit ? "before -> after the fit" : "only", args.holdout,
         (unsigned long long)args.seed, dir);
  args.fit ? printFitted(groups, n) : printOnly(groups, n);
  int rc =
      args.fit ? writeDevice(&args, profile, dir, groups, n, provenance) : 0;
  cmRooflineGroupsDestroy(groups, n);
  cmProfileDestroy(profile);
  return rc;
}
