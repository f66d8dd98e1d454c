/*===- shapes.h - the distinct kernel shapes of a set of models -----------===*
 *
 * A shape is what a profile row is keyed by: the kernel type and the
 * fields the pass queries the cost model with (regime keys and axes). Two
 * kernels of the same shape are measured once. Kernels are found exactly
 * as annotate-latency finds them (passes/graph.h), with the fusion rules
 * of the profile being written (or validated).
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_SHAPES_H
#define LATENCY_PROFILE_SHAPES_H

#include "graph.h"
#include "measure.h"
#include "mlir_host.h"

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

/// One distinct kernel shape and its measurement.
typedef struct {
  char key[700];                   /* type;name=value;...        */
  char type[192];                  /* kernel type name           */
  int numFields;                   /* query fields               */
  char names[LAT_MAX_FIELDS][24];  /* field names, pass order    */
  char values[LAT_MAX_FIELDS][32]; /* field values as queried    */
  char axes[160];                  /* the pass's axes text       */
  char model[256];                 /* first model it was seen in */
  char loc[192];                   /* its root op's location     */
  char file[1024];                 /* the cut-out module, or ""  */
  double flops, bytes;             /* work and boundary traffic, as described */
  double scratchBytes;             /* its buffers mapped fresh per call       */
  double epilogueElements;         /* written by its members besides the root */
  int epiloguePasses;              /* those members (passes/epilogue.h)       */
  int accBits;                     /* accumulator bits (describe.c), 0: none */
  int uses;                        /* kernels with this shape    */
  bool skipped;                    /* not measured: see error    */
  LpMeasurement result;            /* the measurement            */
} LpShape;

typedef struct {
  LpShape *items;
  size_t count, capacity;
} LpShapeSet;

/// Builds the kernels of function `func` into `*graph` as annotate-latency
/// does with a profile of pipeline `passes` (every argument an input,
/// fusion by `rules`, constant work kept as kernels unless `passes` folds
/// it) and describes them; false when out of memory. Release with
/// latGraphFree.
bool lpDetectKernels(MlirOperation func, CmProfile rules, const char *passes,
                     LatGraph *graph);

/// Returns the index in `set` of the shape of kernel `k` of `graph`,
/// adding it when new: its cut-out is written under `kernelDir` (a shape
/// that cannot be cut out or has nothing to look up is added `skipped`,
/// with the reason). -1 when out of memory.
int lpShapeSetAdd(LpShapeSet *set, LpHost *host, const LatGraph *graph, int k,
                  const char *model, const char *kernelDir);

/// Adds the kernels of every function of the model at `path`; false with
/// the reason in `err` when it does not parse.
bool lpShapeSetAddModel(LpShapeSet *set, LpHost *host, CmProfile rules,
                        const char *passes, const char *path,
                        const char *kernelDir, char *err, size_t size);

/// Returns the value of field `name` of `shape`, or NULL.
const char *lpShapeField(const LpShape *shape, const char *name);

/// True when `shape` is a channels-last conv (its `channels_last` field is
/// 1: passes/describe.c).
bool lpChannelsLast(const LpShape *shape);

/// True when `shape` is a matmul that transposes its weight on every call
/// (its `weight_transposed` field is 1: passes/describe.c).
bool lpTransposesWeight(const LpShape *shape);

/// Returns the value of `shape`'s field `name` as a finite number, or NAN
/// when it has no such field or the value is not one.
double lpShapeNumber(const LpShape *shape, const char *name);

/// lpShapeNumber of the LpShape `shape`, as the cost model's CmValueFn asks
/// (cmReductionPerOutput).
double lpShapeValue(const void *shape, const char *name);

/// Returns true when field `name` (value `value`) is a regime key of its
/// table: matched exactly, never interpolated (element types, stride,
/// window, head_dim, kv_heads, groups, any text); other fields are axes.
bool lpIsRegimeField(const char *name, const char *value);

/// Returns true when `a` and `b` agree on every regime key.
bool lpSameRegime(const LpShape *a, const LpShape *b);

/// True when no shape before `i` in `set` has shape `i`'s kernel type.
bool lpFirstOfType(const LpShapeSet *set, size_t i);

/// True when kernel type `type` is in `scope`: the type itself, or a family
/// holding it (<anchor>+*, cmKernelFamily: conv2d+* holds conv2d and every
/// conv2d+...).
bool lpInScope(const char *scope, const char *type);

/// True when shape `i` of `set` is the first of its family with a fused
/// type (one with a '+'), its family written into `family` (`size` bytes,
/// CM_KERNEL_FAMILY_SIZE):
/// a family is fitted once, and only where a type without a table of its
/// own could be one of its siblings.
bool lpFirstOfFamily(const LpShapeSet *set, size_t i, char *family,
                     size_t size);

/// Releases what `set` owns.
void lpShapeSetFree(LpShapeSet *set);

#endif /* LATENCY_PROFILE_SHAPES_H */
