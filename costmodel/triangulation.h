/*===- triangulation.h - Delaunay triangulation and point location ---------===*
 *
 * The only interface to Qhull. A triangulation is built once from a point
 * set (2D or 3D), its simplices copied out of Qhull, and then queried
 * read-only from any number of threads. Its simplices and point-location
 * grid can be copied out and a triangulation rebuilt from them (the on-disk
 * cache, triangulation_cache.c) without running Qhull or building the grid.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRIANGULATION_H
#define LATENCY_TRIANGULATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct CmTriangulation CmTriangulation;

/// Triangulates `numPoints` points of dimension `dim` (2 or 3) stored
/// row-major in `points` (copied) with Qhull's "d Qt Qbb Qc Qz", as SciPy
/// does. Returns NULL and writes why into `reason` (too few points, a
/// degenerate set, a Qhull error, out of memory); Qhull never exits.
CmTriangulation *cmTriangulationCreate(const double *points, size_t numPoints,
                                       int dim, char *reason,
                                       size_t reasonSize);

/// The point-location grid of a triangulation: quantile cell boundaries per
/// axis and, per cell, the non-degenerate simplices whose box overlaps it.
typedef struct {
  int cellsPerAxis[3];     /* cells along each axis (1..64; dim used)     */
  double *bounds[3];       /* cellsPerAxis[i]-1 increasing boundaries     */
  size_t *cellStart;       /* numCells + 1 offsets into cellSimplices     */
  uint32_t *cellSimplices; /* cellStart[numCells] simplex indices         */
} CmTriangulationGrid;

/// Writes the grid of `t` into `grid` (arrays borrowed, valid while `t`
/// lives): with the simplices, what the on-disk cache stores so a later
/// process skips building it.
void cmTriangulationGetGrid(const CmTriangulation *t,
                            CmTriangulationGrid *grid);

/// Rebuilds the triangulation that cmTriangulationCreate made earlier for
/// the same `points` (copied) from its `numSimplices` simplices `vertices`
/// (dim+1 point indices each, as cmTriangulationGetSimplices returned them)
/// and its `grid` (as cmTriangulationGetGrid returned it), so point location
/// answers bit-identically without Qhull or a grid build. Takes ownership of
/// `vertices` and of every array of `grid`, freed on failure too. Returns NULL
/// when out of memory or when anything is out of range (a vertex or simplex
/// index, a cell count, boundaries or offsets not increasing), so a damaged
/// grid can cost an answer's speed but never make point location read out of
/// bounds.
CmTriangulation *cmTriangulationCreateFromGridOwned(const double *points,
                                                    size_t numPoints, int dim,
                                                    uint32_t *vertices,
                                                    size_t numSimplices,
                                                    CmTriangulationGrid *grid);

/// Returns the simplices of `t` (borrowed, valid while `t` lives): dim+1
/// point indices each, in Qhull's order; writes their count to
/// `numSimplices`.
const uint32_t *cmTriangulationGetSimplices(const CmTriangulation *t,
                                            size_t *numSimplices);

/// Frees `t`; NULL is a no-op.
void cmTriangulationDestroy(CmTriangulation *t);

/// Finds a simplex of `t` that contains `q` (dim values); writes its dim+1
/// point indices to `vertices` and barycentric weights to `weights`. Returns
/// false when `q` is outside the convex hull.
bool cmTriangulationLocate(const CmTriangulation *t, const double *q,
                           uint32_t *vertices, double *weights);

#endif /* LATENCY_TRIANGULATION_H */
