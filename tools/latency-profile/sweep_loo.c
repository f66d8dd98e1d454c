/*===- sweep_loo.c - leave-one-out accuracy of a measured profile ---------===*
 *
 * Each measured point is predicted by the cost model from the profile as
 * written, loaded without that point (cmProfileCreateFromDirFiltered): the
 * answer a query between grid points would get. Only interpolated answers
 * count as answered; an exact hit cannot happen (the point is out) and a
 * roofline answer is a miss of the tables.
 *
 *===----------------------------------------------------------------------===*/
#include "sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Keeps every row except those of the left-out shape (same kernel, same
 * axis values). */
static bool keepRow(void *context, const CmPoint *row) {
  const LpShape *out = context;
  if (strcmp(row->kernel, out->type))
    return true;
  for (int a = 0; a < row->numAxes; a++) {
    const char *v = lpShapeField(out, row->axisNames[a]);
    if (!v || strtod(v, NULL) != row->axes[a])
      return true;
  }
  return false;
}

/* Predicts `s` from `dir` without it; returns false when nothing could be
 * loaded. */
static bool predictWithout(const char *dir, const LpShape *s, CmEstimate *est) {
  CmProfile profile;
  CmError err;
  if (cmProfileCreateFromDirFiltered(dir, keepRow, (void *)s, &profile, &err) !=
      CM_OK)
    return false;
  CmField fields[LAT_MAX_FIELDS];
  for (int i = 0; i < s->numFields; i++)
    fields[i] = (CmField){s->names[i], s->values[i]};
  CmQuery query = {s->type, fields, (size_t)s->numFields, -1, -1};
  CmOptions options = cmOptionsDefault();
  bool ok = cmProfileEstimate(profile, &query, &options, est, &err) == CM_OK;
  cmProfileDestroy(profile);
  return ok;
}

static LpLooTable *tableOf(LpLooTable *tables, size_t *n, size_t max,
                           const char *type) {
  for (size_t i = 0; i < *n; i++)
    if (!strcmp(tables[i].type, type))
      return &tables[i];
  if (*n == max)
    return NULL;
  LpLooTable *t = &tables[(*n)++];
  memset(t, 0, sizeof *t);
  snprintf(t->type, sizeof t->type, "%s", type);
  return t;
}

size_t lpLeaveOneOut(const char *dir, const LpShapeSet *set, LpLooTable *out,
                     size_t max, bool *bad) {
  size_t n = 0;
  for (size_t i = 0; i < set->count; i++) {
    const LpShape *s = &set->items[i];
    bad[i] = false;
    LpLooTable *t = s->result.ok ? tableOf(out, &n, max, s->type) : NULL;
    CmEstimate est;
    if (!t || !predictWithout(dir, s, &est))
      continue;
    t->points++;
    double pct = 100 * (est.latencyUs - s->result.us) / s->result.us;
    bool answered = est.source == CM_SOURCE_INTERPOLATED;
    t->answered += answered;
    t->within10 += answered && fabs(pct) <= 10;
    t->sumAbsPct += answered ? fabs(pct) : 0;
    bad[i] = answered && fabs(pct) > 10;
  }
  return n;
}
