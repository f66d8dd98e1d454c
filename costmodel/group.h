/*===- group.h - measured points of one kernel and regime (internal) -------===*
 *
 * A group holds every measured point of one kernel type under one set of
 * regime values: the candidates of any interpolation. Rows are appended while
 * loading; on first use the group is "sealed": duplicates are averaged and
 * the exact index is built. Line and subspace indexes are built on the first
 * query that needs them. For a large group the seal and each index come
 * from the on-disk cache when it has them (index_cache.h), mapped in place.
 * Each lazy step runs once under the group's lock and is published with a
 * release store, so readers need no lock.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_GROUP_H
#define LATENCY_GROUP_H

#include "latency/costmodel.h"

#include "policy.h"
#include "tuple_hash.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

struct CmLineIndex;
struct CmSubspaceIndex;

/* Subsets of axes for 2D and 3D interpolation, as bit masks over axes. */
enum { CM_MAX_SUBSPACES = 1 << CM_MAX_AXES };

typedef struct CmGroup {
  const CmPolicy *policy; /* borrowed from the profile's policy set      */
  char *kernel;           /* kernel type of the rows                     */
  char *regimeKey;        /* canonical regime values, '\x1f'-joined      */
  int dim;                /* policy->numAxes                             */
  size_t numRows;         /* rows appended (valid latency)               */
  size_t capacity;        /* rows allocated                              */
  double *x;              /* numRows * dim raw axis values; after seal:  */
                          /*   numPoints * dim, duplicates merged        */
  double *y;              /* latency, us (mean of duplicates after seal) */
  double *tx;             /* after seal: transformed axis values         */
  size_t numDropped;      /* rows dropped for a bad latency              */
  size_t numPoints;       /* distinct points after seal                  */
  size_t numAggregated;   /* rows merged into another row's mean         */
  CmTupleHash exact;      /* after seal: all axes -> point               */
  bool uncached;          /* rows filtered out: no index cache entries   */
  uint64_t cacheKey;      /* after seal: index cache key, 0: none        */
  void *sealMap;          /* mapped seal entry x, y, tx and the exact    */
  size_t sealMapSize;     /*   slots borrow from; NULL when built        */
  pthread_mutex_t lock;   /* serialises lazy builds                      */
  atomic_bool sealed;     /* set once, after the seal                    */
  _Atomic(struct CmLineIndex *) lines[CM_MAX_AXES]; /* per axis, lazy     */
  _Atomic(struct CmSubspaceIndex *) subspaces[CM_MAX_SUBSPACES]; /* mask  */
} CmGroup;

typedef struct {
  CmGroup **items; /* owned groups                            */
  size_t count;    /* entries in items                        */
  size_t capacity; /* allocated entries                       */
  uint32_t *slots; /* open addressing by kernel + regime key  */
  size_t numSlots; /* power of two                            */
} CmGroupSet;

/// Returns the group of (`kernel`, `regimeKey`), creating it with `policy`
/// when `create` is set; NULL when absent (or out of memory when creating).
CmGroup *cmGroupSetFind(CmGroupSet *set, const char *kernel,
                        const char *regimeKey, const CmPolicy *policy,
                        bool create);

/// Frees every group and the set's arrays.
void cmGroupSetFree(CmGroupSet *set);

/// Appends one measured row (raw axis values `x`, latency `y`) to `group`.
CmStatus cmGroupAppend(CmGroup *group, const double *x, double y);

/// Appends `numRows` rows (`numRows` * dim raw axis values `x`, latencies
/// `y`) to `group` at once, as that many cmGroupAppend calls would.
CmStatus cmGroupAppendRows(CmGroup *group, const void *x, const void *y,
                           size_t numRows);

/// Seals `group` once (averages duplicates, builds the exact index and the
/// transformed coordinates); returns false when out of memory.
bool cmGroupSeal(CmGroup *group);

/// Returns the point index whose axes equal `x` exactly, or -1.
long cmGroupFindExact(const CmGroup *group, const double *x);

#endif /* LATENCY_GROUP_H */
