/*===- calibrate_slopes.c - the efficiency along a kernel type's axes ------===*
 *
 * calibrate.c gives each kernel type one efficiency, the median over its
 * shapes. Through `loops` that misses unseen shapes by a factor of several:
 * a matmul's inner loop walks a column of its weight, so a multiply-add
 * costs 0.5 ns at n = 128 and 4.7 ns at n = 4096; a 1 x 1 conv over few
 * input channels pays its loop overhead on few multiply-adds. Here the
 * efficiency is fitted as a power law of the type's numeric fields,
 *
 *   ln eff = b0 + sum_j b_j (ln x_j - c_j),   c_j = (ln lo_j + ln hi_j) / 2,
 *
 * by least squares with a small ridge on the slopes (a table of a few shapes
 * must not get wild ones), over the fields that vary among the type's
 * shapes. The law is kept only when it predicts the shapes left out one at
 * a time better than the median of the others does (mean |ln error|, by a
 * tenth at least): otherwise the type keeps its median and no slopes. Kept,
 * it writes b0 as the type's efficiency (at the centre of its range) and
 * per field the slope and the range [lo, hi] it was fitted over; the cost
 * model clamps to that range (costmodel/efficiency_slopes.c). A family
 * (<anchor>+*, calibrate.c) is fitted the same way over the shapes of all
 * of its types, whose fields are the anchor's (passes/describe.c).
 *
 * A matmul's or conv's efficiency also follows the multiply-adds each output
 * accumulates (k, cin x window: cmReductionPerOutput), in a form no power law
 * has: through `loops` the time per multiply-add rises with the reduction
 * and levels off (3 x 3 convs: 0.67 ns at 16 channels, 0.80 at 64, 0.84 at
 * 512; 1 x 1: 0.36 at 31, 0.60 at 96, 0.76 at 320), which a slope over cin,
 * fitted where most shapes are short, carried on: VGG-11's 3 x 3 convs over
 * 512 channels were priced 34% too slow. So the law may carry a reduction
 * term, ln((1 + k0 / k) / (1 + k0 / centre)) (cmReductionLawFactor), with
 * k0 the one of kReductionK0 whose law predicts the shapes left out best,
 * or none; on the project's VM's conv2d+* shapes k0 = 32 took the error left
 * out from 10.7% to 4.1% (docs/profiling.md, "The reduction law").
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxTerms = LAT_MAX_FIELDS + 1 };

static const double kRidge = 0.01;   /* per shape, on the slopes       */
static const double kBetterBy = 0.9; /* LOO error the law must beat    */
static const int kShapesPerTerm = 3; /* shapes needed per fitted term  */
/* the reduction term's k0 tried (multiply-adds), none first */
static const double kReductionK0[] = {0, 8, 16, 32, 64, 128, 256};

typedef struct {
  int numFields;             /* fields fitted                         */
  int field[LAT_MAX_FIELDS]; /* their indexes in the shapes' fields   */
  double lo[LAT_MAX_FIELDS], hi[LAT_MAX_FIELDS]; /* raw range          */
  size_t n;        /* shapes                                */
  double *z;       /* n x numFields centred log values      */
  double *y;       /* n ln efficiencies                     */
  double *k;       /* n reductions per output (NAN: none)   */
  double *off;     /* n reduction terms of the law (or 0)   */
  double kLo, kHi; /* the reductions' range (kHi > kLo: a term fits) */
} Samples;

static bool positiveNumber(const char *text, double *out) {
  char *end;
  double v = strtod(text, &end);
  *out = v;
  return end != text && !*end && isfinite(v) && v > 0;
}

/* Solves the (terms x terms) system a x = b in place by Gaussian
 * elimination with partial pivoting; false when singular. */
static bool solve(double a[kMaxTerms][kMaxTerms], double *b, int terms) {
  for (int c = 0; c < terms; c++) {
    int p = c;
    for (int r = c + 1; r < terms; r++)
      p = fabs(a[r][c]) > fabs(a[p][c]) ? r : p;
    if (fabs(a[p][c]) < 1e-12)
      return false;
    for (int k = 0; k < terms; k++) {
      double t = a[c][k];
      a[c][k] = a[p][k];
      a[p][k] = t;
    }
    double t = b[c];
    b[c] = b[p];
    b[p] = t;
    for (int r = 0; r < terms; r++) {
      if (r == c)
        continue;
      double f = a[r][c] / a[c][c];
      for (int k = c; k < terms; k++)
        a[r][k] -= f * a[c][k];
      b[r] -= f * b[c];
    }
  }
  for (int c = 0; c < terms; c++)
    b[c] /= a[c][c];
  return true;
}

/* Ridge least squares over the samples but `skip` (-1: none); false when
 * the system is singular. */
static bool fitLaw(const Samples *s, long skip, double *coef) {
  int terms = s->numFields + 1;
  double a[kMaxTerms][kMaxTerms] = {{0}};
  double rhs[kMaxTerms] = {0};
  size_t used = 0;
  for (size_t i = 0; i < s->n; i++) {
    if ((long)i == skip)
      continue;
    double x[kMaxTerms] = {1};
    for (int j = 0; j < s->numFields; j++)
      x[j + 1] = s->z[i * s->numFields + j];
    for (int r = 0; r < terms; r++) {
      rhs[r] += x[r] * (s->y[i] - s->off[i]);
      for (int c = 0; c < terms; c++)
        a[r][c] += x[r] * x[c];
    }
    used++;
  }
  for (int j = 1; j < terms; j++)
    a[j][j] += kRidge * (double)used;
  if (!solve(a, rhs, terms))
    return false;
  memcpy(coef, rhs, terms * sizeof *coef);
  return true;
}

static double predictLaw(const Samples *s, const double *coef, size_t i) {
  double v = coef[0] + s->off[i];
  for (int j = 0; j < s->numFields; j++)
    v += coef[j + 1] * s->z[i * s->numFields + j];
  return v;
}

/* Mean |ln error| of the median of the others, for each sample left out. */
static double looMedianError(const Samples *s, double *scratch) {
  double sum = 0;
  for (size_t i = 0; i < s->n; i++) {
    size_t m = 0;
    for (size_t k = 0; k < s->n; k++)
      if (k != i)
        scratch[m++] = s->y[k];
    sum += fabs(lpMedian(scratch, m) - s->y[i]);
  }
  return sum / (double)s->n;
}

/* Mean |ln error| of the law fitted without each sample; INFINITY when a
 * fit is singular. */
static double looLawError(const Samples *s) {
  double sum = 0, coef[kMaxTerms];
  for (size_t i = 0; i < s->n; i++) {
    if (!fitLaw(s, (long)i, coef))
      return INFINITY;
    sum += fabs(predictLaw(s, coef, i) - s->y[i]);
  }
  return sum / (double)s->n;
}

/* Sets the samples' reduction terms for `k0` (0: none). */
static void setReductionTerm(Samples *s, double k0) {
  for (size_t i = 0; i < s->n; i++)
    s->off[i] = log(cmReductionLawFactor(s->k[i], k0, s->kLo, s->kHi));
}

/* The k0 of kReductionK0 whose law predicts the samples left out best, its
 * terms set and that error in `*error`; 0 (none) unless it beats the law
 * without the term as the law must beat the median (kBetterBy), and when
 * the samples have no varying reduction. */
static double chooseReductionTerm(Samples *s, double *error) {
  setReductionTerm(s, 0);
  double none = looLawError(s), best = 0, bestError = INFINITY;
  size_t tries =
      s->kHi > s->kLo ? sizeof kReductionK0 / sizeof *kReductionK0 : 1;
  for (size_t t = 1; t < tries; t++) {
    setReductionTerm(s, kReductionK0[t]);
    double e = looLawError(s);
    if (e < bestError) {
      bestError = e;
      best = kReductionK0[t];
    }
  }
  if (!(bestError < kBetterBy * none)) {
    best = 0;
    bestError = none;
  }
  setReductionTerm(s, best);
  *error = bestError;
  return best;
}

/* The first measured shape in `scope` (a type or a family, lpInScope) and
 * the side (`*compute`) calibrate.c fitted its efficiency on; NULL when
 * none is measured. */
static const LpShape *firstMeasured(const LpShapeSet *set,
                                    const LpDeviceNumbers *d, const char *scope,
                                    bool *compute) {
  double eff;
  for (size_t i = 0; i < set->count; i++)
    if (lpInScope(scope, set->items[i].type) &&
        lpEfficiencyOf(d, &set->items[i], &eff, compute))
      return &set->items[i];
  return NULL;
}

/* The shapes a law is fitted over: those of a type or a family (scope), on
 * one side, with the fields of the first of them. */
typedef struct {
  const char *scope;    /* a type, or a family: conv2d+*             */
  const LpShape *first; /* its first measured shape: the field names */
  bool side;            /* compute-bound (true) or memory-bound      */
} Members;

/* True when `t` is a measured shape of `m` with its efficiency in `*eff`. */
static bool isMember(const LpDeviceNumbers *d, const LpShape *t,
                     const Members *m, double *eff) {
  bool compute;
  return lpInScope(m->scope, t->type) && lpEfficiencyOf(d, t, eff, &compute) &&
         compute == m->side;
}

/* The shapes of `m` into `s` (its arrays sized for set->count): the fields
 * of `m->first` that are positive numbers in every one of them and vary
 * among them, their range over those shapes; false when too few shapes for
 * the terms. */
static bool collect(const LpShapeSet *set, const LpDeviceNumbers *d,
                    const Members *m, Samples *s) {
  const LpShape *first = m->first;
  double eff, v = 0;
  s->numFields = 0;
  for (int f = 0; f < first->numFields; f++) {
    double lo = INFINITY, hi = -INFINITY;
    bool numeric = true;
    for (size_t i = 0; numeric && i < set->count; i++) {
      const LpShape *t = &set->items[i];
      if (!isMember(d, t, m, &eff))
        continue;
      numeric = f < t->numFields && !strcmp(t->names[f], first->names[f]) &&
                positiveNumber(t->values[f], &v);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    if (numeric && hi > lo) {
      s->lo[s->numFields] = lo;
      s->hi[s->numFields] = hi;
      s->field[s->numFields++] = f;
    }
  }
  s->n = 0;
  s->kLo = INFINITY;
  s->kHi = -INFINITY;
  for (size_t i = 0; i < set->count; i++) {
    const LpShape *t = &set->items[i];
    if (!isMember(d, t, m, &eff))
      continue;
    /* a reduction term only when every shape has a reduction */
    double k = cmReductionPerOutput(t->type, lpShapeValue, t);
    s->k[s->n] = k;
    bool reduces = k > 0 && !isnan(s->kLo);
    s->kLo = reduces ? fmin(s->kLo, k) : NAN;
    s->kHi = reduces ? fmax(s->kHi, k) : NAN;
    for (int j = 0; j < s->numFields; j++) {
      positiveNumber(t->values[s->field[j]], &v);
      s->z[s->n * s->numFields + j] =
          log(v) - 0.5 * (log(s->lo[j]) + log(s->hi[j]));
    }
    s->y[s->n++] = log(eff);
  }
  return s->numFields > 0 &&
         s->n >= (size_t)(kShapesPerTerm * (s->numFields + 1));
}

/* The law of `scope` (a type or a family), written over its median when it
 * predicts the scope's shapes better. */
static void fitScopeLaw(const LpShapeSet *set, LpDeviceNumbers *d,
                        const char *scope, Samples *s, double *scratch) {
  bool compute = false; /* set when a shape is found */
  Members m = {scope, firstMeasured(set, d, scope, &compute), false};
  if (!m.first)
    return;
  m.side = compute;
  if (!collect(set, d, &m, s))
    return;
  double coef[kMaxTerms];
  double law;
  double k0 = chooseReductionTerm(s, &law);
  double median = looMedianError(s, scratch);
  /* all of the law's keys or none: the centre efficiency without its
   * slopes would be a biased median */
  if (!(law < kBetterBy * median) || !fitLaw(s, -1, coef) ||
      d->numFitted + 1 + 3 * s->numFields + (k0 > 0 ? 3 : 0) > LP_MAX_FITTED)
    return;
  char key[sizeof d->fittedKeys[0]];
  lpDeviceSetFitted(d, compute ? "compute_efficiency" : "memory_efficiency",
                    scope, exp(coef[0]));
  for (int j = 0; j < s->numFields; j++) {
    snprintf(key, sizeof key, "%s.%s", scope, m.first->names[s->field[j]]);
    lpDeviceSetFitted(d, "efficiency_slope", key, coef[j + 1]);
    lpDeviceSetFitted(d, "efficiency_lo", key, s->lo[j]);
    lpDeviceSetFitted(d, "efficiency_hi", key, s->hi[j]);
  }
  if (k0 > 0) {
    lpDeviceSetFitted(d, "efficiency_reduction_k0", scope, k0);
    lpDeviceSetFitted(d, "efficiency_reduction_lo", scope, s->kLo);
    lpDeviceSetFitted(d, "efficiency_reduction_hi", scope, s->kHi);
  }
}

void lpFitEfficiencySlopes(const LpShapeSet *set, LpDeviceNumbers *d) {
  Samples s = {0};
  s.z = malloc((set->count + 1) * LAT_MAX_FIELDS * sizeof *s.z);
  s.y = malloc((set->count + 1) * sizeof *s.y);
  s.k = malloc((set->count + 1) * sizeof *s.k);
  s.off = calloc(set->count + 1, sizeof *s.off);
  double *scratch = malloc((set->count + 1) * sizeof *scratch);
  char family[CM_KERNEL_FAMILY_SIZE];
  bool ready = s.z && s.y && s.k && s.off && scratch;
  for (size_t i = 0; ready && i < set->count; i++)
    if (lpFirstOfType(set, i))
      fitScopeLaw(set, d, set->items[i].type, &s, scratch);
  for (size_t i = 0; ready && i < set->count; i++)
    if (lpFirstOfFamily(set, i, family, sizeof family))
      fitScopeLaw(set, d, family, &s, scratch);
  free(s.z);
  free(s.y);
  free(s.k);
  free(s.off);
  free(scratch);
}
