/*===- transfer_smooth.c - the reference without its fine structure -------===*
 *
 * Tile and kernel choices put cliffs in a device's tables (m = 128 -> 129
 * can jump 60%); another architecture has its cliffs elsewhere. The
 * smoothed reference keeps the trend: at a shape x it is
 *
 *   roof(x) * exp( sum_j w_j log(t_j / roof_j) / sum_j w_j ),
 *   w_j = exp(-|f(x) - f_j|^2 / (2 h^2)),
 *
 * over the reference points j of the group within 3h (f: log axes, roof:
 * the reference roofline time). Points are kept sorted by their first
 * feature, so a query scans only the slab |f_0 - f_0(x)| <= 3h.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct CmSmoother {
  double h;         /* bandwidth, log units                      */
  int dim;          /* axes                                      */
  size_t n;         /* reference points                          */
  double *features; /* n x dim, sorted by feature 0              */
  double *logRatio; /* n: log(t / roof), or log t when roof unknown */
};

typedef struct {
  double f0;    /* sort key */
  size_t index; /* reference point */
} Key;

static int compareKeys(const void *a, const void *b) {
  const Key *x = a, *y = b;
  if (x->f0 != y->f0)
    return x->f0 < y->f0 ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Fills s->features and s->logRatio from the sealed reference group. */
static void fillPoints(CmSmoother *s, const struct CmTransferImpl *t,
                       const CmTransferGroup *g, const Key *keys) {
  const CmGroup *ref = g->ref;
  for (size_t i = 0; i < s->n; i++) {
    const double *x = ref->x + keys[i].index * ref->dim;
    CmRowScale scale;
    cmTransferRowScale(t, g, x, &scale);
    double roof = scale.refRoofUs > 0 ? scale.refRoofUs : 1;
    cmTransferFeatures(s->dim, x, s->features + i * s->dim);
    s->logRatio[i] = log(ref->y[keys[i].index] / roof);
  }
}

CmSmoother *cmSmootherCreate(const struct CmTransferImpl *t,
                             const CmTransferGroup *g, double h) {
  const CmGroup *ref = g->ref;
  if (!ref || ref->numPoints == 0)
    return NULL;
  CmSmoother *s = calloc(1, sizeof *s);
  Key *keys = malloc(ref->numPoints * sizeof *keys);
  if (!s || !keys)
    goto fail;
  s->h = h;
  s->dim = ref->dim;
  s->n = ref->numPoints;
  s->features = malloc(s->n * s->dim * sizeof *s->features);
  s->logRatio = malloc(s->n * sizeof *s->logRatio);
  if (!s->features || !s->logRatio)
    goto fail;
  for (size_t i = 0; i < s->n; i++) {
    double f[CM_MAX_AXES];
    cmTransferFeatures(s->dim, ref->x + i * ref->dim, f);
    keys[i] = (Key){f[0], i};
  }
  qsort(keys, s->n, sizeof *keys, compareKeys);
  fillPoints(s, t, g, keys);
  free(keys);
  return s;
fail:
  free(keys);
  cmSmootherDestroy(s);
  return NULL;
}

void cmSmootherDestroy(CmSmoother *s) {
  if (!s)
    return;
  free(s->features);
  free(s->logRatio);
  free(s);
}

/* The first point whose feature 0 is >= `f0`. */
static size_t lowerBound(const CmSmoother *s, double f0) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->features[mid * s->dim] < f0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

double cmSmootherAt(const CmSmoother *s, const double *f, double roofUs) {
  double reach = 3 * s->h, reach2 = reach * reach, inv = 0.5 / (s->h * s->h);
  double sum = 0, weight = 0;
  for (size_t i = lowerBound(s, f[0] - reach); i < s->n; i++) {
    const double *p = s->features + i * s->dim;
    if (p[0] > f[0] + reach)
      break;
    double d2 = 0;
    for (int a = 0; a < s->dim && d2 <= reach2; a++)
      d2 += (p[a] - f[a]) * (p[a] - f[a]);
    if (d2 > reach2)
      continue;
    double w = exp(-d2 * inv);
    sum += w * s->logRatio[i];
    weight += w;
  }
  if (!(weight > 0))
    return NAN;
  return (roofUs > 0 ? roofUs : 1) * exp(sum / weight);
}
