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

bool lpTextFits(const LpText *t) { return t->used < t->size; }
