/*===- triangulation_cache.h - Delaunay simplices kept across processes ----===*
 *
 * Triangulating a large candidate set with Qhull takes seconds (the 35,700
 * point GEMM grid: 8 s, 167 MB); its simplices fit in a few MB. The cache
 * keeps them and the point-location grid on disk, keyed by the exact input
 * points, so a later process rebuilds the same triangulation (bit-identical
 * answers) without Qhull and without building the grid.
 *
 * Where: cache_file.h. Only sets of at least kCmCacheMinPoints points
 * are cached: smaller ones triangulate in about the time a file read takes.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TRIANGULATION_CACHE_H
#define LATENCY_TRIANGULATION_CACHE_H

#include "latency/costmodel_util.h"
#include "triangulation.h"

enum { kCmCacheMinPoints = 1000 };

/// Returns the triangulation of `points` as cmTriangulationCreate does
/// (same arguments, same answers): from the cache when it holds a valid entry
/// for exactly these points, else from Qhull, storing the simplices in the
/// cache (written to a temporary file, then renamed). A corrupt or truncated
/// entry is never used: it is rebuilt and a note is kept (see
/// cmCacheTakeNotes). Cache I/O failures only cost time.
CmTriangulation *cmTriangulationCreateCached(const double *points,
                                             size_t numPoints, int dim,
                                             char *reason, size_t reasonSize);

#endif /* LATENCY_TRIANGULATION_CACHE_H */
