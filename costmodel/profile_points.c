/*===- profile_points.c - measured points in and out: filters, visits ------===*
 *
 * What hold-out evaluation needs from a profile, through the public API:
 * the list of measured points, and the same profile loaded without some of
 * them. Filtering happens after parsing and before any index exists, so the
 * filtered profile is exactly what loading a smaller table would give.
 *
 *===----------------------------------------------------------------------===*/
#include "profile.h"

#include <stdlib.h>
#include <string.h>

/* Fills the parts of a view that are the same for every row of `g`: kernel,
 * regime (split into `values`, the caller's buffer) and axis names. */
static void groupView(const CmGroup *g, char *values, CmPoint *view) {
  const CmPolicy *policy = g->policy;
  view->kernel = g->kernel;
  view->numRegime = policy->numRegime;
  strcpy(values, g->regimeKey);
  char *s = values;
  for (int r = 0; r < policy->numRegime; r++) {
    view->regimeNames[r] = policy->regime[r];
    view->regimeValues[r] = s;
    char *sep = strchr(s, '\x1f');
    if (sep) {
      *sep = '\0';
      s = sep + 1;
    } else {
      s += strlen(s);
    }
  }
  view->numAxes = policy->numAxes;
  for (int a = 0; a < policy->numAxes; a++)
    view->axisNames[a] = policy->axes[a];
}

/* Points the view at row/point `i` of `g`. */
static void rowView(const CmGroup *g, size_t i, CmPoint *view) {
  for (int a = 0; a < g->dim; a++)
    view->axes[a] = g->x[i * g->dim + a];
  view->latencyUs = g->y[i];
}

CmStatus cmProfileCreateFromDirFiltered(const char *dir,
                                        bool (*keep)(void *, const CmPoint *),
                                        void *context, CmProfile *out,
                                        CmError *err) {
  CmStatus status = cmProfileCreateFromDir(dir, out, err);
  if (status != CM_OK)
    return status;
  struct CmProfileImpl *p = out->ptr;
  for (size_t gi = 0; gi < p->groups.count; gi++) {
    CmGroup *g = p->groups.items[gi];
    char *values = malloc(strlen(g->regimeKey) + 1);
    if (!values) {
      cmProfileDestroy(*out);
      out->ptr = NULL;
      return CM_ERR_NOMEM;
    }
    CmPoint view;
    groupView(g, values, &view);
    size_t kept = 0;
    for (size_t r = 0; r < g->numRows; r++) {
      rowView(g, r, &view);
      if (!keep(context, &view))
        continue;
      memmove(g->x + kept * g->dim, g->x + r * g->dim, g->dim * sizeof *g->x);
      g->y[kept++] = g->y[r];
    }
    p->numRows -= g->numRows - kept;
    /* one hold-out of many: its seal and indexes would only fill the cache */
    g->uncached = kept < g->numRows;
    g->numRows = kept;
    free(values);
  }
  return CM_OK;
}

bool cmProfileForEachPoint(CmProfile profile,
                           void (*visit)(void *, const CmPoint *),
                           void *context) {
  struct CmProfileImpl *p = profile.ptr;
  for (size_t gi = 0; gi < p->groups.count; gi++) {
    CmGroup *g = p->groups.items[gi];
    if (!cmGroupSeal(g))
      return false;
    char *values = malloc(strlen(g->regimeKey) + 1);
    if (!values)
      return false;
    CmPoint view;
    groupView(g, values, &view);
    for (size_t i = 0; i < g->numPoints; i++) {
      rowView(g, i, &view);
      visit(context, &view);
    }
    free(values);
  }
  return true;
}
