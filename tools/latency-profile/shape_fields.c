/*===- shape_fields.c - a shape's fields and regime
 *--------------------------===*
 *
 * The accessors of LpShape that need nothing but the shape: kept apart from
 * shapes.c (which detects kernels through MLIR) so that the calibration can
 * be unit-tested on shapes built by hand (test/unit/test_calibrate.c).
 *
 *===----------------------------------------------------------------------===*/
#include "shapes.h"

#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool isNumber(const char *text) {
  char *end;
  strtod(text, &end);
  return *text && !*end;
}

const char *lpShapeField(const LpShape *shape, const char *name) {
  for (int i = 0; i < shape->numFields; i++)
    if (!strcmp(shape->names[i], name))
      return shape->values[i];
  return NULL;
}

double lpShapeNumber(const LpShape *shape, const char *name) {
  const char *text = lpShapeField(shape, name);
  char *end;
  double v = text ? strtod(text, &end) : NAN;
  return text && end != text && !*end && isfinite(v) ? v : NAN;
}

double lpShapeValue(const void *shape, const char *name) {
  return lpShapeNumber(shape, name);
}

/* True when flag field `name` of `shape` is set (its value is "1"). */
static bool flagSet(const LpShape *shape, const char *name) {
  const char *value = lpShapeField(shape, name);
  return value && !strcmp(value, "1");
}

bool lpChannelsLast(const LpShape *shape) {
  return flagSet(shape, "channels_last");
}

bool lpTransposesWeight(const LpShape *shape) {
  return flagSet(shape, "weight_transposed");
}

bool lpIsRegimeField(const char *name, const char *value) {
  static const char *const exact[] = {
      "dtype",         "kv_dtype", "stride",      "window",
      "head_dim",      "kv_heads", "groups",      "weight_transposed",
      "channels_last", "walk_k",   "walk_stride", "walk_writes"};
  for (size_t i = 0; i < sizeof exact / sizeof exact[0]; i++)
    if (!strcmp(name, exact[i]))
      return true;
  return !isNumber(value); /* text is matched, never interpolated */
}

bool lpSameRegime(const LpShape *a, const LpShape *b) {
  if (strcmp(a->type, b->type) || a->numFields != b->numFields)
    return false;
  for (int i = 0; i < a->numFields; i++)
    if (strcmp(a->names[i], b->names[i]) ||
        (lpIsRegimeField(a->names[i], a->values[i]) &&
         strcmp(a->values[i], b->values[i])))
      return false;
  return true;
}

bool lpFirstOfType(const LpShapeSet *set, size_t i) {
  for (size_t j = 0; j < i; j++)
    if (!strcmp(set->items[j].type, set->items[i].type))
      return false;
  return true;
}

bool lpInScope(const char *scope, const char *type) {
  size_t n = strlen(scope);
  bool family = n >= 2 && !strcmp(scope + n - 2, "+*");
  return family ? cmKernelSameAnchor(scope, type) : !strcmp(scope, type);
}

bool lpFirstOfFamily(const LpShapeSet *set, size_t i, char *family,
                     size_t size) {
  const char *type = set->items[i].type;
  if (!strchr(type, '+') || !cmKernelFamily(type, family, size))
    return false;
  for (size_t j = 0; j < i; j++)
    if (strchr(set->items[j].type, '+') &&
        lpInScope(family, set->items[j].type))
      return false;
  return true;
}
