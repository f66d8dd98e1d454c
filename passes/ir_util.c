/*===- ir_util.c - small helpers over the MLIR C API ----------------------===*/
#include "ir_util.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include "latency/costmodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

MlirValue latOperand(MlirOperation op, intptr_t i) {
  MlirValue none = {NULL};
  if (mlirOperationIsNull(op) || i < 0 || i >= mlirOperationGetNumOperands(op))
    return none;
  return mlirOperationGetOperand(op, i);
}

MlirValue latResult(MlirOperation op, intptr_t i) {
  MlirValue none = {NULL};
  if (mlirOperationIsNull(op) || i < 0 || i >= mlirOperationGetNumResults(op))
    return none;
  return mlirOperationGetResult(op, i);
}

MlirOpOperand latFirstUse(MlirValue value) {
  MlirOpOperand none = {NULL};
  return mlirValueIsNull(value) ? none : mlirValueGetFirstUse(value);
}

size_t latUtf8Prefix(const char *text, size_t length, size_t max) {
  if (length <= max)
    return length;
  size_t n = max;
  while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
    n--; /* text[n] continues a character: cut before its first byte */
  return n;
}

bool latOpIs(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  return s.length == strlen(name) && !memcmp(s.data, name, s.length);
}

bool latOpHasPrefix(MlirOperation op, const char *prefix) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return s.length >= n && !memcmp(s.data, prefix, n);
}

void latOpName(MlirOperation op, char *out, size_t size) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(out, size, "%.*s", (int)s.length, s.data);
}

/* The MLIR spelling of element type `t` and its size in bytes, the size
 * from the cost model's one dtype table (cmDtypeGetSize: i4 is half a
 * byte, as the tables count it); integers of other widths count whole
 * bytes. */
static void elementTypeInfo(MlirType t, LatShape *shape) {
  const char *name = "";
  if (mlirTypeIsABF16(t))
    name = "bf16";
  else if (mlirTypeIsAF16(t))
    name = "f16";
  else if (mlirTypeIsAF32(t))
    name = "f32";
  else if (mlirTypeIsAF64(t))
    name = "f64";
  else if (mlirTypeIsAFloat8E4M3FN(t))
    name = "f8E4M3FN";
  else if (mlirTypeIsAFloat8E5M2(t))
    name = "f8E5M2";
  else if (mlirTypeIsAIndex(t))
    name = "index";
  snprintf(shape->dtype, sizeof shape->dtype, "%s", name);
  shape->elementBytes = *name ? cmDtypeGetSize(name) : 0;
  if (mlirTypeIsAIndex(t))
    shape->elementBytes = 8;
  if (mlirTypeIsAInteger(t)) {
    unsigned width = mlirIntegerTypeGetWidth(t);
    snprintf(shape->dtype, sizeof shape->dtype, "i%u", width);
    shape->elementBytes = cmDtypeGetSize(shape->dtype);
    if (shape->elementBytes <= 0)
      shape->elementBytes = width <= 8 ? 1 : width / 8.0;
  }
}

LatShape latShapeOf(MlirValue value) {
  LatShape shape;
  memset(&shape, 0, sizeof shape);
  if (mlirValueIsNull(value))
    return shape;
  MlirType t = mlirValueGetType(value);
  shape.elements = 1;
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t)) {
    elementTypeInfo(mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t,
                    &shape);
    shape.dynamic = mlirTypeIsAShaped(t);
    return shape;
  }
  shape.isTensor = true;
  shape.rank = (int)mlirShapedTypeGetRank(t);
  for (int i = 0; i < shape.rank; i++) {
    int64_t d = 1;
    if (mlirShapedTypeIsDynamicDim(t, i))
      shape.dynamic = true;
    else
      d = mlirShapedTypeGetDimSize(t, i);
    if (i < LAT_MAX_RANK)
      shape.dims[i] = d;
    shape.elements *= (double)d;
  }
  if (shape.rank > LAT_MAX_RANK)
    shape.rank = LAT_MAX_RANK;
  shape.overflow = shape.elements > 9.2e18;
  elementTypeInfo(mlirShapedTypeGetElementType(t), &shape);
  return shape;
}

int latCountUsers(MlirOperation op) {
  int users = 0;
  MlirOperation last = {NULL};
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
    for (MlirOpOperand use = latFirstUse(latResult(op, r));
         !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
      MlirOperation owner = mlirOpOperandGetOwner(use);
      if (mlirOperationIsNull(last) || !mlirOperationEqual(owner, last))
        users++;
      last = owner;
    }
  return users;
}

typedef struct {
  char *out;
  size_t size, used;
} TextSink;

static void appendText(MlirStringRef s, void *user) {
  TextSink *sink = user;
  if (sink->used + 1 >= sink->size)
    return;
  size_t n = latUtf8Prefix(s.data, s.length, sink->size - sink->used - 1);
  memcpy(sink->out + sink->used, s.data, n);
  sink->used += n;
  sink->out[sink->used] = '\0';
}

void latLocationText(MlirOperation op, char *out, size_t size) {
  TextSink sink = {out, size, 0};
  out[0] = '\0';
  mlirLocationPrint(mlirOperationGetLocation(op), appendText, &sink);
}

void latAttributeText(MlirAttribute attr, char *out, size_t size) {
  TextSink sink = {out, size, 0};
  out[0] = '\0';
  mlirAttributePrint(attr, appendText, &sink);
}

MlirOperation latProducer(MlirValue value) {
  if (!mlirValueIsNull(value) && mlirValueIsAOpResult(value))
    return mlirOpResultGetOwner(value);
  MlirOperation none = {NULL};
  return none;
}

bool latIsInitProducer(MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         (latOpIs(op, "tensor.empty") || latOpIs(op, "linalg.fill"));
}

bool latIsZeroSplat(MlirAttribute a) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      !mlirDenseElementsAttrIsSplat(a))
    return false;
  MlirAttribute v = mlirDenseElementsAttrGetSplatValue(a);
  if (mlirAttributeIsAFloat(v)) { /* -0.0 is not zero-filled memory */
    double x = mlirFloatAttrGetValueDouble(v);
    return x == 0 && !signbit(x);
  }
  if (!mlirAttributeIsAInteger(v))
    return false;
  /* each getter asserts its own signedness in MLIR built with assertions */
  MlirType t = mlirAttributeGetType(v);
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) > 64)
    return false; /* no 64-bit getter reads it: counted as memory */
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSigned(t))
    return mlirIntegerAttrGetValueSInt(v) == 0;
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t))
    return mlirIntegerAttrGetValueUInt(v) == 0;
  return mlirIntegerAttrGetValueInt(v) == 0; /* signless or index */
}

MlirAttribute latConstantValue(MlirValue value) {
  MlirOperation p = latProducer(value);
  MlirAttribute none = {NULL};
  if (mlirOperationIsNull(p))
    return none;
  if (latOpIs(p, "tosa.const"))
    return mlirOperationGetAttributeByName(
        p, mlirStringRefCreateFromCString("values"));
  if (latOpIs(p, "arith.constant"))
    return mlirOperationGetAttributeByName(
        p, mlirStringRefCreateFromCString("value"));
  return none;
}

intptr_t latIndexingMaps(MlirOperation op, MlirAffineMap *maps, intptr_t max) {
  MlirAttribute all = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("indexing_maps"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all))
    return 0;
  intptr_t n = mlirArrayAttrGetNumElements(all);
  for (intptr_t i = 0; i < n; i++) {
    MlirAttribute map = mlirArrayAttrGetElement(all, i);
    if (!mlirAttributeIsAAffineMap(map))
      return 0;
    if (i < max)
      maps[i] = mlirAffineMapAttrGetValue(map);
  }
  return n;
}

int64_t latI64ArrayAttr(MlirOperation op, const char *name, int index,
                        int64_t fallback) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || index < 0) /* a rank-0 op's "last" dim */
    return fallback;
  if (mlirAttributeIsADenseI64Array(a))
    return index < mlirDenseArrayGetNumElements(a)
               ? mlirDenseI64ArrayGetElement(a, index)
               : fallback;
  if (mlirAttributeIsADenseI32Array(a)) /* tosa.transpose's perms */
    return index < mlirDenseArrayGetNumElements(a)
               ? mlirDenseI32ArrayGetElement(a, index)
               : fallback;
  if (mlirAttributeIsADenseElements(a) &&
      index < mlirElementsAttrGetNumElements(a))
    return mlirDenseElementsAttrGetInt64Value(a, index);
  if (mlirAttributeIsAArray(a) && index < mlirArrayAttrGetNumElements(a)) {
    MlirAttribute e = mlirArrayAttrGetElement(a, index);
    if (mlirAttributeIsAInteger(e))
      return mlirIntegerAttrGetValueInt(e);
  }
  return fallback;
}
