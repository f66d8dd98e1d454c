/*===- triangulation_grid.c - a triangulation's grid, handed out and back --===*
 *
 * Building the point-location grid of the 35,700-point GEMM triangulation
 * (232,000 simplices) was half of a warm cold-start: the on-disk cache keeps
 * it and gives it back here. The invariant: a grid taken back is checked
 * for everything point location relies on (cell counts, increasing
 * boundaries and offsets, simplex and vertex indices in range), so even a
 * crafted cache file can only give a wrong cell list, never an access out
 * of bounds; the cache's checksum and byte-for-byte point comparison are
 * what keep the answer right.
 *
 *===----------------------------------------------------------------------===*/
#include "triangulation_impl.h"

#include <math.h>
#include <stdlib.h>

void cmTriangulationGetGrid(const CmTriangulation *t,
                            CmTriangulationGrid *grid) {
  for (int i = 0; i < kMaxDim; i++) {
    grid->cellsPerAxis[i] = i < t->dim ? t->cellsPerAxis[i] : 0;
    grid->bounds[i] = i < t->dim ? t->bounds[i] : NULL;
  }
  grid->cellStart = t->cellStart;
  grid->cellSimplices = t->cellSimplices;
}

static void freeGrid(CmTriangulationGrid *grid) {
  for (int i = 0; i < kMaxDim; i++)
    free(grid->bounds[i]);
  free(grid->cellStart);
  free(grid->cellSimplices);
}

/* Whether the boundaries are finite and strictly increasing on every axis;
 * writes the number of cells to `*numCells`. */
static bool boundsValid(const CmTriangulationGrid *grid, int dim,
                        size_t *numCells) {
  *numCells = 1;
  for (int i = 0; i < dim; i++) {
    int n = grid->cellsPerAxis[i];
    if (n < 1 || n > kMaxCellsPerAxis || (n > 1 && !grid->bounds[i]))
      return false;
    for (int c = 0; c + 1 < n; c++)
      if (!isfinite(grid->bounds[i][c]) ||
          (c > 0 && !(grid->bounds[i][c] > grid->bounds[i][c - 1])))
        return false;
    *numCells *= (size_t)n;
  }
  return true;
}

/* Whether the cell offsets start at 0 and never decrease, and every listed
 * simplex exists. The offsets array has numCells + 1 entries; the last is
 * the length of cellSimplices, trusted only because the caller sized that
 * array from it. */
static bool cellsValid(const CmTriangulationGrid *grid, size_t numCells,
                       size_t numSimplices) {
  if (!grid->cellStart || grid->cellStart[0] != 0)
    return false;
  for (size_t c = 0; c < numCells; c++)
    if (grid->cellStart[c + 1] < grid->cellStart[c])
      return false;
  for (size_t e = 0; e < grid->cellStart[numCells]; e++)
    if (grid->cellSimplices[e] >= numSimplices)
      return false;
  return true;
}

/* Sets t->lo and t->hi to the bounding box of its points. */
static void computeBox(CmTriangulation *t) {
  for (int i = 0; i < t->dim; i++) {
    t->lo[i] = INFINITY, t->hi[i] = -INFINITY;
    for (size_t p = 0; p < t->numPoints; p++) {
      double x = t->points[p * t->dim + i];
      t->lo[i] = x < t->lo[i] ? x : t->lo[i];
      t->hi[i] = x > t->hi[i] ? x : t->hi[i];
    }
  }
}

CmTriangulation *cmTriangulationCreateFromGridOwned(const double *points,
                                                    size_t numPoints, int dim,
                                                    uint32_t *vertices,
                                                    size_t numSimplices,
                                                    CmTriangulationGrid *grid) {
  size_t numCells = 0;
  bool valid = dim >= 2 && dim <= kMaxDim && numPoints >= (size_t)dim + 1 &&
               boundsValid(grid, dim, &numCells) &&
               cellsValid(grid, numCells, numSimplices);
  size_t numIds = numSimplices * (dim + 1);
  for (size_t i = 0; valid && i < numIds; i++)
    valid = vertices[i] < numPoints;
  CmTriangulation *t =
      valid ? cmTriangulationAllocateWithPoints(points, numPoints, dim) : NULL;
  if (!t) {
    free(vertices);
    freeGrid(grid);
    return NULL;
  }
  t->vertices = vertices;
  t->numSimplices = numSimplices;
  for (int i = 0; i < kMaxDim; i++) {
    t->cellsPerAxis[i] = i < dim ? grid->cellsPerAxis[i] : 0;
    t->bounds[i] = grid->bounds[i];
  }
  t->cellStart = grid->cellStart;
  t->cellSimplices = grid->cellSimplices;
  computeBox(t);
  if (!cmTriangulationAllocateTransforms(t)) {
    cmTriangulationDestroy(t);
    return NULL;
  }
  return t;
}
