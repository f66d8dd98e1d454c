/*===- triangulation.c - Delaunay triangulation with Qhull, point location -===*
 *
 * Qhull is used only in triangulateWithQhull: its state lives on that
 * function's stack, every call after qh_new_qhull runs under its own
 * setjmp(qh->errexit) guard (otherwise a Qhull error calls exit()), the
 * lower-Delaunay simplices and their neighbours are copied out, and Qhull is
 * freed before the function returns. Point location is ours: a visibility
 * walk over the copied simplices (Qhull's own finder trips on 'Qt'), started
 * from the nearest of a few sampled simplices, with a brute-force scan as
 * the fallback when the walk meets a degenerate simplex.
 *
 *===----------------------------------------------------------------------===*/
#include "triangulation.h"

#include "libqhull_r/libqhull_r.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxDim = 3, kNumStarts = 32 };

/* Barycentric tolerance: a point this close outside a face still counts. */
static const double kInsideEps = 1e-12;

struct CmTriangulation {
  int dim;              /* 2 or 3                                          */
  size_t numPoints;     /* input points                                    */
  double *points;       /* numPoints * dim, copied                         */
  size_t numSimplices;  /* lower Delaunay simplices                        */
  uint32_t *vertices;   /* numSimplices * (dim+1) point indices            */
  int32_t *neighbours;  /* same shape: simplex opposite vertex i, -1: none */
  double *transforms;   /* numSimplices * dim*dim inverse of the edge      */
                        /* matrix, NaN-filled for degenerate simplices     */
  double *centroids;    /* numSimplices * dim, for choosing a start        */
};

void cmTriangulationDestroy(CmTriangulation *t) {
  if (!t)
    return;
  free(t->points);
  free(t->vertices);
  free(t->neighbours);
  free(t->transforms);
  free(t->centroids);
  free(t);
}

/* Copies the lower Delaunay facets of a finished Qhull run into `t`. */
static bool copySimplices(qhT *qh, CmTriangulation *t) {
  int stride = t->dim + 1;
  int *indexOf = malloc(((size_t)qh->facet_id + 1) * sizeof *indexOf);
  if (!indexOf)
    return false;
  facetT *facet;
  size_t n = 0;
  FORALLfacets {
    indexOf[facet->id] = facet->upperdelaunay ? -1 : (int)n;
    n += !facet->upperdelaunay;
  }
  t->numSimplices = n;
  t->vertices = malloc((n * stride + 1) * sizeof *t->vertices);
  t->neighbours = malloc((n * stride + 1) * sizeof *t->neighbours);
  if (!t->vertices || !t->neighbours) {
    free(indexOf);
    return false;
  }
  size_t s = 0;
  FORALLfacets {
    if (facet->upperdelaunay)
      continue;
    /* Simplicial facets keep neighbour i opposite vertex i. */
    for (int i = 0; i < stride; i++) {
      vertexT *vertex = SETelemt_(facet->vertices, i, vertexT);
      facetT *neighbour = SETelemt_(facet->neighbors, i, facetT);
      t->vertices[s * stride + i] = (uint32_t)qh_pointid(qh, vertex->point);
      t->neighbours[s * stride + i] = indexOf[neighbour->id];
    }
    s++;
  }
  free(indexOf);
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
  int exitCode = qh_new_qhull(qh, t->dim, (int)t->numPoints, t->points,
                              False, flags, NULL, errors);
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

/* Inverts the dim x dim edge matrix of simplex s into its transform; fills
 * NaN when the simplex is degenerate. */
static void computeTransform(CmTriangulation *t, size_t s) {
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
  double *inv = t->transforms + s * d * d;
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
  if (!(fabs(det) > 1e-12 * pow(scale, d)))
    for (int i = 0; i < d * d; i++)
      inv[i] = NAN;
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
  CmTriangulation *t = calloc(1, sizeof *t);
  if (!t || !(t->points = malloc(numPoints * dim * sizeof *t->points))) {
    free(t);
    snprintf(reason, reasonSize, "out of memory");
    return NULL;
  }
  t->dim = dim;
  t->numPoints = numPoints;
  memcpy(t->points, points, numPoints * dim * sizeof *t->points);
  if (!triangulateWithQhull(t, reason, reasonSize)) {
    cmTriangulationDestroy(t);
    return NULL;
  }
  size_t n = t->numSimplices;
  t->transforms = malloc((n * dim * dim + 1) * sizeof *t->transforms);
  t->centroids = malloc((n * dim + 1) * sizeof *t->centroids);
  if (!t->transforms || !t->centroids) {
    snprintf(reason, reasonSize, "out of memory");
    cmTriangulationDestroy(t);
    return NULL;
  }
  for (size_t s = 0; s < n; s++) {
    computeTransform(t, s);
    for (int i = 0; i < dim; i++) {
      double sum = 0;
      for (int j = 0; j <= dim; j++)
        sum += t->points[(size_t)t->vertices[s * (dim + 1) + j] * dim + i];
      t->centroids[s * dim + i] = sum / (dim + 1);
    }
  }
  return t;
}

/* Barycentric coordinates of q in simplex s; false when s is degenerate. */
static bool barycentric(const CmTriangulation *t, size_t s, const double *q,
                        double *b) {
  int d = t->dim;
  const double *inv = t->transforms + s * d * d;
  if (isnan(inv[0]))
    return false;
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

static bool locateByScan(const CmTriangulation *t, const double *q,
                         uint32_t *vertices, double *weights) {
  double b[kMaxDim + 1];
  for (size_t s = 0; s < t->numSimplices; s++) {
    if (!barycentric(t, s, q, b))
      continue;
    bool inside = true;
    for (int i = 0; i <= t->dim && inside; i++)
      inside = b[i] >= -kInsideEps;
    if (inside)
      return found(t, s, b, vertices, weights);
  }
  return false;
}

static size_t chooseStart(const CmTriangulation *t, const double *q) {
  size_t best = 0, step = t->numSimplices / kNumStarts + 1;
  double bestDistance = INFINITY;
  for (size_t s = 0; s < t->numSimplices; s += step) {
    double distance = 0;
    for (int i = 0; i < t->dim; i++) {
      double delta = t->centroids[s * t->dim + i] - q[i];
      distance += delta * delta;
    }
    if (distance < bestDistance)
      bestDistance = distance, best = s;
  }
  return best;
}

bool cmTriangulationLocate(const CmTriangulation *t, const double *q,
                           uint32_t *vertices, double *weights) {
  if (t->numSimplices == 0)
    return false;
  double b[kMaxDim + 1];
  size_t s = chooseStart(t, q);
  for (size_t steps = 0; steps <= t->numSimplices; steps++) {
    if (!barycentric(t, s, q, b))
      return locateByScan(t, q, vertices, weights);
    int worst = 0;
    for (int i = 1; i <= t->dim; i++)
      if (b[i] < b[worst])
        worst = i;
    if (b[worst] >= -kInsideEps)
      return found(t, s, b, vertices, weights);
    int32_t next = t->neighbours[s * (t->dim + 1) + worst];
    if (next < 0)
      return false; /* beyond a hull facet: outside the convex hull */
    s = (size_t)next;
  }
  return locateByScan(t, q, vertices, weights); /* walk cycled */
}

size_t cmTriangulationGetNumSimplices(const CmTriangulation *t) {
  return t->numSimplices;
}
