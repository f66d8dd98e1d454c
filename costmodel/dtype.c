/*===- dtype.c - element types: sizes, precisions, spellings ---------------===*
 *
 *===----------------------------------------------------------------------===*/
#include "dtype.h"

#include <string.h>
#include <strings.h>

double cmDtypeGetSize(const char *dtype) {
  static const struct {
    const char *name;
    double size;
  } sizes[] = {{"f64", 8},  {"f32", 4},        {"tf32", 4},      {"f16", 2},
               {"bf16", 2}, {"f8E4M3FN", 1},   {"f8E5M2", 1},    {"i64", 8},
               {"i32", 4},  {"i16", 2},        {"i8", 1},        {"i4", 0.5},
               {"i1", 1},   {"f8E4M3FNUZ", 1}, {"f8E5M2FNUZ", 1}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    if (!strcmp(sizes[i].name, dtype))
      return sizes[i].size;
  return 0;
}

const char *cmPrecisionGetDtype(const char *precision, bool *known) {
  static const char *const names[][2] = {
      {"bf16", "bf16"}, {"f16", "f16"},  {"fp8", "f8E4M3FN"},
      {"int8", "i8"},   {"i8", "i8"},    {"f8E4M3FN", "f8E4M3FN"},
      {"f32", "f32"},   {"tf32", "tf32"}};
  *known = true;
  if (!precision || !*precision || !strcmp(precision, "as-is"))
    return NULL;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(precision, names[i][0]))
      return names[i][1];
  *known = false;
  return NULL;
}

bool cmDtypeIsFloat(const char *dtype) {
  return dtype && (!strcmp(dtype, "f64") || !strcmp(dtype, "f32") ||
                   !strcmp(dtype, "tf32") || !strcmp(dtype, "f16") ||
                   !strcmp(dtype, "bf16"));
}

bool cmDtypeIsInteger(const char *dtype) {
  if (!dtype)
    return false;
  const char *digits = dtype[0] == 'i' ? dtype + 1
                       : (dtype[0] == 'u' || dtype[0] == 's') && dtype[1] == 'i'
                           ? dtype + 2
                           : NULL;
  return digits && *digits >= '1' && *digits <= '9';
}

bool cmDtypeIsHalfFloat(const char *dtype) {
  return cmDtypeIsFloat(dtype) && cmDtypeGetSize(dtype) == 2;
}

/* Framework spellings of element types, mapped to MLIR's. */
static const char *const dtypeAliases[][2] = {
    {"bfloat16", "bf16"},
    {"float16", "f16"},
    {"half", "f16"},
    {"float32", "f32"},
    {"float", "f32"},
    {"float64", "f64"},
    {"double", "f64"},
    {"int8", "i8"},
    {"int32", "i32"},
    {"fp8", "f8E4M3FN"},
    {"float8_e4m3fn", "f8E4M3FN"},
};

const char *cmDtypeFromAlias(const char *alias) {
  for (size_t i = 0; i < sizeof dtypeAliases / sizeof dtypeAliases[0]; i++)
    if (!strcasecmp(alias, dtypeAliases[i][0]))
      return dtypeAliases[i][1];
  return NULL;
}

size_t cmDtypeAliasesOf(const char *canonical, const char **out, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < sizeof dtypeAliases / sizeof dtypeAliases[0]; i++)
    if (!strcmp(dtypeAliases[i][1], canonical) && n < max)
      out[n++] = dtypeAliases[i][0];
  return n;
}
