/*===- annotate_pass.c - the annotate-latency pass entry point -------------===*
 *
 * Foundation stage: marks every function with an honest placeholder so the
 * plugin plumbing can be tested end to end. Later stages replace this.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/passes.h"

#include "mlir-c/BuiltinAttributes.h"

#include <string.h>

static void markPlaceholder(MlirOperation op, void *userData) {
  (void)userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != 9 || memcmp(name.data, "func.func", 9) != 0)
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString("latency.placeholder"),
      mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                 "no estimate yet (foundation stage)")));
}

static MlirWalkResult walkMark(MlirOperation op, void *userData) {
  markPlaceholder(op, userData);
  return MlirWalkResultAdvance;
}

MlirLogicalResult latAnnotateLatency(MlirOperation module,
                                     const LatAnnotateOptions *options) {
  (void)options;
  mlirOperationWalk(module, walkMark, NULL, MlirWalkPreOrder);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult latDetectFusionKernels(MlirOperation module,
                                         const char *profile,
                                         const char *rules) {
  (void)module;
  (void)profile;
  (void)rules;
  return mlirLogicalResultSuccess();
}
