/*===- subspace_index.h - 2D/3D candidate sets and their triangulations ----===*
 *
 * For a subset of axes (a bit mask), the candidates of a query are the
 * points that agree with it on every axis outside the subset. The index
 * groups a sealed group's points by those values; each such set gets its
 * Delaunay triangulation (in transformed coordinates of the subset's axes)
 * on first use, cached for the life of the profile.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_SUBSPACE_INDEX_H
#define LATENCY_SUBSPACE_INDEX_H

#include "group.h"
#include "triangulation.h"

typedef struct CmSubspaceIndex CmSubspaceIndex;

/// One candidate set: the points sharing the other-axis values.
typedef struct CmSubspaceSet CmSubspaceSet;

/// Returns the index of sealed `group` for the axes in `mask`, building it on
/// first use; NULL when out of memory.
const CmSubspaceIndex *cmGroupGetSubspaceIndex(CmGroup *group, unsigned mask);

/// Frees `index` and its triangulations; NULL is a no-op.
void cmSubspaceIndexDestroy(CmSubspaceIndex *index);

/// Returns the name of the index's subset, e.g. "2D (m,n)" (borrowed).
const char *cmSubspaceIndexGetName(const CmSubspaceIndex *index);

/// Returns the candidate set of `probe` (its other-axis values) or NULL.
const CmSubspaceSet *cmSubspaceIndexFind(const CmSubspaceIndex *index,
                                         const double *probe);

/// Returns how many points `set` holds.
size_t cmSubspaceSetGetSize(const CmSubspaceSet *set);

/// Returns the group point index of member `i` of `set`.
uint32_t cmSubspaceSetGetPoint(const CmSubspaceSet *set, size_t i);

/// Returns the triangulation of `set` when it is already built, else NULL;
/// never builds.
const CmTriangulation *cmSubspaceSetPeekTriangulation(const CmSubspaceSet *set);

/// Returns the triangulation of `set`, building it on first use under the
/// group's lock; NULL with the reason copied into `reason` when the set
/// cannot be triangulated (the failure is cached too).
const CmTriangulation *
cmSubspaceSetGetTriangulation(CmGroup *group, const CmSubspaceIndex *index,
                              const CmSubspaceSet *set, char *reason,
                              size_t reasonSize);

#endif /* LATENCY_SUBSPACE_INDEX_H */
