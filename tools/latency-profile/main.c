/*===- main.c - latency-profile: measure kernels on the host, write a profile
 *
 *   latency-profile --out DIR [--pipeline
 *loops|vectorized|'builtin.module(..)']
 *                   [--budget S] [--threads N] [--rules CSV] [--sweep]
 *                   [--fusion-rules] MODEL...
 *   latency-profile --validate --profile DIR [--json F] [--no-isolated]
 *                   [--fresh-memory] [--entry NAME] MODEL...
 *   latency-profile --validate-fusion --profile DIR [--json F] MODEL...
 *
 * and the hidden child mode `--run FILE` (runner.h) that every measurement
 * runs in. Options are parsed here and nowhere else.
 *
 *===----------------------------------------------------------------------===*/
#include "commands.h"
#include "runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: latency-profile --out DIR [--pipeline loops|vectorized|PIPELINE]\n"
    "                       [--budget SECONDS] [--threads 1] [--rules CSV]\n"
    "                       [--sweep] [--fusion-rules] [--timeout SECONDS]\n"
    "                       [--clock cpu|wall] MODEL.mlir...\n"
    "       latency-profile --validate --profile DIR [--json FILE]\n"
    "                       [--pipeline P] [--entry NAME] [--no-isolated]\n"
    "                       [--fresh-memory] [--timeout SECONDS]\n"
    "                       [--clock cpu|wall] MODEL.mlir...\n"
    "       latency-profile --validate-fusion --profile DIR [--json FILE]\n"
    "                       [--pipeline P] [--budget SECONDS]\n"
    "                       [--timeout SECONDS] [--clock cpu|wall]\n"
    "                       MODEL.mlir...\n";

typedef struct {
  LpOptions options;
  LpRunOptions run;
  bool validate, validateFusion, runChild;
} Args;

static bool number(const char *text, double *out) {
  char *end;
  *out = strtod(text, &end);
  return *text && !*end;
}

/* Reads the option at argv[*i] (and its value); false on a bad one. */
static bool parseOption(Args *a, int argc, char **argv, int *i) {
  const char *name = argv[*i];
  static const char *const flags[] = {"--validate",        "--sweep",
                                      "--no-isolated",     "--fusion-rules",
                                      "--validate-fusion", "--fresh-memory"};
  for (int f = 0; f < 6; f++)
    if (!strcmp(name, flags[f])) {
      a->validate |= f == 0;
      a->options.sweep |= f == 1;
      a->options.isolated &= f != 2;
      a->options.fusionRules |= f == 3;
      a->validateFusion |= f == 4;
      a->run.freshMemory |= f == 5; /* the driver's to its kernel children */
      a->options.freshMemory |= f == 5;
      return true;
    }
  if (*i + 1 >= argc)
    return false;
  const char *value = argv[++*i];
  double x = 0;
  const char **text[] = {&a->options.outDir,   &a->options.profileDir,
                         &a->options.jsonPath, &a->options.pipeline,
                         &a->options.rules,    &a->options.entry,
                         &a->run.file,         &a->run.kernelType};
  static const char *const textNames[] = {
      "--out",   "--profile", "--json", "--pipeline",
      "--rules", "--entry",   "--run",  "--kernel-type"};
  if (!strcmp(name, "--clock")) {
    a->options.wallClock = a->run.timing.wallClock = !strcmp(value, "wall");
    return !strcmp(value, "wall") || !strcmp(value, "cpu");
  }
  for (int t = 0; t < 8; t++)
    if (!strcmp(name, textNames[t])) {
      *text[t] = value;
      a->runChild |= t == 6;
      return true;
    }
  if (!number(value, &x))
    return false;
  double *numbers[] = {&a->options.budget, &a->options.timeout,
                       &a->run.timing.repSeconds, &a->run.timing.maxSeconds,
                       &a->run.timing.targetCv};
  static const char *const numberNames[] = {
      "--budget", "--timeout", "--rep-seconds", "--max-seconds", "--target-cv"};
  for (int n = 0; n < 5; n++)
    if (!strcmp(name, numberNames[n])) {
      *numbers[n] = x;
      return true;
    }
  if (!strcmp(name, "--threads"))
    return a->options.threads = (int)x, true;
  if (!strcmp(name, "--min-reps"))
    return a->run.timing.minReps = (int)x, true;
  return false;
}

/* Paths from the command line are at most this long, so that every path
 * built from them (a directory plus a file name of its own, at most a few
 * hundred bytes) fits the 4096-byte buffers the tool uses: a checked limit,
 * not a silently shortened path. */
enum { kMaxPathArgument = 3072 };

static bool pathFits(const char *option, const char *path) {
  if (!path || strlen(path) <= kMaxPathArgument)
    return true;
  fprintf(stderr,
          "latency-profile: %s: path too long (%zu bytes, at most %d)\n",
          option, strlen(path), (int)kMaxPathArgument);
  return false;
}

/* Every path argument fits (pathFits). */
static bool pathsFit(const Args *a) {
  bool ok = pathFits("--out", a->options.outDir) &&
            pathFits("--profile", a->options.profileDir) &&
            pathFits("--json", a->options.jsonPath) &&
            pathFits("--rules", a->options.rules) &&
            pathFits("--run", a->run.file);
  for (int i = 0; ok && i < a->options.numModels; i++)
    ok = pathFits("model", a->options.models[i]);
  return ok;
}

static bool parseArgs(Args *a, int argc, char **argv) {
  memset(a, 0, sizeof *a);
  a->options.threads = 1;
  a->options.isolated = true;
  a->options.timeout = 600;
  a->run.timing = (LpTimingOptions){0.05, 1.0, 5, 0.025, false};
  a->options.models = calloc((size_t)argc, sizeof *a->options.models);
  if (!a->options.models)
    return false;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--", 2))
      a->options.models[a->options.numModels++] = argv[i];
    else if (!parseOption(a, argc, argv, &i)) {
      fprintf(stderr, "latency-profile: bad option '%s'\n", argv[i]);
      return false;
    }
  }
  return pathsFit(a);
}

static bool asksForHelp(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
      return true;
  return false;
}

int main(int argc, char **argv) {
  if (asksForHelp(argc, argv)) {
    fputs(usage, stdout);
    return 0;
  }
  Args a;
  int status = 2;
  if (!parseArgs(&a, argc, argv)) {
    fputs(usage, stderr);
  } else if (a.runChild) {
    a.run.entry = a.options.entry;
    a.run.pipeline = a.options.pipeline ? a.options.pipeline : "loops";
    status = lpRunMain(&a.run);
  } else if (a.options.threads != 1) {
    fprintf(stderr,
            "latency-profile: --threads %d: the pipelines generate "
            "single-threaded code; only --threads 1 is measured\n",
            a.options.threads);
  } else if (a.options.fusionRules && a.options.rules) {
    fputs("latency-profile: --fusion-rules learns the rules --rules would "
          "give; use one of them\n",
          stderr);
  } else if (a.options.numModels == 0 ||
             (a.validate || a.validateFusion ? !a.options.profileDir
                                             : !a.options.outDir)) {
    fputs(usage, stderr);
  } else if (a.validateFusion) {
    status = lpValidateFusionMain(&a.options);
  } else {
    if (!a.validate && !a.options.pipeline)
      a.options.pipeline = "loops";
    status =
        a.validate ? lpValidateMain(&a.options) : lpProfileMain(&a.options);
  }
  free(a.options.models);
  return status;
}
