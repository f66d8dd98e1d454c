/*===- triangulation_impl.h - layout of a triangulation (internal) --------===*
 *
 * Shared by triangulation.c (Qhull, the grid, point location) and
 * triangulation_grid.c (the grid handed out to and taken back from the
 * on-disk cache). Nothing else sees these fields.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRIANGULATION_IMPL_H
#define LATENCY_TRIANGULATION_IMPL_H

#include "triangulation.h"

#include <stdatomic.h>

enum { kMaxDim = 3, kMaxCellsPerAxis = 64 };

struct CmTriangulation {
  int dim;                         /* 2 or 3                                 */
  size_t numPoints;                /* input points                           */
  double *points;                  /* numPoints * dim, copied                */
  size_t numSimplices;             /* lower Delaunay simplices               */
  uint32_t *vertices;              /* numSimplices * (dim+1) point indices   */
  double *transforms;              /* numSimplices * dim*dim inverses, each  */
                                   /* written once when first tested       */
  atomic_uchar *transformState;    /* per simplex: kTransform* below        */
  int cellsPerAxis[kMaxDim];       /* grid cells along each axis             */
  double *bounds[kMaxDim];         /* cellsPerAxis-1 inner boundaries each   */
  size_t *cellStart;               /* cell -> first entry; numCells + 1      */
  uint32_t *cellSimplices;         /* non-degenerate simplices per cell      */
  double lo[kMaxDim], hi[kMaxDim]; /* bounding box of all points            */
};

/// Allocates the lazily filled inverse transforms of `t`'s simplices (left
/// untouched, so only the pages of simplices tested become resident);
/// false when out of memory.
bool cmTriangulationAllocateTransforms(CmTriangulation *t);

/// Allocates a triangulation holding a copy of `points` and nothing else;
/// NULL when out of memory.
CmTriangulation *cmTriangulationAllocateWithPoints(const double *points,
                                                   size_t numPoints, int dim);

#endif /* LATENCY_TRIANGULATION_IMPL_H */
