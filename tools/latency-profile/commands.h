/*===- commands.h - the modes of latency-profile --------------------------===*/
#ifndef LATENCY_PROFILE_COMMANDS_H
#define LATENCY_PROFILE_COMMANDS_H

#include "measure.h"
#include "shapes.h"

#include <stdbool.h>

/// Options of `latency-profile --out DIR` and `--validate`.
typedef struct {
  const char *outDir;     /* --out: the profile to write                */
  const char *profileDir; /* --validate --profile                       */
  const char *jsonPath;   /* --validate --json, or NULL                 */
  const char *pipeline;   /* --pipeline; NULL: loops / the profile's    */
  const char *rules;      /* --rules fusion.csv, or NULL: CPU rules     */
  const char *entry;      /* --entry: the function a model runs         */
  double budget;          /* --budget seconds; 0: none                  */
  int threads;            /* --threads                                  */
  bool sweep;             /* --sweep                                    */
  bool fusionRules;       /* --fusion-rules: learn fusion.csv first     */
  bool isolated;          /* --validate: measure kernels one by one too */
  bool freshMemory;       /* --validate: whole runs (and the pass) with
                             every large buffer mapped anew per call   */
  bool wallClock;         /* --clock wall (default: thread CPU time)    */
  double timeout;         /* seconds per child                          */
  char **models;          /* MODEL.mlir arguments                       */
  int numModels;
} LpOptions;

/// Profiles the kernels of the models and writes `outDir`; returns the
/// process exit status.
int lpProfileMain(const LpOptions *options);

/// Runs each model whole and compares it with the pass's prediction from
/// `profileDir`; returns the process exit status.
int lpValidateMain(const LpOptions *options);

/// Measures, for the fusion edges of the models, the sides apart and
/// fused on the host and compares the sign with the pass's gain_us from
/// `profileDir`; returns the process exit status.
int lpValidateFusionMain(const LpOptions *options);

/// Fills `config` with the defaults for kernels of options `o`, the
/// timing scaled to its budget over `numShapes` shapes (no budget: 1 s
/// each).
void lpKernelConfig(LpMeasureConfig *config, const LpOptions *o,
                    size_t numShapes);

#endif /* LATENCY_PROFILE_COMMANDS_H */
