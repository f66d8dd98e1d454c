/*===- triangulation.c - Delaunay triangulation with Qhull, point location -===*
 *
 * Qhull is used only in triangulateWithQhull: its state lives on that
 * function's stack, every call after qh_new_qhull runs under its own
 * setjmp(qh->errexit) guard (otherwise a Qhull error calls exit()), the
 * lower-Delaunay simplices are copied out, and Qhull is
 * freed before the function returns. Point location is ours (Qhull's own
 * finder trips on 'Qt'): a grid whose cell boundaries are quantiles of the
 * vertex coordinates on each axis (profiles are log-spaced, so uniform cells
 * would crowd), each cell listing the non-degenerate simplices whose bounding
 * box overlaps it. A point inside the hull lies in some such simplex, whose
 * box holds the point, so it is listed in the point's cell: checking that
 * cell's list answers exactly, including "outside". (A visibility walk was
 * tried first: on the cospherical GEMM grid 'Qt' makes so many degenerate
 * slivers that walks kept falling back to scanning every simplex.)
 *
 *===----------------------------------------------------------------------===*/
#include "triangulation_impl.h"

#include "libqhull_r/libqhull_r.h"

#include <assert.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Barycentric tolerance: a point this close outside a face still counts. */
static const double kInsideEps = 1e-12;

/* States of a simplex's slot in t->transforms. Only the thread that moves it
 * from absent to writing writes the slot; readers use it only once ready
 * (acquire), so there is no data race and every thread sees the same bits. */
enum { kTransformAbsent, kTransformWriting, kTransformReady };

void cmTriangulationDestroy(CmTriangulation *t) {
  if (!t)
    return;
  free(t->points);
  free(t->vertices);
  free(t->transforms);
  free(t->transformState);
  for (int i = 0; i < kMaxDim; i++)
    free(t->bounds[i]);
  free(t->cellStart);
  free(t->cellSimplices);
  free(t);
}

/* Copies the lower Delaunay facets of a finished Qhull run into `t`. */
static bool copySimplices(qhT *qh, CmTriangulation *t) {
  int stride = t->dim + 1;
  facetT *facet;
  size_t n = 0;
  FORALLfacets { n += !facet->upperdelaunay; }
  t->numSimplices = n;
  t->vertices = malloc((n * stride + 1) * sizeof *t->vertices);
  if (!t->vertices)
    return false;
  size_t s = 0;
  FORALLfacets {
    if (facet->upperdelaunay)
      continue;
    for (int i = 0; i < stride; i++) {
      vertexT *vertex = SETelemt_(facet->vertices, i, vertexT);
      t->vertices[s * stride + i] = (uint32_t)qh_pointid(qh, vertex->point);
    }
    s++;
  }
  return true;
}

/* Runs Qhull on t->points and copies the simplices out; false with `reason`
 * on any failure. */
static bool triangulateWithQhull(CmTriangulation *t, char *reason,
                                 size_t reasonSize) {
  qhT qh_qh;
  qhT *qh = &qh_qh;
  char *errorText = NULL;
  size_t errorSize = 0;
  FILE *errors = open_memstream(&errorText, &errorSize);
  if (!errors) {
    snprintf(reason, reasonSize, "out of memory");
    return false;
  }
  QHULL_LIB_CHECK
  qh_zero(qh, errors);
  char flags[] = "qhull d Qt Qbb Qc Qz";
  int exitCode = qh_new_qhull(qh, t->dim, (int)t->numPoints, t->points, False,
                              flags, NULL, errors);
  bool ok = false;
  if (exitCode == 0) {
    if (!setjmp(qh->errexit)) { /* guards every Qhull call below */
      qh->NOerrexit = False;
      ok = copySimplices(qh, t);
      if (!ok)
        snprintf(reason, reasonSize, "out of memory");
    } else {
      snprintf(reason, reasonSize, "qhull failed while copying simplices");
    }
    qh->NOerrexit = True;
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  /* What Qhull's long-memory allocator still holds after both frees: not
   * zero is a leak in how we drive Qhull (user_eg_r.c reports the same).
   * Debug and sanitizer builds, which every test runs, stop on it. */
  assert(curlong == 0 && totlong == 0 && "qhull memory not freed");
  (void)curlong, (void)totlong;
  fclose(errors);
  if (exitCode != 0) {
    /* Qhull's message names the problem; keep its first line. */
    const char *text = errorText && *errorText ? errorText : "unknown error";
    const char *tag = strstr(text, "QH");
    size_t len = strcspn(tag ? tag : text, "\n");
    bool flat = strstr(text, "flat") || strstr(text, "singular") ||
                strstr(text, "coplanar") || strstr(text, "QH6154") ||
                strstr(text, "QH6271");
    snprintf(reason, reasonSize, "%s set (qhull: %.*s)",
             flat ? "degenerate" : "untriangulable", (int)len,
             tag ? tag : text);
  }
  free(errorText);
  return ok && exitCode == 0;
}

/* Inverts the dim x dim edge matrix of simplex s into `inv` (dim*dim);
 * false when the simplex is degenerate. */
static bool computeTransform(const CmTriangulation *t, size_t s, double *inv) {
  int d = t->dim;
  const uint32_t *v = t->vertices + s * (d + 1);
  const double *last = t->points + (size_t)v[d] * d;
  double a[kMaxDim][kMaxDim]; /* column j = vertex j - last vertex */
  double scale = 0;
  for (int j = 0; j < d; j++)
    for (int i = 0; i < d; i++) {
      a[i][j] = t->points[(size_t)v[j] * d + i] - last[i];
      scale = fmax(scale, fabs(a[i][j]));
    }
  double det;
  if (d == 2) {
    det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    inv[0] = a[1][1] / det, inv[1] = -a[0][1] / det;
    inv[2] = -a[1][0] / det, inv[3] = a[0][0] / det;
  } else {
    double c00 = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    double c01 = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    double c02 = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    det = a[0][0] * c00 + a[0][1] * c01 + a[0][2] * c02;
    inv[0] = c00 / det;
    inv[1] = (a[0][2] * a[2][1] - a[0][1] * a[2][2]) / det;
    inv[2] = (a[0][1] * a[1][2] - a[0][2] * a[1][1]) / det;
    inv[3] = c01 / det;
    inv[4] = (a[0][0] * a[2][2] - a[0][2] * a[2][0]) / det;
    inv[5] = (a[0][2] * a[1][0] - a[0][0] * a[1][2]) / det;
    inv[6] = c02 / det;
    inv[7] = (a[0][1] * a[2][0] - a[0][0] * a[2][1]) / det;
    inv[8] = (a[0][0] * a[1][1] - a[0][1] * a[1][0]) / det;
  }
  /* Relative volume below ~1e-12: a sliver Qt made from a degenerate facet. */
  return fabs(det) > 1e-12 * pow(scale, d);
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Cell of coordinate x on axis i: the number of inner boundaries <= x
 * (`strict`: < x, for the upper end of a simplex's box, so a box ending on a
 * boundary does not spill into the next cell). */
static int cellOf(const CmTriangulation *t, int i, double x, bool strict) {
  int lo = 0, hi = t->cellsPerAxis[i] - 1;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (strict ? t->bounds[i][mid] < x : t->bounds[i][mid] <= x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* Chooses quantile boundaries per axis; fills t->bounds and the box. */
static bool chooseCells(CmTriangulation *t) {
  int d = t->dim;
  double *coords = malloc((t->numPoints + 1) * sizeof *coords);
  if (!coords)
    return false;
  int perAxis = (int)ceil(pow((double)t->numSimplices, 1.0 / d));
  perAxis = perAxis < 1                  ? 1
            : perAxis > kMaxCellsPerAxis ? kMaxCellsPerAxis
                                         : perAxis;
  for (int i = 0; i < d; i++) {
    for (size_t p = 0; p < t->numPoints; p++)
      coords[p] = t->points[p * d + i];
    qsort(coords, t->numPoints, sizeof *coords, compareDoubles);
    t->lo[i] = coords[0];
    t->hi[i] = coords[t->numPoints - 1];
    t->bounds[i] = malloc(perAxis * sizeof **t->bounds);
    if (!t->bounds[i]) {
      free(coords);
      return false;
    }
    int n = 0; /* distinct quantiles strictly inside (lo, hi) */
    for (int c = 1; c < perAxis; c++) {
      double b = coords[(size_t)c * t->numPoints / perAxis];
      if (b > t->lo[i] && b < t->hi[i] && (n == 0 || b > t->bounds[i][n - 1]))
        t->bounds[i][n++] = b;
    }
    t->cellsPerAxis[i] = n + 1;
  }
  free(coords);
  return true;
}

/* Calls back for every cell the bounding box of simplex s overlaps. */
static size_t registerSimplex(CmTriangulation *t, size_t s, size_t *counts,
                              uint32_t *fill) {
  int d = t->dim, from[kMaxDim], to[kMaxDim];
  for (int i = 0; i < d; i++) {
    double lo = INFINITY, hi = -INFINITY;
    for (int j = 0; j <= d; j++) {
      double x = t->points[(size_t)t->vertices[s * (d + 1) + j] * d + i];
      lo = fmin(lo, x), hi = fmax(hi, x);
    }
    from[i] = cellOf(t, i, lo, false);
    to[i] = cellOf(t, i, hi, true);
    if (to[i] < from[i])
      to[i] = from[i];
  }
  size_t visited = 0;
  int c[kMaxDim] = {0};
  for (int i = 0; i < d; i++)
    c[i] = from[i];
  for (;;) {
    size_t cell = 0;
    for (int i = 0; i < d; i++)
      cell = cell * t->cellsPerAxis[i] + c[i];
    if (fill)
      t->cellSimplices[counts[cell]++] = (uint32_t)s;
    else
      counts[cell + 1]++;
    visited++;
    int i = d - 1;
    while (i >= 0 && c[i] == to[i])
      c[i] = from[i], i--;
    if (i < 0)
      return visited;
    c[i]++;
  }
}

/* Builds the cell lists (compressed rows) of the non-degenerate simplices. */
static bool buildGrid(CmTriangulation *t) {
  bool *usable = malloc(t->numSimplices + 1);
  if (!usable || !chooseCells(t)) {
    free(usable);
    return false;
  }
  double inv[kMaxDim * kMaxDim];
  for (size_t s = 0; s < t->numSimplices; s++)
    usable[s] = computeTransform(t, s, inv);
  size_t numCells = 1;
  for (int i = 0; i < t->dim; i++)
    numCells *= (size_t)t->cellsPerAxis[i];
  t->cellStart = calloc(numCells + 1, sizeof *t->cellStart);
  if (!t->cellStart) {
    free(usable);
    return false;
  }
  for (size_t s = 0; s < t->numSimplices; s++)
    if (usable[s])
      registerSimplex(t, s, t->cellStart, NULL);
  for (size_t c = 0; c < numCells; c++)
    t->cellStart[c + 1] += t->cellStart[c];
  t->cellSimplices =
      malloc((t->cellStart[numCells] + 1) * sizeof *t->cellSimplices);
  size_t *fill = malloc((numCells + 1) * sizeof *fill);
  if (!t->cellSimplices || !fill) {
    free(fill);
    free(usable);
    return false;
  }
  memcpy(fill, t->cellStart, numCells * sizeof *fill);
  for (size_t s = 0; s < t->numSimplices; s++)
    if (usable[s])
      registerSimplex(t, s, fill, t->cellSimplices);
  free(fill);
  free(usable);
  return true;
}

CmTriangulation *cmTriangulationAllocateWithPoints(const double *points,
                                                   size_t numPoints, int dim) {
  CmTriangulation *t = calloc(1, sizeof *t);
  if (!t || !(t->points = malloc(numPoints * dim * sizeof *t->points))) {
    free(t);
    return NULL;
  }
  t->dim = dim;
  t->numPoints = numPoints;
  memcpy(t->points, points, numPoints * dim * sizeof *t->points);
  return t;
}

bool cmTriangulationAllocateTransforms(CmTriangulation *t) {
  size_t dd = (size_t)t->dim * t->dim;
  t->transforms = malloc((t->numSimplices * dd + 1) * sizeof *t->transforms);
  t->transformState = calloc(t->numSimplices + 1, sizeof *t->transformState);
  return t->transforms && t->transformState;
}

/* Builds the cell grid of t's simplices; frees `t` and returns NULL when out
 * of memory. */
static CmTriangulation *finishGrid(CmTriangulation *t) {
  if (!cmTriangulationAllocateTransforms(t) || !buildGrid(t)) {
    cmTriangulationDestroy(t);
    return NULL;
  }
  return t;
}

CmTriangulation *cmTriangulationCreate(const double *points, size_t numPoints,
                                       int dim, char *reason,
                                       size_t reasonSize) {
  if (dim < 2 || dim > kMaxDim) {
    snprintf(reason, reasonSize, "dimension %d not supported", dim);
    return NULL;
  }
  if (numPoints < (size_t)dim + 1) {
    snprintf(reason, reasonSize, "%zu points, need at least %d", numPoints,
             dim + 1);
    return NULL;
  }
  CmTriangulation *t =
      cmTriangulationAllocateWithPoints(points, numPoints, dim);
  if (!t) {
    snprintf(reason, reasonSize, "out of memory");
    return NULL;
  }
  if (!triangulateWithQhull(t, reason, reasonSize)) {
    cmTriangulationDestroy(t);
    return NULL;
  }
  if (!(t = finishGrid(t)))
    snprintf(reason, reasonSize, "out of memory");
  return t;
}

const uint32_t *cmTriangulationGetSimplices(const CmTriangulation *t,
                                            size_t *numSimplices) {
  *numSimplices = t->numSimplices;
  return t->vertices;
}

/* Barycentric coordinates of q in simplex s; false when s is degenerate. */
/* The inverse transform of listed (so non-degenerate) simplex s: computed
 * the first time the simplex is tested and kept, rather than computed for
 * all of them up front (9 doubles each: 17 MB on the GEMM grid, half a
 * single query's memory, of which it tests a handful). */
static const double *transformOf(const CmTriangulation *t, size_t s,
                                 double *scratch) {
  size_t dd = (size_t)t->dim * t->dim;
  double *slot = t->transforms + s * dd;
  unsigned char state =
      atomic_load_explicit(&t->transformState[s], memory_order_acquire);
  if (state == kTransformReady)
    return slot;
  computeTransform(t, s, scratch);
  unsigned char absent = kTransformAbsent;
  if (state == kTransformAbsent &&
      atomic_compare_exchange_strong_explicit(
          &t->transformState[s], &absent, kTransformWriting,
          memory_order_relaxed, memory_order_relaxed)) {
    memcpy(slot, scratch, dd * sizeof *slot);
    atomic_store_explicit(&t->transformState[s], kTransformReady,
                          memory_order_release);
  }
  return scratch;
}

static bool barycentric(const CmTriangulation *t, size_t s, const double *q,
                        double *b) {
  int d = t->dim;
  double scratch[kMaxDim * kMaxDim];
  const double *inv = transformOf(t, s, scratch);
  const double *last = t->points + (size_t)t->vertices[s * (d + 1) + d] * d;
  double sum = 0;
  for (int i = 0; i < d; i++) {
    double v = 0;
    for (int j = 0; j < d; j++)
      v += inv[i * d + j] * (q[j] - last[j]);
    b[i] = v;
    sum += v;
  }
  b[d] = 1.0 - sum;
  return true;
}

static bool found(const CmTriangulation *t, size_t s, const double *b,
                  uint32_t *vertices, double *weights) {
  for (int i = 0; i <= t->dim; i++) {
    vertices[i] = t->vertices[s * (t->dim + 1) + i];
    weights[i] = b[i];
  }
  return true;
}

/* Checks the simplices listed in `cell`; true with the answer when one
 * contains q. */
static bool locateInCell(const CmTriangulation *t, size_t cell, const double *q,
                         uint32_t *vertices, double *weights) {
  double b[kMaxDim + 1];
  for (size_t e = t->cellStart[cell]; e < t->cellStart[cell + 1]; e++) {
    size_t s = t->cellSimplices[e];
    bool inside = barycentric(t, s, q, b);
    for (int i = 0; i <= t->dim && inside; i++)
      inside = b[i] >= -kInsideEps;
    if (inside)
      return found(t, s, b, vertices, weights);
  }
  return false;
}

bool cmTriangulationLocate(const CmTriangulation *t, const double *q,
                           uint32_t *vertices, double *weights) {
  int cell[kMaxDim];
  unsigned onBoundary = 0; /* axes where q sits exactly on a boundary */
  for (int i = 0; i < t->dim; i++) {
    if (!(q[i] >= t->lo[i] && q[i] <= t->hi[i]))
      return false; /* outside the box, so outside the hull (or NaN) */
    cell[i] = cellOf(t, i, q[i], false);
    if (cellOf(t, i, q[i], true) != cell[i])
      onBoundary |= 1u << i;
  }
  /* A simplex whose box ends on q's boundary is listed one cell lower on
   * that axis: try every such combination (usually just the one cell). */
  for (unsigned lower = 0; lower < (1u << t->dim); lower++) {
    if (lower & ~onBoundary)
      continue;
    size_t index = 0;
    for (int i = 0; i < t->dim; i++)
      index = index * t->cellsPerAxis[i] + cell[i] - ((lower >> i) & 1);
    if (locateInCell(t, index, q, vertices, weights))
      return true;
  }
  return false;
}
