/*===- graph.h - one function's ops, grouped into kernels (internal) -------===*
 *
 * A LatGraph holds the ops of one function body in program order, each with
 * its class and kernel. Kernels are detected with nn-Meter semantics: an op
 * joins its producer's kernel when the rule (producer class, consumer class)
 * exists and the producer has no other user. Views (reshapes) and folded
 * transposes are transparent: the op after them is matched against the
 * class before them. A multi-op pattern (patterns.c) is one unit: its ops
 * join or start a kernel together, under the pattern's class. Transposes in
 * front of a compute op fold into its kernel when the rule (transpose, its
 * class) exists, also transparently.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_GRAPH_H
#define LATENCY_GRAPH_H

#include "op_class.h"

#include "latency/costmodel.h"

#include <stddef.h>
#include <stdint.h>

enum { LAT_MAX_FIELDS = 10 };

typedef struct {
  MlirOperation op;
  LatOpClass cls;
  const char *fuseClass;  /* class the next op's rule is checked against */
  int kernel;             /* kernel index, -1 when in none               */
  int nextInKernel;       /* next member node, -1 at the end             */
  bool transparent;       /* folded view/transpose: not in the type name */
  bool constant;          /* computes only on constants: folded, no cost */
  int group;              /* multi-op pattern this op belongs to, or -1  */
  const char *groupClass; /* the pattern's class (attention, gelu, ...)  */
  bool groupHead;         /* first op of its group in program order      */
  int nextInGroup;        /* next member of the group, -1 at the end     */
  int block;              /* index of its block: fusion stays inside one */
  int scope;              /* the LatScope it runs in (0: the function)   */
} LatNode;

/// Where ops run: the function body (scope 0) or a region of a control-flow
/// op inside it (an scf.for body, a branch of an scf.if, ...). A kernel runs
/// `trips` times per run of its parent scope; the branches of one scf.if or
/// scf.index_switch share `choice` (the first branch's scope index) and only
/// the costliest counts (control_flow.c).
typedef struct {
  MlirOperation op; /* the control-flow op; null for scope 0     */
  int parent;       /* enclosing scope, -1 for scope 0           */
  double trips;     /* runs per run of the parent scope          */
  int choice;       /* first branch's scope, or -1: not a branch */
  bool counted;     /* false: a branch that costs less than another */
  double count;     /* runs per call of the function (resolved)  */
} LatScope;

/// Which function arguments change per inference (`inputs=`): every other
/// tensor argument is a weight, and ops on weights and constants only fold.
/// What folds is the compiler's business: a profile measured through a
/// pipeline that runs constant work on every call says so in device.csv
/// (`fold_constants` 0, `fold_constants.<dialect>` 1 for a dialect whose
/// constant work it does fold), and such ops stay kernels.
typedef struct {
  const int64_t *indices; /* argument indices                   */
  size_t count;
  bool given;                  /* false: every argument is an input */
  bool constantWorkRuns;       /* fold_constants = 0                */
  const char *foldingDialects; /* "tosa,..." folded all the same, or NULL */
} LatInputs;

/// Why a kernel was answered by the roofline, not a table.
typedef enum {
  LAT_MISS_NONE,     /* a table answered (or a call)              */
  LAT_MISS_NO_TABLE, /* the profile has no table for its class     */
  LAT_MISS_NO_DTYPE, /* a table, but no rows at its element type   */
  LAT_MISS_OFF_GRID  /* rows, but the query is outside their range */
} LatTableMiss;

typedef struct {
  int root;           /* first node of the kernel                   */
  int last;           /* last member node                           */
  int numOps;         /* members                                    */
  char type[192];     /* classes joined with '+'                    */
  char dtype[24];     /* element type of the root's first operand   */
  char costDtype[24]; /* the type it is costed in (`precision=`) */
  char axes[160];     /* "m=.. n=.. k=.." and the like, for reports  */
  char loc[192];      /* root location                              */
  CmField fields[LAT_MAX_FIELDS];     /* the cost-model query fields */
  char fieldText[LAT_MAX_FIELDS][32]; /* their numeric values        */
  int numFields;
  bool isCall;          /* a func.call kernel, costed as its callee   */
  MlirStringRef callee; /* the called function (borrowed from the IR) */
  double flops, bytes;  /* work and boundary traffic                  */
  double us;            /* the estimate, for one run                  */
  double count;         /* runs per call of the function (LatScope)   */
  double confidence;
  CmSource source;
  CmMethod method;
  CmBound bound;
  bool implicitGemm; /* a conv answered from GEMM tables */
  LatTableMiss miss; /* why no table answered a roofline kernel */
} LatKernel;

/// A producer -> consumer edge a fusion could merge, and what merging
/// gains (fusion_gain.c). Inside a fused kernel producer == consumer and
/// `at` names the consumer unit the kernel would be cut before.
typedef struct {
  int consumer, producer; /* kernel ids                                 */
  double fusedUs;         /* the merged kernel's estimate               */
  double unfusedUs;       /* the two kernels' estimates, added          */
  double gainUs;          /* unfusedUs - fusedUs                        */
  const char *why;        /* "fused", "rule", "second user", "no rule"  */
  char at[48];            /* fused edges: the class cut before, or ""   */
} LatFusionEdge;

typedef struct {
  LatNode *nodes;
  size_t numNodes;
  size_t capacity; /* of nodes */
  LatKernel *kernels;
  size_t numKernels;
  size_t numGroups; /* multi-op patterns found (patterns.c)    */
  LatScope *scopes; /* scope 0 is the function body            */
  size_t numScopes;
  size_t numBlocks;
  size_t foldedOps;     /* costed ops folded on constants / weights */
  MlirBlock entry;      /* the function's entry block               */
  bool quiet;           /* no diagnostics: a second look at a body  */
  LatFusionEdge *edges; /* fusion_gain.c, after the estimates      */
  size_t numEdges;
  LatInputs inputs;      /* borrowed from the pass options           */
  const char *precision; /* float kernels are costed in it, or NULL */
  double precisionBytes; /* bytes per element of `precision`       */
  void **slotKeys;       /* op pointer -> node index, open addressing */
  int *slotValues;
  size_t numSlots;
} LatGraph;

/// Fills `graph` with the ops of the function region `body` (every block,
/// and the regions of control-flow ops inside it, control_flow.c) and their
/// classes; ops that compute only on constants (and, with `inputs` given,
/// weights) are marked constant and skipped (every compiler folds them
/// before a device runs anything). `quiet`: no diagnostics (a body built a
/// second time). Returns false when out of memory.
bool latGraphBuild(MlirRegion body, const LatInputs *inputs, bool quiet,
                   LatGraph *graph);

/// Appends `op` as a node of `block` in `scope`; false when out of memory.
bool latGraphAddNode(LatGraph *graph, MlirOperation op, int block, int scope);

/// Appends a scope; returns its index, or -1 when out of memory.
int latGraphAddScope(LatGraph *graph, LatScope scope);

/// Collects the ops of `body` into `graph` with their blocks and scopes:
/// every block of the region, and the regions of scf ops (loop bodies with
/// their static trip counts, both branches of an scf.if); warns at an op
/// whose regions are not walked or whose trip count is not static. False
/// when out of memory.
bool latGraphCollect(LatGraph *graph, MlirRegion body);

/// Resolves how often each kernel runs per call (`count`): loop trips
/// multiplied down the scopes, and of the branches of an scf.if the
/// costliest by its kernels' estimates (a remark at the op says which).
/// Call after the estimates are known.
void latGraphResolveCounts(LatGraph *graph);

/// Frees what `graph` owns.
void latGraphFree(LatGraph *graph);

/// Returns the node index of `op`, or -1 when it is not in the graph.
int latGraphFind(const LatGraph *graph, MlirOperation op);

/// Returns the node producing `value`, or -1 for a block argument or an op
/// outside the graph.
int latGraphValueProducer(const LatGraph *graph, MlirValue value);

/// Returns the node producing operand `i` of node `n` in the same block, or
/// -1 (a block argument, an op outside the graph or in another block: a
/// kernel never spans blocks).
int latGraphProducerOf(const LatGraph *graph, int n, intptr_t i);

/// Returns true when `accept(graph, user, context)` holds for every use of
/// node `n`'s results (stopping at the first that does not); `user` is the
/// using node, or -1 for an op outside the graph or in another block.
bool latGraphAllUsers(const LatGraph *graph, int n,
                      bool (*accept)(const LatGraph *graph, int user,
                                     void *context),
                      void *context);

/// Groups the costed ops into kernels; with `fusion` false every costed op
/// is its own kernel. `rules` answers whether (producer, consumer) fuses.
bool latGraphDetect(LatGraph *graph, bool fusion,
                    bool (*rules)(void *ctx, const char *producer,
                                  const char *consumer),
                    void *ctx);

/// The class a fusion rule sees for node `n` as a consumer: its pattern's,
/// or for a folded layout op the class of its kernel's root.
const char *latGraphConsumerClass(const LatGraph *graph, int n);

/// Drops the kernels left empty (numOps 0) and renumbers the rest, in
/// order.
void latGraphCompactKernels(LatGraph *graph);

/// The method shown for kernel `k`: the cost model's, or "call" for a call
/// kernel (costed as the sum of its callee's kernels).
const char *latKernelMethodName(const LatKernel *k);

/// Describes kernel `kernel` of `graph` (see latGraphDescribe); warns only
/// when `warn` is set (a kernel the fusion analysis imagines stays silent).
void latKernelDescribe(LatGraph *graph, int kernel, bool warn);

/// Clears `k`'s estimate: unknown, no time.
void latKernelSetUnknown(LatKernel *k);

/// Asks the cost model for described kernel `k` and keeps the answer and
/// its provenance on it; false (k unknown) when no tier answers. Emits no
/// diagnostics.
bool latKernelEstimate(CmProfile profile, const CmOptions *options,
                       LatKernel *k);

/// What the fusion analysis needs: the cost model and the fusion rules.
typedef struct {
  CmProfile profile;
  const CmOptions *options;
  bool (*rules)(void *context, const char *producer, const char *consumer);
  void *rulesContext;
} LatFusionContext;

/// Fills `graph->edges` with every fusion edge of the estimated graph and
/// its gain; false when out of memory. The graph is unchanged otherwise.
bool latFusionAnalyze(const LatFusionContext *context, LatGraph *graph);

/// Returns the estimate of kernels `producer` and `consumer` merged (the
/// graph unchanged), or -1 when the cost model cannot answer.
double latFusionMergedUs(const LatFusionContext *context, LatGraph *graph,
                         int producer, int consumer);

/// Returns the kernel producing operand `o` of node `n`, looking through
/// views that are in no kernel; -1 when none does.
int latFusionProducerKernel(const LatGraph *graph, int n, intptr_t o);

/// Returns true when kernels `producer` and `consumer` may merge: both
/// estimated, neither a call, not both rooted at a conv, matmul, attention
/// or pool (no rule set fuses two of those).
bool latFusionCanMerge(const LatGraph *graph, int producer, int consumer);

/// Moves kernel `absorb`'s members into kernel `keep` (the chain of the one
/// rooted at a conv, matmul, attention or pool first) and leaves `absorb`
/// empty; `nodes` is scratch space for `graph->numNodes` entries.
void latFusionJoinKernels(LatGraph *graph, int keep, int absorb, int *nodes);

/// Merges the kernels of the estimated `graph` (usually single-op kernels)
/// greedily, as priority fusion does: the producer -> consumer merge with
/// the largest estimated gain first, while the merge pays (gain > 0) and is
/// legal (no cycle through a third kernel; values used outside stay
/// materialised, which the boundary bytes count). Leaves every kernel
/// described and estimated. False when out of memory.
bool latFusionGreedy(const LatFusionContext *context, LatGraph *graph);

/// Totals of one function under three partitions, for fusion=greedy.
typedef struct {
  double singleOpUs; /* fusion=false: where greedy starts        */
  size_t singleOpKernels;
  double greedyUs; /* the greedy partition                      */
  double rulesUs;  /* the profile's fusion rules (the default)  */
  size_t rulesKernels;
} LatPartitionComparison;

/// fusion=greedy for `graph` (built from `body`, detected with fusion off,
/// described, tables loaded): estimates it, merges greedily, describes the
/// result, and prices the rule-based partition of the same body beside it
/// into `*out`. False when out of memory.
bool latGreedyPartition(const LatFusionContext *context, LatGraph *graph,
                        MlirRegion body, LatPartitionComparison *out);

/// Describes every kernel: type name, dtype, axes, flops, boundary bytes,
/// and the cost-model query fields; warns at op locations about dynamic
/// shapes, overflowing sizes, unsupported dtypes and unknown ops.
void latGraphDescribe(LatGraph *graph);

#endif /* LATENCY_GRAPH_H */
