/*===- triangulation.h - Delaunay triangulation and point location ---------===*
 *
 * The only interface to Qhull. A triangulation is built once from a point
 * set (2D or 3D), its simplices copied out of Qhull, and then queried
 * read-only from any number of threads. Its simplices can be copied out and
 * a triangulation rebuilt from them (the on-disk cache,
 * triangulation_cache.c) without running Qhull again.
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

/// Rebuilds the triangulation that cmTriangulationCreate made earlier for
/// the same `points` (copied) from its `numSimplices` simplices `vertices`
/// (dim+1 point indices each, as cmTriangulationGetSimplices returned them),
/// so point location answers bit-identically without Qhull. Takes ownership
/// of `vertices` (malloc'd), freed on failure too. Returns NULL when out of
/// memory, `dim` is not 2 or 3, or an index is out of range.
CmTriangulation *cmTriangulationCreateFromSimplicesOwned(const double *points,
                                                         size_t numPoints,
                                                         int dim,
                                                         uint32_t *vertices,
                                                         size_t numSimplices);

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
