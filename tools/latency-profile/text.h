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

/// True when everything put into `t` fits, its terminating NUL included.
bool lpTextFits(const LpText *t);

#endif /* LATENCY_PROFILE_TEXT_H */
