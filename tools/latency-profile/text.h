/*===- text.h - text built piece by piece in a caller's buffer
 * -------------===*/
#ifndef LATENCY_PROFILE_TEXT_H
#define LATENCY_PROFILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/// A buffer of `size` bytes at `out` filled from `used` on; `used` counts
/// what was asked for, so past `size` it says the text did not fit.
typedef struct {
  char *out;
  size_t size, used;
} LpText;

/// Appends printf output to `t`; nothing once it is full.
__attribute__((format(printf, 2, 3))) void lpTextPut(LpText *t,
                                                     const char *format, ...);

/// Appends `count` copies of `item` joined by ", " (a function's result
/// types).
void lpTextPutRepeated(LpText *t, const char *item, int count);

/// Appends "  return %<name>0, %<name>1 ... : <type>, <type> ...", `count`
/// values of `type`, and the closing brace of the function.
void lpTextPutReturn(LpText *t, const char *name, int count, const char *type);

/// True when everything put into `t` fits, its terminating NUL included.
bool lpTextFits(const LpText *t);

#endif /* LATENCY_PROFILE_TEXT_H */
