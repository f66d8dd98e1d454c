/*===- text.c - text built piece by piece in a caller's buffer
 * -------------===*/
#include "text.h"

#include <stdarg.h>
#include <stdio.h>

void lpTextPut(LpText *t, const char *format, ...) {
  if (t->used >= t->size)
    return;
  va_list args;
  va_start(args, format);
  int n = vsnprintf(t->out + t->used, t->size - t->used, format, args);
  va_end(args);
  t->used += n > 0 ? (size_t)n : 0;
}

void lpTextPutRepeated(LpText *t, const char *item, int count) {
  for (int i = 0; i < count; i++)
    lpTextPut(t, "%s%s", i ? ", " : "", item);
}

void lpTextPutReturn(LpText *t, const char *name, int count, const char *type) {
  lpTextPut(t, "  return");
  for (int i = 0; i < count; i++)
    lpTextPut(t, "%s %%%s%d", i ? "," : "", name, i);
  lpTextPut(t, " : ");
  lpTextPutRepeated(t, type, count);
  lpTextPut(t, "\n}\n");
}

bool lpTextFits(const LpText *t) { return t->used < t->size; }
