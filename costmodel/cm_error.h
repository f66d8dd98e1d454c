/*===- cm_error.h - error text helpers shared by the cost model ------------===*
 *
 * Every failure carries "file:line: what" text into a caller-owned CmError.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CM_ERROR_H
#define LATENCY_CM_ERROR_H

#include "latency/costmodel.h"

/// Formats a message into `err` (NULL is allowed) and returns `status`.
CmStatus cmErrorSet(CmError *err, CmStatus status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/// Clears `err` (NULL is allowed).
void cmErrorClear(CmError *err);

/// Parses all of `text` as a double into `*out` (overflow gives +-inf, "nan"
/// gives NaN: callers judge); returns false for empty text or trailing
/// garbage.
bool cmParseNumber(const char *text, double *out);

/// Returns the value of field `name` of `query` (borrowed), or NULL.
const char *cmQueryFindField(const CmQuery *query, const char *name);

/// Returns a malloc'ed copy of `text`, or NULL when out of memory.
char *cmStrDup(const char *text);

#endif /* LATENCY_CM_ERROR_H */
