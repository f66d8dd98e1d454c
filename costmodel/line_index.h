/*===- line_index.h - 1D lines of a group along one axis (internal) --------===*
 *
 * A line along axis a is the set of points that agree on every other axis.
 * The index maps a tuple's other-axis values to its line, whose points are
 * sorted by their value on a, so a bracket is one hash probe and one binary
 * search.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_LINE_INDEX_H
#define LATENCY_LINE_INDEX_H

#include "group.h"

typedef struct {
  double x;       /* raw value on the line's axis         */
  double t;       /* transformed value (policy transform) */
  double y;       /* latency, us                          */
  uint32_t point; /* index into the group's points  */
} CmLinePoint;

typedef struct {
  const CmLinePoint *points; /* sorted by x; borrowed from the index */
  size_t count;              /* entries in points                    */
} CmLine1D;

typedef struct CmLineIndex CmLineIndex;

/// Returns the line index of sealed `group` along `axis`, building it on
/// first use; NULL when out of memory.
const CmLineIndex *cmGroupGetLineIndex(CmGroup *group, int axis);

/// Frees `index`; NULL is a no-op.
void cmLineIndexDestroy(CmLineIndex *index);

/// Returns the line through `probe` (its other-axis values), or an empty
/// line when no measured point agrees on all other axes.
CmLine1D cmLineIndexFind(const CmLineIndex *index, const double *probe);

/// Finds the nearest points strictly below and strictly above `x` on `line`;
/// returns false unless both exist.
bool cmLineBracket(CmLine1D line, double x, const CmLinePoint **below,
                   const CmLinePoint **above);

/// Finds the nearest point strictly below (`*below`) and strictly above
/// (`*above`) `x`, each NULL when absent.
void cmLineNeighbours(CmLine1D line, double x, const CmLinePoint **below,
                      const CmLinePoint **above);

#endif /* LATENCY_LINE_INDEX_H */
