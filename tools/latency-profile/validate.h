/*===- validate.h - whole models: measured against predicted --------------===*/
#ifndef LATENCY_PROFILE_VALIDATE_H
#define LATENCY_PROFILE_VALIDATE_H

#include "measure.h"
#include "shapes.h"

#include <stddef.h>

/// One kernel of a validated model, as the pass annotated it.
typedef struct {
  int id;             /* latency.kernel                         */
  char type[192];     /* kernel type                            */
  char axes[160];     /* the pass's axes text                   */
  double predictedUs; /* latency.estimate us (one run)          */
  double count;       /* runs per call of the function          */
  char source[16];    /* measured, interpolated, roofline, ...  */
  int shape;          /* index in the shared shape set, or -1   */
} LpValidatedKernel;

/// One validated model.
typedef struct {
  const char *path;
  char error[700];     /* why it could not be validated, or "" */
  double predictedUs;  /* latency.total_us of the entry function */
  LpMeasurement whole; /* the whole model: the median process's  */
  int processes;       /* processes that measured it             */
  double spreadPct;    /* (slowest - fastest) / median, percent  */
  LpValidatedKernel *kernels;
  size_t numKernels;
} LpValidatedModel;

/// Writes the path of LatencyPlugin.so (../lib/ from this binary, in the
/// build tree and installed alike) into `out`; false when it is missing.
bool lpFindPlugin(char *out, size_t size);

/// Writes the pipeline profile `dir` was measured with into `out`: its
/// name when built in, else its pass string; "loops" when it does not say.
void lpProfilePipeline(const char *dir, char *out, size_t size);

/// Runs annotate-latency{profile=`profileDir`} (with fresh-memory=true
/// when `freshMemory`) on `model` through Debian's mlir-opt with the plugin
/// at `pluginPath` (the ASan runtime preloaded in an ASan build), writing
/// the annotated IR to `annotated` and mlir-opt's stderr to `log`; false
/// with the first line of it in `err`.
bool lpPredictWithPass(const char *pluginPath, const char *profileDir,
                       bool freshMemory, double timeout, const char *model,
                       const char *annotated, const char *log, char *err,
                       size_t size);

/// Prints each model's measured and predicted time, and per kernel the
/// isolated measurement against the prediction, to stdout.
void lpPrintValidation(const LpValidatedModel *models, size_t count,
                       const LpShapeSet *shapes);

/// Writes the validation as JSON to `path`, `memory` naming how the whole
/// runs' buffers were mapped ("fresh" or "natural"); false when it cannot.
bool lpWriteValidationJson(const char *path, const char *profile,
                           const char *pipeline, const char *memory,
                           const LpValidatedModel *models, size_t count,
                           const LpShapeSet *shapes);

#endif /* LATENCY_PROFILE_VALIDATE_H */
