/*===- cutout.c - one kernel of a model as a function of its own ----------===*
 *
 * Values map from the model to the cut-out through one table: an operand
 * is looked up there, else its producer is cloned in (init tensors,
 * scalars, small constants: what the lowering needs to see constant), else
 * it becomes a new block argument. Member ops are cloned in program order
 * and the operands of every op inside a clone (region bodies may read
 * values from outside too) are rewired through the table. Invariant: the
 * model's IR is never modified; clones are built in a detached block.
 *
 *===----------------------------------------------------------------------===*/
#include "cutout.h"

#include "ir_util.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxCloneDepth = 32,   /* producers cloned in behind one operand   */
  kSmallConstant = 4096, /* elements of a constant that stays inline */
  kMaxResults = 64       /* results a cut-out returns                */
};

typedef struct {
  const LatGraph *g;
  int kernel;
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirValue *from, *to; /* the value table */
  size_t numValues, capacity;
  bool failed;
  char *err;
  size_t errSize;
} Cutout;

static bool addMapping(Cutout *c, MlirValue from, MlirValue to) {
  if (c->numValues == c->capacity) {
    size_t capacity = c->capacity ? 2 * c->capacity : 64;
    MlirValue *f = realloc(c->from, capacity * sizeof *f);
    if (f)
      c->from = f;
    MlirValue *t = f ? realloc(c->to, capacity * sizeof *t) : NULL;
    if (!t) {
      snprintf(c->err, c->errSize, "out of memory");
      return false;
    }
    c->to = t;
    c->capacity = capacity;
  }
  c->from[c->numValues] = from;
  c->to[c->numValues++] = to;
  return true;
}

static MlirValue lookup(const Cutout *c, MlirValue v) {
  for (size_t i = c->numValues; i-- > 0;)
    if (mlirValueEqual(c->from[i], v))
      return c->to[i];
  return (MlirValue){NULL};
}

/* True when `op` is `ancestor` or nested in one of its regions. */
static bool isWithin(MlirOperation ancestor, MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, ancestor))
      return true;
  return false;
}

/* True when `v` is defined in the regions of `op`. */
static bool definedInside(MlirOperation op, MlirValue v) {
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation parent =
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    return isWithin(op, parent);
  }
  MlirOperation producer = mlirOpResultGetOwner(v);
  return !mlirOperationEqual(producer, op) && isWithin(op, producer);
}

/* True when the op owning a use (or the op around it) is a member. */
static bool usedByMember(const Cutout *c, MlirOperation user) {
  for (; !mlirOperationIsNull(user);
       user = mlirOperationGetParentOperation(user)) {
    int n = latGraphFind(c->g, user);
    if (n >= 0)
      return c->g->nodes[n].kernel == c->kernel;
  }
  return false;
}

static bool isStaticTensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

/* A constant the lowering may need to see (shapes, zero points, fill
 * values, splats) or that is too small to matter is cloned; a weight is
 * not: its data may be elided, and its value must stay unknown. */
static bool isInlineConstant(MlirOperation op) {
  if (!latOpIs(op, "arith.constant") && !latOpIs(op, "tosa.const") &&
      !latOpIs(op, "tosa.const_shape"))
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsAShaped(t))
    return true;
  MlirAttribute value = latConstantValue(mlirOperationGetResult(op, 0));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value))
    return false;
  return mlirDenseElementsAttrIsSplat(value) ||
         mlirElementsAttrGetNumElements(value) <= kSmallConstant;
}

/* An op cloned in behind an operand rather than passed as an argument. */
static bool isClonedProducer(MlirOperation op) {
  if (latIsInitProducer(op) || isInlineConstant(op))
    return true;
  if (mlirOperationGetNumRegions(op) > 0)
    return false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, r))))
      return false;
  return mlirOperationGetNumResults(op) > 0; /* scalar arithmetic */
}

static MlirValue resolve(Cutout *c, MlirValue v, int depth);

/* Clones `op` into the cut-out (its operands resolved first; no regions
 * read from outside: init producers and constants only) and maps its
 * results. */
static bool cloneProducer(Cutout *c, MlirOperation op, int depth) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirValueIsNull(resolve(c, mlirOperationGetOperand(op, i), depth + 1)))
      return false;
  MlirOperation clone = mlirOperationClone(op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(clone); i++)
    mlirOperationSetOperand(clone, i,
                            lookup(c, mlirOperationGetOperand(clone, i)));
  mlirBlockAppendOwnedOperation(c->block, clone);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    if (!addMapping(c, mlirOperationGetResult(op, r),
                    mlirOperationGetResult(clone, r)))
      return false;
  return true;
}

static void describeType(MlirStringRef text, void *userData) {
  char *out = userData; /* 96 bytes */
  size_t used = strlen(out);
  size_t n = text.length < 95 - used ? text.length : 95 - used;
  memcpy(out + used, text.data, n);
  out[used + n] = '\0';
}

/* The cut-out's value for the model's value `v`; null (and c->failed)
 * when it can be neither cloned nor passed. */
static MlirValue resolve(Cutout *c, MlirValue v, int depth) {
  MlirValue mapped = lookup(c, v);
  if (!mlirValueIsNull(mapped) || c->failed)
    return mapped;
  MlirOperation producer = latProducer(v);
  MlirType type = mlirValueGetType(v);
  if (!mlirOperationIsNull(producer) && depth < kMaxCloneDepth &&
      isClonedProducer(producer)) {
    if (cloneProducer(c, producer, depth))
      return lookup(c, v);
  } else if (isStaticTensor(type)) {
    MlirValue arg = mlirBlockAddArgument(c->block, type, c->loc);
    if (addMapping(c, v, arg))
      return arg;
  } else if (!c->failed) {
    char text[96] = "";
    mlirTypePrint(type, describeType, text);
    snprintf(c->err, c->errSize, "reads a value of type %s from outside", text);
  }
  c->failed = true;
  return (MlirValue){NULL};
}

typedef struct {
  Cutout *c;
  MlirOperation member;
} OperandScan;

/* Resolves every operand of an op inside a member read from outside it. */
static MlirWalkResult resolveOperands(MlirOperation op, void *userData) {
  OperandScan *scan = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!definedInside(scan->member, v) &&
        mlirValueIsNull(resolve(scan->c, v, 0)))
      return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Rewires the operands of an op inside a clone through the table. */
static MlirWalkResult rewire(MlirOperation op, void *userData) {
  Cutout *c = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue mapped = lookup(c, mlirOperationGetOperand(op, i));
    if (!mlirValueIsNull(mapped))
      mlirOperationSetOperand(op, i, mapped);
  }
  return MlirWalkResultAdvance;
}

static bool cloneMember(Cutout *c, MlirOperation member) {
  OperandScan scan = {c, member};
  mlirOperationWalk(member, resolveOperands, &scan, MlirWalkPreOrder);
  if (c->failed)
    return false;
  MlirOperation clone = mlirOperationClone(member);
  mlirOperationWalk(clone, rewire, c, MlirWalkPreOrder);
  mlirBlockAppendOwnedOperation(c->block, clone);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(member); r++)
    if (!addMapping(c, mlirOperationGetResult(member, r),
                    mlirOperationGetResult(clone, r)))
      return false;
  return true;
}

/* True when a result of member `op` is read outside the kernel. */
static bool escapes(const Cutout *c, MlirValue v) {
  for (MlirOpOperand u = latFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!usedByMember(c, mlirOpOperandGetOwner(u)))
      return true;
  return false;
}

/* Collects the cut-out's results: member results read outside the kernel
 * (tensors only), else the last member's tensor results. */
static int collectResults(const Cutout *c, MlirValue *out) {
  int n = 0, last = -1;
  for (size_t i = 0; i < c->g->numNodes; i++) {
    if (c->g->nodes[i].kernel != c->kernel)
      continue;
    last = (int)i;
    MlirOperation op = c->g->nodes[i].op;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (n < kMaxResults && isStaticTensor(mlirValueGetType(v)) &&
          escapes(c, v))
        out[n++] = lookup(c, v);
    }
  }
  MlirOperation op = last >= 0 ? c->g->nodes[last].op : (MlirOperation){NULL};
  for (intptr_t r = 0; n == 0 && last >= 0 &&
                       r < mlirOperationGetNumResults(op) && r < kMaxResults;
       r++)
    if (isStaticTensor(mlirValueGetType(mlirOperationGetResult(op, r))))
      out[n++] = lookup(c, mlirOperationGetResult(op, r));
  return n;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), value);
}

/* Appends the return and wraps the block into func.func @kernel. */
static MlirOperation finishFunction(Cutout *c, MlirValue *results, int n) {
  MlirOperationState ret = mlirOperationStateGet(
      mlirStringRefCreateFromCString("func.return"), c->loc);
  mlirOperationStateAddOperands(&ret, n, results);
  mlirBlockAppendOwnedOperation(c->block, mlirOperationCreate(&ret));
  intptr_t numArgs = mlirBlockGetNumArguments(c->block);
  MlirType *inputs = calloc((size_t)numArgs + 1, sizeof *inputs);
  MlirType outputs[kMaxResults];
  if (!inputs)
    return (MlirOperation){NULL};
  for (intptr_t i = 0; i < numArgs; i++)
    inputs[i] = mlirValueGetType(mlirBlockGetArgument(c->block, i));
  for (int i = 0; i < n; i++)
    outputs[i] = mlirValueGetType(results[i]);
  MlirType type = mlirFunctionTypeGet(c->ctx, numArgs, inputs, n, outputs);
  free(inputs);
  MlirNamedAttribute attrs[] = {
      named(
          c->ctx, "sym_name",
          mlirStringAttrGet(c->ctx, mlirStringRefCreateFromCString("kernel"))),
      named(c->ctx, "function_type", mlirTypeAttrGet(type))};
  MlirOperationState func = mlirOperationStateGet(
      mlirStringRefCreateFromCString("func.func"), c->loc);
  mlirOperationStateAddAttributes(&func, 2, attrs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, c->block);
  mlirOperationStateAddOwnedRegions(&func, 1, &body);
  return mlirOperationCreate(&func);
}

/* Clones the members into c->block; false with c->err set on failure. */
static bool cloneMembers(Cutout *c) {
  for (size_t i = 0; i < c->g->numNodes; i++)
    if (c->g->nodes[i].kernel == c->kernel &&
        !cloneMember(c, c->g->nodes[i].op))
      return false;
  return true;
}

static bool verifyAndWrite(LpHost *host, MlirModule module, const char *path,
                           char *err, size_t size) {
  lpHostClearErrors(host);
  if (!mlirOperationVerify(mlirModuleGetOperation(module))) {
    snprintf(err, size, "the cut-out does not verify: %s", host->errors);
    return false;
  }
  return lpWriteOperation(mlirModuleGetOperation(module), path, false, err,
                          size);
}

bool lpCutoutWrite(LpHost *host, const LatGraph *g, int kernel,
                   const char *path, char *err, size_t size) {
  MlirOperation root = g->nodes[g->kernels[kernel].root].op;
  Cutout c;
  memset(&c, 0, sizeof c);
  c.g = g;
  c.kernel = kernel;
  c.ctx = mlirOperationGetContext(root);
  c.loc = mlirOperationGetLocation(root);
  c.block = mlirBlockCreate(0, NULL, NULL);
  c.err = err;
  c.errSize = size;
  MlirValue results[kMaxResults];
  bool ok = cloneMembers(&c);
  int numResults = ok ? collectResults(&c, results) : 0;
  if (ok && numResults == 0) {
    snprintf(err, size, "the kernel has no statically shaped tensor result");
    ok = false;
  }
  MlirOperation func =
      ok ? finishFunction(&c, results, numResults) : (MlirOperation){NULL};
  free(c.from);
  free(c.to);
  if (mlirOperationIsNull(func)) {
    mlirBlockDestroy(c.block);
    return false;
  }
  MlirModule module = mlirModuleCreateEmpty(c.loc);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), func);
  ok = verifyAndWrite(host, module, path, err, size);
  mlirModuleDestroy(module);
  return ok;
}
