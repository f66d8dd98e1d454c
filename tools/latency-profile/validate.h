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
  LpMeasurement whole; /* the whole model, measured              */
  LpValidatedKernel *kernels;
  size_t numKernels;
} LpValidatedModel;

/// Prints each model's measured and predicted time, and per kernel the
/// isolated measurement against the prediction, to stdout.
void lpPrintValidation(const LpValidatedModel *models, size_t count,
                       const LpShapeSet *shapes);

/// Writes the validation as JSON to `path`; false when it cannot.
bool lpWriteValidationJson(const char *path, const char *profile,
                           const char *pipeline, const LpValidatedModel *models,
                           size_t count, const LpShapeSet *shapes);

#endif /* LATENCY_PROFILE_VALIDATE_H */
