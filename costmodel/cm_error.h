/*===- cm_error.h - error text helpers shared by the cost model ------------===*
 *
 * Every failure carries "file:line: what" text into a caller-owned CmError.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CM_ERROR_H
#define LATENCY_CM_ERROR_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

/// Clears `err` (NULL is allowed).
void cmErrorClear(CmError *err);

#endif /* LATENCY_CM_ERROR_H */
