/*===- constants.c - give elided weights random values --------------------===*
 *
 * Exporters often print models with their weights elided; such a model
 * parses but cannot be translated to LLVM. The replacement is an ordinary
 * dense constant (not a resource) so that the pipeline folds constant work
 * on it (transposed weights, batch-norm statistics) as it would on the real
 * weights.
 *
 *===----------------------------------------------------------------------===*/
#include "constants.h"

#include "buffers.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  uint64_t *seed;
  long replaced;
  bool failed;
  char *err;
  size_t errSize;
} Randomizer;

static void printInto(MlirStringRef text, void *userData) {
  char *out = userData; /* 64 bytes: only the start matters */
  size_t used = strlen(out);
  size_t n = text.length < 63 - used ? text.length : 63 - used;
  memcpy(out + used, text.data, n);
  out[used + n] = '\0';
}

static bool isElided(MlirAttribute attr) {
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsADenseResourceElements(attr))
    return false;
  char text[64] = "";
  mlirAttributePrint(attr, printInto, text);
  return strstr(text, "__elided__") != NULL;
}

static bool replaceOne(Randomizer *r, MlirOperation op, const char *name,
                       MlirAttribute attr) {
  MlirType type = mlirAttributeGetType(attr);
  LpBuffer buffer;
  char why[128];
  if (!lpBufferFromType(type, &buffer, why, sizeof why)) {
    snprintf(r->err, r->errSize, "elided constant: %s", why);
    return false;
  }
  size_t count = lpBufferElements(&buffer);
  size_t bytes = count * buffer.elementBytes;
  void *data = malloc(bytes ? bytes : 1);
  if (!data) {
    snprintf(r->err, r->errSize, "out of memory for an elided constant");
    return false;
  }
  lpFillRandom(data, count, buffer.kind, buffer.elementBytes,
               buffer.isIndexLike, r->seed);
  MlirAttribute dense = mlirDenseElementsAttrRawBufferGet(type, bytes, data);
  free(data);
  if (mlirAttributeIsNull(dense)) {
    snprintf(r->err, r->errSize, "elided constant: cannot build its values");
    return false;
  }
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name),
                                  dense);
  r->replaced++;
  return true;
}

static MlirWalkResult visit(MlirOperation op, void *userData) {
  Randomizer *r = userData;
  static const char *const names[] = {"value", "values"};
  for (int i = 0; i < 2; i++) {
    MlirAttribute attr = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString(names[i]));
    if (isElided(attr) && !replaceOne(r, op, names[i], attr)) {
      r->failed = true;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

long lpRandomizeElidedConstants(MlirModule module, uint64_t *seed, char *err,
                                size_t size) {
  Randomizer r = {seed, 0, false, err, size};
  mlirOperationWalk(mlirModuleGetOperation(module), visit, &r,
                    MlirWalkPreOrder);
  return r.failed ? -1 : r.replaced;
}
