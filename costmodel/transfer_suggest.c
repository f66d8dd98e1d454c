/*===- transfer_suggest.c - which few target shapes to measure next -------===*
 *
 * Greedy weighted coverage (facility location) in rank space
 * (transfer_ranks.c: each axis value as its rank among the candidates):
 * with S the shapes measured or chosen so far, pick the candidate c that
 * most increases
 *
 *   sum_x w_x max_{s in S + c} exp(-|f_x - f_s|^2 / (2 h^2))
 *
 * over a sample of the candidates x (same kernel and regime as s only).
 * w_x = 0.1 + |log(scaled_x / smoothed_x)|: how far the reference's own
 * fine structure moves the transferred value there, i.e. where the
 * transfer is unsure and a measurement settles it. h = 0.4 (n / (budget
 * n_g))^(1/d) for a group of n_g of the n candidates with d varying axes:
 * each point covers about its share of the candidates, so groups get
 * points in proportion to their size and weight. The objective is
 * submodular, so gains only fall as S grows: a lazy max-heap re-scores
 * only its top. The sample (at most 4096 candidates) comes from `seed`;
 * ties go to the earlier candidate, so a seed names one answer. Measured
 * shapes and repeated candidates are never chosen. Variants measured on
 * the development pair: docs/accuracy.md.
 *
 *===----------------------------------------------------------------------===*/
#include "transfer_impl.h"

#include "cm_error.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { kSampleSize = 4096 };
static const double kFar = 25; /* squared h-distance that covers nothing */
static const double kBaseWeight = 0.1; /* w of a shape the smoothing keeps */
static const double kWidth = 0.4;      /* h per (share of candidates)^(1/d) */

typedef struct {
  int group;
  size_t index;
} Member; /* a candidate, for sorting by group */

typedef struct {
  double gain;
  size_t index;
} Entry; /* a heap entry: an upper bound of the candidate's gain */

typedef struct {
  struct CmTransferImpl *t;
  const CmShape *shapes;
  size_t n;
  double (*features)[CM_MAX_AXES]; /* n: ranks among the candidates  */
  CmRankSpace *ranks;              /* maps axis values to ranks      */
  double *weight;                  /* n                              */
  double (*scale)[CM_MAX_AXES];    /* per group: h per axis          */
  Member *sample;                  /* objective rows, by group       */
  size_t numSample;
  size_t *start; /* per group: first sample row; numGroups + 1 */
  double *reach; /* per sample row: squared distance covered from */
} Coverage;

static uint64_t nextRandom(uint64_t *state) { /* splitmix64 */
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int compareMembers(const void *a, const void *b) {
  const Member *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Squared distance of two features in units of the group's h, or any
 * value >= `limit` once it is clear the result reaches it. */
static double distance2(const Coverage *c, int group, const double *x,
                        const double *y, double limit) {
  const double *h = c->scale[group];
  double d2 = 0;
  for (int a = 0; a < c->t->groups[group].policy->numAxes && d2 < limit; a++) {
    double d = (x[a] - y[a]) / h[a];
    d2 += d * d;
  }
  return d2;
}

/* The coverage exp(-d2 / 2) of a sample row whose nearest chosen shape is
 * at squared distance `reach`: zero from kFar on. */
static double coverOf(double reach) {
  return reach < kFar ? exp(-0.5 * reach) : 0;
}

/* w = 0.1 + |log(scaled / smoothed)|: the reference's fine structure. */
static double weightOf(struct CmTransferImpl *t, const CmShape *s) {
  CmTransferGroup *g = &t->groups[s->group];
  double refUs = cmTransferReferenceAt(g, s->axes);
  CmRowScale scale;
  cmTransferRowScale(t, g, s->axes, &scale);
  double raw = cmTransferBaseline(t, g, 0, s->axes, refUs, &scale);
  double smooth = cmTransferBaseline(t, g, 2, s->axes, refUs, &scale);
  double w = fabs(log(raw / smooth));
  return kBaseWeight + (isfinite(w) ? w : 0);
}

/* Length scales per group, in ranks: a point should cover about n / budget
 * candidates, so a group of n_g gets h^d ~ n / (budget n_g). */
static void groupScales(Coverage *c, size_t count) {
  double budget = (double)(count + c->t->points.count);
  for (size_t g = 0; g < c->t->numGroups; g++) {
    int varying;
    size_t size = cmRankSpaceGroupSize(c->ranks, (int)g, &varying);
    double share = size ? fmin(1, (double)c->n / (budget * size)) : 1;
    double h = kWidth * pow(share, 1.0 / (varying ? varying : 1));
    for (int a = 0; a < CM_MAX_AXES; a++)
      c->scale[g][a] = h;
  }
}

/* Picks the objective sample with `seed` and indexes it by group. */
static void pickSample(Coverage *c, Member *all, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = 0; i < c->n; i++)
    all[i] = (Member){c->shapes[i].group, i};
  c->numSample = c->n < kSampleSize ? c->n : kSampleSize;
  for (size_t i = 0; c->numSample < c->n && i < c->numSample; i++) {
    size_t j = i + (size_t)(nextRandom(&state) % (c->n - i));
    Member tmp = all[i];
    all[i] = all[j];
    all[j] = tmp;
  }
  memcpy(c->sample, all, c->numSample * sizeof *all);
  qsort(c->sample, c->numSample, sizeof *c->sample, compareMembers);
  for (size_t g = 0, i = 0; g <= c->t->numGroups; g++) {
    while (i < c->numSample && c->sample[i].group < (int)g)
      i++;
    c->start[g] = i;
  }
}

/* Sample rows start as covered by the target points already measured. */
static void coverByPoints(Coverage *c) {
  const CmShapeList *points = &c->t->points;
  for (size_t i = 0; i < c->numSample; i++) {
    const Member *m = &c->sample[i];
    c->reach[i] = kFar;
    for (size_t p = 0; p < points->count; p++) {
      if (points->items[p].group != m->group)
        continue;
      double f[CM_MAX_AXES];
      cmRankSpaceMap(c->ranks, m->group, points->items[p].axes, f);
      c->reach[i] =
          fmin(c->reach[i],
               distance2(c, m->group, c->features[m->index], f, c->reach[i]));
    }
  }
}

static double gainOf(const Coverage *c, size_t candidate) {
  int g = c->shapes[candidate].group;
  double gain = 0;
  for (size_t i = c->start[g]; i < c->start[g + 1]; i++) {
    size_t x = c->sample[i].index;
    double d2 =
        distance2(c, g, c->features[x], c->features[candidate], c->reach[i]);
    if (d2 < c->reach[i])
      gain += c->weight[x] * (exp(-0.5 * d2) - coverOf(c->reach[i]));
  }
  return gain;
}

static void addToCover(Coverage *c, size_t chosen) {
  int g = c->shapes[chosen].group;
  for (size_t i = c->start[g]; i < c->start[g + 1]; i++)
    c->reach[i] =
        fmin(c->reach[i], distance2(c, g, c->features[c->sample[i].index],
                                    c->features[chosen], c->reach[i]));
}

/*------------------------------------------------------------ the heap --*/

static bool before(const Entry *a, const Entry *b) {
  return a->gain > b->gain || (a->gain == b->gain && a->index < b->index);
}

static void heapPush(Entry *heap, size_t *n, Entry e) {
  size_t i = (*n)++;
  for (; i > 0 && before(&e, &heap[(i - 1) / 2]); i = (i - 1) / 2)
    heap[i] = heap[(i - 1) / 2];
  heap[i] = e;
}

static Entry heapPop(Entry *heap, size_t *n) {
  Entry top = heap[0], last = heap[--*n];
  size_t i = 0;
  for (size_t child; (child = 2 * i + 1) < *n; i = child) {
    if (child + 1 < *n && before(&heap[child + 1], &heap[child]))
      child++;
    if (!before(&heap[child], &last))
      break;
    heap[i] = heap[child];
  }
  if (*n > 0)
    heap[i] = last;
  return top;
}

/*-------------------------------------------------------------- choice --*/

typedef struct {
  const CmShape *shape;
  size_t index;
} Twin; /* for finding repeated candidates */

static int compareTwins(const void *a, const void *b) {
  const Twin *x = a, *y = b;
  int c = cmShapeCompare(x->shape, y->shape);
  return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Marks the candidates that may be chosen: the first of each shape, unless
 * the shape is a target point already. */
static bool markChoosable(const Coverage *c, bool *choosable) {
  Twin *twins = malloc((c->n + 1) * sizeof *twins);
  if (!twins)
    return false;
  for (size_t i = 0; i < c->n; i++)
    twins[i] = (Twin){&c->shapes[i], i};
  qsort(twins, c->n, sizeof *twins, compareTwins);
  for (size_t i = 0; i < c->n; i++) {
    const CmShape *s = twins[i].shape;
    choosable[twins[i].index] =
        (i == 0 || cmShapeCompare(twins[i - 1].shape, s) != 0) &&
        cmTransferFindPoint(c->t, s->group, s->axes) < 0;
  }
  free(twins);
  return true;
}

/* Chooses up to `count` candidates into `chosen`; returns how many. */
static size_t choose(Coverage *c, const bool *choosable, Entry *heap,
                     size_t count, size_t *chosen) {
  size_t numHeap = 0, numChosen = 0;
  for (size_t i = 0; i < c->n; i++)
    if (choosable[i])
      heapPush(heap, &numHeap, (Entry){gainOf(c, i), i});
  while (numChosen < count && numHeap > 0) {
    Entry top = heapPop(heap, &numHeap);
    top.gain = gainOf(c, top.index); /* bounds only fall: re-score */
    if (numHeap > 0 && before(&heap[0], &top)) {
      heapPush(heap, &numHeap, top);
      continue;
    }
    chosen[numChosen++] = top.index;
    addToCover(c, top.index);
  }
  return numChosen;
}

static void printRows(const CmShapeList *list, const size_t *chosen,
                      size_t numChosen, FILE *out) {
  for (size_t f = 0; f < list->numFields; f++) {
    fputs(f ? "," : "", out);
    cmCsvWriteField(out, list->header[f]);
  }
  fputc('\n', out);
  for (size_t i = 0; i < numChosen; i++) {
    char **fields = list->items[chosen[i]].fields;
    for (size_t f = 0; f < list->numFields; f++) {
      fputs(f ? "," : "", out);
      cmCsvWriteField(out, fields[f]);
    }
    fputc('\n', out);
  }
}

static CmStatus suggestFrom(struct CmTransferImpl *t, const CmShapeList *list,
                            size_t count, uint64_t seed, FILE *out,
                            CmError *err) {
  size_t n = list->count;
  Coverage c = {.t = t, .shapes = list->items, .n = n};
  c.features = malloc((n + 1) * sizeof *c.features);
  c.weight = malloc((n + 1) * sizeof *c.weight);
  c.scale = malloc((t->numGroups + 1) * sizeof *c.scale);
  c.sample = malloc((n + 1) * sizeof *c.sample);
  c.start = malloc((t->numGroups + 2) * sizeof *c.start);
  c.reach = malloc((n + 1) * sizeof *c.reach);
  Member *all = malloc((n + 1) * sizeof *all);
  bool *choosable = malloc(n + 1);
  Entry *heap = malloc((n + 1) * sizeof *heap);
  c.ranks = cmRankSpaceCreate(t, list->items, n);
  size_t *chosen = malloc((n + 1) * sizeof *chosen);
  CmStatus status = CM_OK;
  if (!c.features || !c.weight || !c.scale || !c.sample || !c.start ||
      !c.reach || !all || !choosable || !heap || !chosen || !c.ranks ||
      !markChoosable(&c, choosable)) {
    status = cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < n; i++) {
    const CmShape *s = &list->items[i];
    cmRankSpaceMap(c.ranks, s->group, s->axes, c.features[i]);
    c.weight[i] = weightOf(t, s);
  }
  pickSample(&c, all, seed);
  groupScales(&c, count);
  coverByPoints(&c);
  printRows(list, chosen, choose(&c, choosable, heap, count, chosen), out);
done:
  cmRankSpaceDestroy(c.ranks);
  free(c.features);
  free(c.weight);
  free(c.scale);
  free(c.sample);
  free(c.start);
  free(c.reach);
  free(all);
  free(choosable);
  free(heap);
  free(chosen);
  return status;
}

CmStatus cmTransferSuggest(CmTransfer transfer, const char *candidatesPath,
                           size_t count, uint64_t seed, FILE *out,
                           CmError *err) {
  CmShapeList list = {0};
  CmStatus status =
      cmShapesRead(transfer.ptr, candidatesPath, false, &list, err);
  if (status == CM_OK)
    status = suggestFrom(transfer.ptr, &list, count, seed, out, err);
  cmShapeListFree(&list);
  return status;
}
