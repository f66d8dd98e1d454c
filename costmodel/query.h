/*===- query.h - reading a query's fields (internal) -----------------------===*
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_QUERY_H
#define LATENCY_QUERY_H

#include "policy.h"

/// Bytes of a regime key: canonical regime values joined by 0x1f.
enum { CM_REGIME_KEY_SIZE = 512 };

/// The element type of `query`: its "dtype" field, else the first regime
/// key of `policy` (may be NULL) ending in "dtype"; NULL when none.
const char *cmQueryDtype(const CmQuery *query, const CmPolicy *policy);

/// The number in field `name` of the CmQuery `context`, or NaN (the shape
/// cmBuiltinWork reads values through).
double cmQueryFieldValue(const void *context, const char *name);

/// Writes the regime key of `query` under `policy` to `key`
/// (CM_REGIME_KEY_SIZE bytes); false, with the reason added to `out`, when
/// a regime key is missing or the key does not fit.
bool cmQueryRegimeKey(const CmQuery *query, const CmPolicy *policy, char *key,
                      CmEstimate *out);

#endif /* LATENCY_QUERY_H */
