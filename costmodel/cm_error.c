/*===- cm_error.c - error text and small parsing helpers ------------------===*/
#include "cm_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

CmStatus cmErrorSet(CmError *err, CmStatus status, const char *format, ...) {
  if (!err)
    return status;
  va_list args;
  va_start(args, format);
  vsnprintf(err->message, sizeof err->message, format, args);
  va_end(args);
  return status;
}

void cmErrorClear(CmError *err) {
  if (err)
    err->message[0] = '\0';
}

bool cmParseNumber(const char *text, double *out) {
  if (!text || !*text)
    return false;
  char *end = NULL;
  double value = strtod(text, &end); /* overflow gives +-inf: callers judge */
  while (*end == ' ' || *end == '\t' || *end == '\r')
    end++;
  if (end == text || *end != '\0')
    return false;
  *out = value;
  return true;
}

char *cmStrDup(const char *text) {
  size_t n = strlen(text) + 1;
  char *copy = malloc(n);
  if (copy)
    memcpy(copy, text, n);
  return copy;
}

CmStatus cmPathJoin(char *out, size_t size, const char *dir, const char *name,
                    CmError *err) {
  int n = snprintf(out, size, "%s/%s", dir, name);
  if (n >= 0 && (size_t)n < size)
    return CM_OK;
  if (size)
    out[0] = '\0';
  return cmErrorSet(err, CM_ERR_IO, "path too long: %.200s/%.100s", dir, name);
}
