/*===- measure.c - measure one function of one file in a child ------------===*
 *
 * The driver side of runner.c: builds the child's command line from the
 * configuration, spawns it with a deadline, and reads its one result line.
 *
 *===----------------------------------------------------------------------===*/
#include "measure.h"

#include "spawn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void parseOk(const char *line, LpMeasurement *out) {
  out->ok =
      sscanf(line, "ok us=%lf cv=%lf reps=%d calls=%ld lowering=%31s", &out->us,
             &out->cvPct, &out->reps, &out->calls, out->lowering) == 5;
  out->draws = out->ok;
  if (!out->ok)
    snprintf(out->error, sizeof out->error, "unreadable result '%.200s'", line);
  for (int i = 1; out->ok && i <= 2; i++) {
    char key[16];
    snprintf(key, sizeof key, " us.%d=", i);
    const char *at = strstr(line, key);
    int index;
    if (at && sscanf(at, " us.%d=%lf cv.%*d=%lf", &index, &out->otherUs[i - 1],
                     &out->otherCv[i - 1]) == 3)
      out->numOthers = i;
  }
  const char *diff = strstr(line, " diff=");
  out->hasDiff =
      out->ok && diff &&
      sscanf(diff, " diff=%lf diff_se=%lf", &out->diffUs, &out->diffSeUs) == 2;
}

/* A child that died without a result may have said why on stderr (a
 * sanitizer's report of a crash it caught): appends the first line of
 * `logPath` holding "ERROR:". */
static void appendLogError(const char *logPath, char *error, size_t size) {
  FILE *in = logPath ? fopen(logPath, "r") : NULL;
  char line[400];
  while (in && fgets(line, sizeof line, in))
    if (strstr(line, "ERROR:")) {
      size_t used = strlen(error);
      line[strcspn(line, "\n")] = '\0';
      snprintf(error + used, size - used, ": %s", strstr(line, "ERROR:"));
      break;
    }
  if (in)
    fclose(in);
}

/* For the slow-spell test (slow-window.test): the children this process
 * spawns, counted from 1, number FIRST to LAST of
 * $LATENCY_PROFILE_TEST_SLOW ("FIRST-LAST") report 3x the time they
 * measured, as in a slow spell of the host (canary.c) but beyond what one
 * process draws (up to 1.7x); no test can call a spell up on demand. A
 * child spawned before the shapes' pass (a new probe, --fusion-rules)
 * shifts the test's numbers. */
static void slowSpellHook(LpMeasurement *out) {
  static int spawned;
  spawned++;
  const char *range = getenv("LATENCY_PROFILE_TEST_SLOW");
  int first, last;
  if (!out->ok || !range || sscanf(range, "%d-%d", &first, &last) != 2 ||
      spawned < first || spawned > last)
    return;
  out->us *= 3;
  for (int i = 0; i < out->numOthers; i++)
    out->otherUs[i] *= 3;
  out->diffUs *= 3;
  out->diffSeUs *= 3;
}

void lpMeasureFile(const LpMeasureConfig *config, const char *file,
                   const char *entry, const char *kernelType,
                   const char *logPath, LpMeasurement *out) {
  char rep[32], max[32], reps[16], cv[32];
  snprintf(rep, sizeof rep, "%g", config->repSeconds);
  snprintf(max, sizeof max, "%g", config->maxSeconds);
  snprintf(reps, sizeof reps, "%d", config->minReps);
  snprintf(cv, sizeof cv, "%g", config->targetCv);
  /* 13 fixed, up to 7 optional (fresh memory, clock, entry, kernel type),
   * the NULL: every option below must be counted here */
  enum { kChildArgs = 13 + 7 + 1 };
  char *argv[kChildArgs];
  int n = 0;
  argv[n++] = "latency-profile";
  argv[n++] = "--run";
  argv[n++] = (char *)file;
  argv[n++] = "--pipeline";
  argv[n++] = (char *)config->pipeline;
  argv[n++] = "--rep-seconds";
  argv[n++] = rep;
  argv[n++] = "--max-seconds";
  argv[n++] = max;
  argv[n++] = "--min-reps";
  argv[n++] = reps;
  argv[n++] = "--target-cv";
  argv[n++] = cv;
  if (config->freshMemory)
    argv[n++] = "--fresh-memory";
  if (config->wallClock) {
    argv[n++] = "--clock";
    argv[n++] = "wall";
  }
  if (entry && *entry) {
    argv[n++] = "--entry";
    argv[n++] = (char *)entry;
  }
  if (kernelType && *kernelType) {
    argv[n++] = "--kernel-type";
    argv[n++] = (char *)kernelType;
  }
  argv[n] = NULL;
  memset(out, 0, sizeof *out);
  LpChild child;
  if (!lpSpawnSelf(argv, logPath, config->timeoutSeconds, &child, out->error,
                   sizeof out->error))
    return;
  if (lpChildSucceeded(&child, config->timeoutSeconds, out->error,
                       sizeof out->error))
    parseOk(child.line, out);
  else if (!child.signal && !child.timedOut && strncmp(child.line, "error ", 6))
    appendLogError(logPath, out->error, sizeof out->error);
  slowSpellHook(out);
}
