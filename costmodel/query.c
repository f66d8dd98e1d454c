/*===- query.c - reading a query's fields ----------------------------------===*
 *
 * A CmQuery is text (kernel, name = value fields) as users and the passes
 * give it; these read it for the facade: fields by name, numbers, the
 * element type and the regime key that selects a table group.
 *
 *===----------------------------------------------------------------------===*/
#include "query.h"

#include "answer.h"
#include "work.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *cmQueryFindField(const CmQuery *query, const char *name) {
  for (size_t i = 0; i < query->numFields; i++)
    if (query->fields[i].name && !strcmp(query->fields[i].name, name))
      return query->fields[i].value;
  return NULL;
}

/* The element type of the query: its "dtype" field, else the first regime
 * key ending in "dtype". */
const char *cmQueryDtype(const CmQuery *q, const CmPolicy *policy) {
  const char *dtype = cmQueryFindField(q, "dtype");
  for (int i = 0; !dtype && policy && i < policy->numRegime; i++) {
    size_t n = strlen(policy->regime[i]);
    if (n >= 5 && !strcmp(policy->regime[i] + n - 5, "dtype"))
      dtype = cmQueryFindField(q, policy->regime[i]);
  }
  return dtype;
}

/* Numbers of the query's fields, for the built-in work formulas. */
double cmQueryFieldValue(const void *context, const char *name) {
  double v;
  return cmParseNumber(cmQueryFindField(context, name), &v) ? v : NAN;
}

/* Builds the regime key of the query; false (with the reason) when a regime
 * key is missing. */
bool cmQueryRegimeKey(const CmQuery *query, const CmPolicy *policy, char *key,
                      CmEstimate *out) {
  size_t used = 0;
  key[0] = '\0';
  for (int i = 0; i < policy->numRegime; i++) {
    const char *text = cmQueryFindField(query, policy->regime[i]);
    if (!text) {
      cmEstimateAddReason(out, "regime key '%s' not given", policy->regime[i]);
      return false;
    }
    char value[128];
    cmCanonicalRegimeValue(policy->regime[i], text, value, sizeof value);
    used += (size_t)snprintf(key + used, CM_REGIME_KEY_SIZE - used, "%s%s",
                             i ? "\x1f" : "", value);
    if (used >= CM_REGIME_KEY_SIZE)
      return false;
  }
  return true;
}

void cmQueryWork(const CmQuery *query, double *flops, double *bytes) {
  *flops = query->flops >= 0 ? query->flops : -1;
  *bytes = query->bytes >= 0 ? query->bytes : -1;
  if (query->kernel)
    cmBuiltinWork(query->kernel, cmQueryFieldValue, query,
                  cmQueryDtype(query, NULL),
                  cmQueryFindField(query, "kv_dtype"), flops, bytes);
}
