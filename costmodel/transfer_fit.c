/*===- transfer_fit.c - the smooth correction fitted to target points -----===*
 *
 * Residuals r_i = log(measured_i / baseline(x_i)) at the target points are
 * interpolated by a zero-mean Gaussian process over log axes with the
 * Matern-1/2 kernel k(x, y) = exp(-|(x - y) / l|) (one length scale per
 * axis) and a 1e-4 nugget: c(x) = k(x, X) K^-1 r, which reproduces the
 * points (to the nugget) and decays to zero away from them. Leave-one-out
 * residuals come in closed form, (K^-1 r)_i / (K^-1)_ii, so choosing costs
 * one Cholesky factorisation per candidate scale vector: coordinate search
 * over l in {1/4 .. 8}, two sweeps, every baseline scored on each
 * factorisation, by the share of leave-one-out errors beyond 10% (ties: by
 * their mean). Exponential beat a Gaussian kernel and a fitted mean did not
 * beat zero on the development pair (docs/accuracy.md).
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double kScales[] = {0.25, 0.5, 1, 2, 4, 8};
enum { kNumScales = 6, kSweeps = 2 };

static double kernelAt(const double *x, const double *y, const double *scale,
                       int dim) {
  double d2 = 0;
  for (int a = 0; a < dim; a++) {
    double d = (x[a] - y[a]) / scale[a];
    d2 += d * d;
  }
  return exp(-sqrt(d2));
}

typedef struct {
  size_t n;
  int dim;
  const double *features;  /* n x dim                          */
  const double *residuals; /* CM_TRANSFER_BASELINES x n         */
  double *inv;             /* n x n: inverse Cholesky factor     */
  double *diag;            /* n: diagonal of K^-1                */
  double *tmp, *a;         /* n each                             */
} Work;

/* Cholesky factor of K in place (lower triangle); false if not positive
 * definite. */
static bool cholesky(double *m, size_t n) {
  for (size_t j = 0; j < n; j++) {
    double d = m[j * n + j];
    for (size_t k = 0; k < j; k++)
      d -= m[j * n + k] * m[j * n + k];
    if (!(d > 0))
      return false;
    m[j * n + j] = sqrt(d);
    for (size_t i = j + 1; i < n; i++) {
      double s = m[i * n + j];
      for (size_t k = 0; k < j; k++)
        s -= m[i * n + k] * m[j * n + k];
      m[i * n + j] = s / m[j * n + j];
    }
  }
  return true;
}

/* Replaces the lower-triangular factor L in `m` by L^-1 (lower), column by
 * column from the left: column j of L^-1 needs only columns >= j of L, so it
 * is computed in a scratch column and then written over column j of L. */
static void invertLower(double *m, size_t n, double *col) {
  for (size_t j = 0; j < n; j++) {
    for (size_t i = 0; i < n; i++)
      col[i] = 0;
    col[j] = 1 / m[j * n + j];
    for (size_t i = j + 1; i < n; i++) {
      double s = 0;
      for (size_t k = j; k < i; k++)
        s -= m[i * n + k] * col[k];
      col[i] = s / m[i * n + i];
    }
    for (size_t i = j; i < n; i++)
      m[i * n + j] = col[i];
  }
}

/* Factors K(scale); false when even a 100x larger nugget fails. */
static bool factor(Work *w, const double *scale) {
  size_t n = w->n;
  for (double nugget = 1e-4; nugget <= 1e-2; nugget *= 10) {
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j <= i; j++)
        w->inv[i * n + j] = kernelAt(w->features + i * w->dim,
                                     w->features + j * w->dim, scale, w->dim) +
                            (i == j ? nugget : 0);
    if (!cholesky(w->inv, n))
      continue;
    invertLower(w->inv, n, w->tmp);
    for (size_t i = 0; i < n; i++) {
      double s = 0;
      for (size_t k = i; k < n; k++)
        s += w->inv[k * n + i] * w->inv[k * n + i];
      w->diag[i] = s;
    }
    return true;
  }
  return false;
}

/* w->a = K^-1 r from the inverse factor. */
static void solve(Work *w, const double *r) {
  size_t n = w->n;
  for (size_t k = 0; k < n; k++) {
    double s = 0;
    for (size_t i = 0; i <= k; i++)
      s += w->inv[k * n + i] * r[i];
    w->tmp[k] = s;
  }
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (size_t k = i; k < n; k++)
      s += w->inv[k * n + i] * w->tmp[k];
    w->a[i] = s;
  }
}

/* Leave-one-out score of residuals `r`: the share beyond 10% plus a hundredth
 * of the mean |error|; `*within` gets the share within 10%. */
static double looScore(Work *w, const double *r, double *within) {
  for (size_t i = 0; i < w->n; i++)
    if (isnan(r[i]))
      return INFINITY;
  solve(w, r);
  size_t beyond = 0;
  double sum = 0;
  for (size_t i = 0; i < w->n; i++) {
    double e = fabs(w->a[i] / w->diag[i]);
    beyond += e > log(1.1);
    sum += e;
  }
  *within = 1 - (double)beyond / w->n;
  return (double)beyond / w->n + 0.01 * sum / w->n;
}

/* Scores every baseline on the current factorisation; returns the best. */
static double bestBaseline(Work *w, int *baseline, double *within) {
  double best = INFINITY;
  for (int b = 0; b < CM_TRANSFER_BASELINES; b++) {
    double share;
    double s = looScore(w, w->residuals + b * w->n, &share);
    if (s < best) {
      best = s;
      *baseline = b;
      *within = share;
    }
  }
  return best;
}

static bool varies(const Work *w, int a) {
  for (size_t i = 1; i < w->n; i++)
    if (w->features[i * w->dim + a] != w->features[a])
      return true;
  return false;
}

/* Coordinate search of the length scales; leaves the best in c. */
static void search(Work *w, CmCorrection *c) {
  double best = INFINITY;
  if (factor(w, c->scale))
    best = bestBaseline(w, &c->baseline, &c->looWithin10);
  for (int sweep = 0; sweep < kSweeps; sweep++)
    for (int a = 0; a < w->dim; a++) {
      if (!varies(w, a))
        continue;
      for (int s = 0; s < kNumScales; s++) {
        double trial[CM_MAX_AXES];
        memcpy(trial, c->scale, sizeof trial);
        if (trial[a] == kScales[s])
          continue;
        trial[a] = kScales[s];
        int b = 0;
        double share = 0, score;
        if (!factor(w, trial) || (score = bestBaseline(w, &b, &share)) >= best)
          continue;
        best = score;
        memcpy(c->scale, trial, sizeof trial);
        c->baseline = b;
        c->looWithin10 = share;
      }
    }
}

bool cmCorrectionFit(CmCorrection *c, int dim, size_t n, const double *features,
                     const double *residuals) {
  memset(c, 0, sizeof *c);
  c->dim = dim;
  c->looWithin10 = NAN;
  for (int a = 0; a < CM_MAX_AXES; a++)
    c->scale[a] = 1;
  Work w = {n,
            dim,
            features,
            residuals,
            malloc(n * n * sizeof(double)),
            malloc(n * sizeof(double)),
            malloc(n * sizeof(double)),
            malloc(n * sizeof(double))};
  c->features = malloc(n * dim * sizeof *c->features);
  c->weights = calloc(n, sizeof *c->weights);
  bool ok = w.inv && w.diag && w.tmp && w.a && c->features && c->weights;
  if (ok) {
    memcpy(c->features, features, n * dim * sizeof *features);
    c->n = n;
    if (n >= CM_TRANSFER_MIN_FIT)
      search(&w, c);
    double unused;
    if (factor(&w, c->scale) &&
        looScore(&w, residuals + c->baseline * n, &unused) < INFINITY)
      memcpy(c->weights, w.a, n * sizeof *w.a);
    if (n < CM_TRANSFER_MIN_FIT)
      c->looWithin10 = NAN;
  }
  free(w.inv);
  free(w.diag);
  free(w.tmp);
  free(w.a);
  if (!ok)
    cmCorrectionFree(c);
  return ok;
}

double cmCorrectionAt(const CmCorrection *c, const double *f) {
  double sum = 0;
  for (size_t i = 0; i < c->n; i++)
    if (c->weights[i] != 0)
      sum += c->weights[i] *
             kernelAt(f, c->features + i * c->dim, c->scale, c->dim);
  return sum;
}

void cmCorrectionFree(CmCorrection *c) {
  free(c->features);
  free(c->weights);
  c->features = c->weights = NULL;
  c->n = 0;
}
