/*===- eval_select.c - which measured points latency-eval holds out -------===*
 *
 * Points are identified by kernel, regime values and axes; a held-out point
 * goes with all its duplicate rows. Random choices come from splitmix64, so
 * a seed names one selection on every machine.
 *
 *===----------------------------------------------------------------------===*/
#include "eval.h"

#include "latency/costmodel_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points the candidate's strings at its own copies again. */
void evalRepoint(Candidate *c) {
  c->point.kernel = c->kernel;
  for (int r = 0; r < c->point.numRegime; r++)
    c->point.regimeValues[r] = c->regime[r];
}

CmQuery evalPointQuery(const CmPoint *p, PointQuery *storage) {
  size_t n = 0;
  for (int r = 0; r < p->numRegime; r++)
    storage->fields[n++] = (CmField){p->regimeNames[r], p->regimeValues[r]};
  for (int a = 0; a < p->numAxes; a++) {
    snprintf(storage->text[a], sizeof storage->text[a], "%.17g", p->axes[a]);
    storage->fields[n++] = (CmField){p->axisNames[a], storage->text[a]};
  }
  return (CmQuery){p->kernel, storage->fields, n, -1, -1};
}

void evalPointKey(const CmPoint *p, char *out, size_t size) {
  size_t used = (size_t)snprintf(out, size, "%s", p->kernel);
  for (int r = 0; r < p->numRegime && used < size; r++)
    used +=
        (size_t)snprintf(out + used, size - used, "|%s", p->regimeValues[r]);
  for (int a = 0; a < p->numAxes && used < size; a++)
    used += (size_t)snprintf(out + used, size - used, "|%.17g", p->axes[a]);
}

bool evalPassesFilters(const Selection *s, const CmPoint *p) {
  if (s->kernel && strcmp(s->kernel, p->kernel))
    return false;
  for (size_t f = 0; f < s->numFilters; f++) {
    bool match = false;
    for (int r = 0; r < p->numRegime; r++) {
      if (strcmp(p->regimeNames[r], s->filters[f].name))
        continue;
      char want[64];
      cmCanonicalRegimeValue(s->filters[f].name, s->filters[f].value, want,
                             sizeof want);
      match = !strcmp(want, p->regimeValues[r]);
    }
    if (!match)
      return false;
  }
  return true;
}

void evalCollect(void *selection, const CmPoint *p) {
  Selection *s = selection;
  if (!evalPassesFilters(s, p))
    return;
  if (s->count == s->capacity) {
    s->capacity = s->capacity ? 2 * s->capacity : 1024;
    s->items = realloc(s->items, s->capacity * sizeof *s->items);
    if (!s->items) {
      fputs("latency-eval: out of memory\n", stderr);
      exit(1);
    }
  }
  Candidate *c = &s->items[s->count++];
  evalPointKey(p, c->key, sizeof c->key);
  c->point = *p;
  snprintf(c->kernel, sizeof c->kernel, "%s", p->kernel);
  for (int r = 0; r < p->numRegime; r++)
    snprintf(c->regime[r], sizeof c->regime[r], "%s", p->regimeValues[r]);
}

/* splitmix64: a small, well-mixed generator; same seed, same points. */
static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void evalShuffle(Candidate *items, size_t n, uint64_t seed) {
  uint64_t state = seed;
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)(nextRandom(&state) % i);
    Candidate tmp = items[i - 1];
    items[i - 1] = items[j];
    items[j] = tmp;
  }
}

int evalCompareKeys(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

bool evalKeepRow(void *heldOut, const CmPoint *row) {
  const HeldOut *h = heldOut;
  char key[256];
  evalPointKey(row, key, sizeof key);
  const char *k = key;
  return !bsearch(&k, h->keys, h->count, sizeof *h->keys, evalCompareKeys);
}

/* Axis tuples read from a --holdout-points file. */
typedef struct {
  const Selection *sel;
  int column[CM_MAX_AXES]; /* file column of each axis of the points */
  double (*rows)[CM_MAX_AXES];
  size_t count, capacity;
} PointFile;

static CmStatus readPointRow(void *context, char **f, size_t n, size_t line,
                             CmError *err) {
  PointFile *pf = context;
  const CmPoint *p = &pf->sel->items[0].point;
  if (line == 1) {
    for (int a = 0; a < p->numAxes; a++) {
      pf->column[a] = -1;
      for (size_t i = 0; i < n; i++)
        if (!strcmp(f[i], p->axisNames[a]))
          pf->column[a] = (int)i;
      if (pf->column[a] < 0) {
        snprintf(err->message, sizeof err->message, "line 1: no column '%s'",
                 p->axisNames[a]);
        return CM_ERR_FORMAT;
      }
    }
    return CM_OK;
  }
  if (pf->count == pf->capacity) {
    pf->capacity = pf->capacity ? 2 * pf->capacity : 1024;
    pf->rows = realloc(pf->rows, pf->capacity * sizeof *pf->rows);
    if (!pf->rows)
      return CM_ERR_NOMEM;
  }
  for (int a = 0; a < p->numAxes; a++)
    pf->rows[pf->count][a] =
        (size_t)pf->column[a] < n ? atof(f[pf->column[a]]) : NAN;
  pf->count++;
  return CM_OK;
}

static bool samePoint(const double *x, const double *y, int n) {
  for (int a = 0; a < n; a++)
    if (x[a] != y[a])
      return false;
  return true;
}

/* Moves the candidates listed in `path` to the front; returns their count,
 * or (size_t)-1 on error. Quadratic in the worst case, fine for thousands. */
size_t evalSelectListed(Selection *sel, const char *path) {
  PointFile pf = {.sel = sel};
  CmError err;
  if (cmCsvReadFile(path, path, readPointRow, &pf, &err) != CM_OK) {
    fprintf(stderr, "latency-eval: %s: %s\n", path, err.message);
    free(pf.rows);
    return (size_t)-1;
  }
  size_t front = 0;
  for (size_t i = 0; i < sel->count; i++)
    for (size_t r = 0; r < pf.count; r++)
      if (samePoint(sel->items[i].point.axes, pf.rows[r],
                    sel->items[i].point.numAxes)) {
        Candidate tmp = sel->items[front];
        sel->items[front++] = sel->items[i];
        sel->items[i] = tmp;
        break;
      }
  free(pf.rows);
  return front;
}

/* Picks `want` interior values of axis `a` at random into `out`. */
static size_t pickInterior(const Selection *sel, int a, size_t want,
                           uint64_t *state, double *out) {
  double *v = malloc(sel->count * sizeof *v);
  size_t n = 0;
  for (size_t i = 0; i < sel->count; i++)
    v[n++] = sel->items[i].point.axes[a];
  qsort(v, n, sizeof *v, evalCompareDoubles);
  size_t distinct = 0;
  for (size_t i = 0; i < n; i++)
    if (distinct == 0 || v[i] != v[distinct - 1])
      v[distinct++] = v[i];
  size_t interior = distinct > 2 ? distinct - 2 : 0, picked = 0;
  for (size_t i = 0; i < interior && picked < want; i++) /* selection */
    if (nextRandom(state) % (interior - i) < want - picked)
      out[picked++] = v[i + 1];
  free(v);
  return picked;
}

static bool isAmong(double x, const double *values, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (values[i] == x)
      return true;
  return false;
}

size_t evalSelectOffGrid(Selection *sel, const char *axesList, size_t want,
                         uint64_t seed, char ***keys, size_t *numKeys,
                         char *names, size_t namesSize) {
  const CmPoint *p0 = &sel->items[0].point;
  int axes[CM_MAX_AXES], numAxes = 0;
  double values[CM_MAX_AXES][64];
  size_t numValues[CM_MAX_AXES];
  uint64_t state = seed;
  char list[256];
  snprintf(list, sizeof list, "%s", axesList);
  names[0] = '\0';
  for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
    int a = -1;
    for (int i = 0; i < p0->numAxes; i++)
      if (!strcmp(p0->axisNames[i], t))
        a = i;
    if (a < 0 || numAxes == CM_MAX_AXES) {
      fprintf(stderr, "latency-eval: '%s' is not an axis of %s\n", t,
              p0->kernel);
      return (size_t)-1;
    }
    axes[numAxes] = a;
    numValues[numAxes] =
        pickInterior(sel, a, want < 64 ? want : 64, &state, values[numAxes]);
    size_t used = strlen(names);
    used += (size_t)snprintf(names + used, namesSize - used,
                             "%s%s=", used ? " " : "", t);
    for (size_t v = 0; v < numValues[numAxes]; v++)
      used += (size_t)snprintf(names + used, namesSize - used, "%s%.17g",
                               v ? "," : "", values[numAxes][v]);
    numAxes++;
  }
  *keys = malloc((sel->count + 1) * sizeof **keys);
  *numKeys = 0;
  size_t front = 0;
  for (size_t i = 0; i < sel->count; i++) {
    int hits = 0;
    for (int k = 0; k < numAxes; k++)
      hits +=
          isAmong(sel->items[i].point.axes[axes[k]], values[k], numValues[k]);
    if (hits == 0)
      continue;
    if (hits == numAxes) {
      Candidate tmp = sel->items[front];
      sel->items[front] = sel->items[i];
      sel->items[i] = tmp;
      front++;
    }
  }
  for (size_t i = 0; i < sel->count; i++) {
    int hits = 0;
    for (int k = 0; k < numAxes; k++)
      hits +=
          isAmong(sel->items[i].point.axes[axes[k]], values[k], numValues[k]);
    if (hits)
      (*keys)[(*numKeys)++] = sel->items[i].key;
  }
  return front;
}
