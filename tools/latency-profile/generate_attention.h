/*===- generate_attention.h - prefill attention at any sequence length ----===*/
#ifndef LATENCY_PROFILE_GENERATE_ATTENTION_H
#define LATENCY_PROFILE_GENERATE_ATTENTION_H

#include "shapes.h"
#include "text.h"

#include <stdbool.h>

/// True when `shape` is an attention kernel the generator can write:
/// K and V with the query's heads, no window, one element type.
bool lpIsPlainAttention(const LpShape *shape);

/// Writes `func.func @forward` computing attention at `s`'s shape with
/// axis `axis` set to `value` (NULL: unchanged) in element type `T`; false
/// when a field is missing or not positive.
bool lpGenerateAttention(LpText *t, const LpShape *s, const char *axis,
                         double value, const char *T);

#endif /* LATENCY_PROFILE_GENERATE_ATTENTION_H */
