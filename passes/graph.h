/*===- graph.h - one function's ops and kernels, the stages' container
 *(internal) -===*
 *
 * A LatGraph holds the ops of one function body in program order, each with
 * its class (classify.c) and kernel (detect.c); each stage fills its part:
 * detect groups nodes into kernels, describe gives each kernel its type,
 * axes and work, estimate its latency, fusion_gain.c its fusion edges.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_GRAPH_H
#define LATENCY_GRAPH_H

#include "classify.h"

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include <stddef.h>
#include <stdint.h>

enum { LAT_MAX_FIELDS = 10 };

/// A buffer of this many bytes or more, allocated inside a kernel, is
/// mapped fresh and zero-filled on every call on a host whose C library
/// keeps glibc's default mmap threshold (128 KiB): its page faults cost
/// more than the kernel's arithmetic on it (docs/profiling.md, "Scratch
/// buffers"). Smaller ones come from a warm heap.
enum { LAT_FRESH_BUFFER_BYTES = 128 * 1024 };

/// A buffer of this many bytes or more is mapped anew on every call even
/// when glibc is left to its own thresholds: its mmap threshold rises as
/// mapped buffers are freed, to at most 32 MiB on 64-bit hosts
/// (DEFAULT_MMAP_THRESHOLD_MAX, mallopt(3)), so smaller buffers end up
/// served from a heap that keeps pages, and these only from a free chunk
/// the JIT left (LatGraph.warmHeapBytes; measured in docs/profiling.md, "A
/// whole run and its memory").
enum { LAT_ALWAYS_MAPPED_BYTES = 32 * 1024 * 1024 };

typedef struct {
  MlirOperation op;
  LatOpClass cls;
  const char *fuseClass; /* class the next op's rule is checked against */
  int kernel;            /* kernel index, -1 when in none               */
  int nextInKernel;      /* next member node, -1 at the end             */
  bool transparent;      /* folded view/transpose: not in the type name */
  bool constant;         /* computes only on constants: folded, no cost */
  int group;             /* multi-op pattern this op belongs to, or -1  */
  LatClassId groupClass; /* the pattern's class (attention, gelu, ...)  */
  bool groupHead;        /* first op of its group in program order      */
  int nextInGroup;       /* next member of the group, -1 at the end     */
  int block;             /* index of its block: fusion stays inside one */
  int scope;             /* the LatScope it runs in (0: the function)   */
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
  LAT_MISS_NO_DTYPE, /* a table, but no rows for its element type or
                        the policy's other regime keys            */
  LAT_MISS_OFF_GRID  /* rows, but the query is outside their range */
} LatTableMiss;

typedef struct {
  int root;           /* first node of the kernel                   */
  int last;           /* last member node                           */
  int numOps;         /* members                                    */
  char type[192];     /* classes joined with '+' (whole classes only) */
  bool typeCut;       /* type holds only the first classes that fit */
  int fieldsCut;      /* query fields beyond LAT_MAX_FIELDS, dropped */
  char dtype[24];     /* element type of the root's first operand   */
  char costDtype[24]; /* the type it is costed in (`precision=`) */
  char axes[160];     /* "m=.. n=.. k=.." and the like, for reports  */
  char loc[192];      /* root location                              */
  CmField fields[LAT_MAX_FIELDS];     /* the cost-model query fields */
  char fieldText[LAT_MAX_FIELDS][32]; /* their numeric values        */
  int numFields;
  bool isCall;                /* a func.call kernel, costed as its callee   */
  bool sizeOverflow;          /* a member's tensor has more elements than
                                 int64 counts: no estimate (unknown)       */
  MlirStringRef callee;       /* the called function (borrowed from the IR) */
  double flops, bytes;        /* work and boundary traffic                  */
  double scratchBytes;        /* buffers allocated inside, each of at least
                                 LAT_FRESH_BUFFER_BYTES (buffers.c)        */
  double warmScratchBytes;    /* of scratchBytes, those small enough to be
                                 carved from the warm heap (warmHeapBytes):
                                 no new pages in a whole run               */
  double epilogueElements;    /* elements its members besides the root
                                 write, each a loop nest (epilogue.c)      */
  int epiloguePasses;         /* those members                            */
  double padElements;         /* elements its explicit pads copy: a padded
                                 TOSA conv's input, a tensor.pad's or
                                 tosa.pad's source (describe.c)            */
  int accBits;                /* a matmul's or conv's accumulator width, the
                                 float its products sum in (describe.c);
                                 0: unknown or not a float                 */
  double freshResultBytes;    /* its results of that size another kernel
                                 reads and the function does not return
                                 (buffers.c; counted when charged,
                                 estimate.c)                               */
  double resultPagesUs;       /* of us: their pages, fresh per call of the
                                 function (estimate.c)                     */
  double residentBytes;       /* of bytes: read from tensors the call did not
                                 produce (arguments, constants: describe.c)  */
  const char *residentReader; /* class of the op reading most of them */
  double coldUs;         /* of us: reading those from memory (estimate.c) */
  double coldWriteBytes; /* of bytes: a column it writes that stays cached
                            alone, lost since the previous call
                            (cold_writes.c)                          */
  double coldWriteUs;    /* of us: writing those lines from memory    */
  double us;             /* the estimate, for one run                  */
  double count;          /* runs per call of the function (LatScope)   */
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
  double warmHeapBytes;  /* largest free heap chunk a whole run finds
                            (latModuleWarmHeapBytes); 0: none       */
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

/// True for a view or an op that only moves data (transpose, copy,
/// reshape, broadcast, pad, slice, concat).
bool latNodeIsDataMovement(const LatNode *n);

/// True for a node that anchors a kernel's work: an attention group, or a
/// costed op with no per-element flops in its class that is not data
/// movement (convs, matmuls, pools, reductions: what fusion builds around).
bool latNodeIsComputeAnchor(const LatNode *n);

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

#endif /* LATENCY_GRAPH_H */
