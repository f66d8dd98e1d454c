/*===- fuzz_common.h - queries and checks shared by the fuzz targets -------===*
 *
 * A fuzz query owns its strings, so it outlives the CmPoint or input bytes
 * it was made from. The checks turn the cost model's documented promises
 * into crashes a fuzzer can find: the text and prepared APIs give identical
 * answers, a measured or interpolated answer is a number, and an
 * interpolated one lies between the values it combines.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_FUZZ_COMMON_H
#define LATENCY_FUZZ_COMMON_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

enum { kFuzzMaxFields = CM_CSV_MAX_FIELDS }; /* a --batch row's columns */

typedef struct {
  char *kernel;                   /* owned; NULL: no kernel given      */
  CmField fields[kFuzzMaxFields]; /* names and values owned            */
  size_t numFields;               /* entries in fields                 */
  double flops, bytes;            /* as in CmQuery; < 0: derive        */
} FuzzQuery;

/// Adds field `name`=`value` (copied) to `q`; false when full or out of
/// memory.
bool fuzzQueryAdd(FuzzQuery *q, const char *name, const char *value);

/// Releases the strings of `q` and empties it.
void fuzzQueryClear(FuzzQuery *q);

/// Returns `q` as a CmQuery borrowing from it.
CmQuery fuzzQueryView(const FuzzQuery *q);

/// Aborts with `what` and both answers when `a` and `b` differ in value
/// (bit for bit), source or method.
void fuzzCheckSame(const char *what, const CmEstimate *a, const CmEstimate *b);

/// Estimates `q` on `profile` through the text API, with interpolation on
/// and off, and through the prepared API; checks that a measured or
/// interpolated answer is a number between the values it combines
/// (`saneTables`: the tables' axes and latencies are within 1e15, so
/// overflow cannot excuse it) and that both APIs agree. Writes the text API's
/// answer (interpolation on) to `*out` and returns its status.
CmStatus fuzzEstimate(CmProfile profile, const FuzzQuery *q, bool saneTables,
                      CmEstimate *out);

#endif /* LATENCY_FUZZ_COMMON_H */
