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

enum { kMaxDim = 3, kMaxCellsPerAxis = 64 };

struct CmTriangulation {
  int dim;                         /* 2 or 3                                 */
  size_t numPoints;                /* input points                           */
  double *points;                  /* numPoints * dim, copied                */
  size_t numSimplices;             /* lower Delaunay simplices               */
  uint32_t *vertices;              /* numSimplices * (dim+1) point indices   */
  int cellsPerAxis[kMaxDim];       /* grid cells along each axis             */
  double *bounds[kMaxDim];         /* cellsPerAxis-1 inner boundaries each   */
  size_t *cellStart;               /* cell -> first entry; numCells + 1      */
  uint32_t *cellSimplices;         /* non-degenerate simplices per cell      */
  double lo[kMaxDim], hi[kMaxDim]; /* bounding box of all points            */
};

/// Allocates a triangulation holding a copy of `points` and nothing else;
/// NULL when out of memory.
CmTriangulation *cmTriangulationAllocateWithPoints(const double *points,
                                                   size_t numPoints, int dim);

#endif /* LATENCY_TRIANGULATION_IMPL_H */
