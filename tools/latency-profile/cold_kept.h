/*===- cold_kept.h - what the cache keeps between two reads of a weight ---===*/
#ifndef LATENCY_PROFILE_COLD_KEPT_H
#define LATENCY_PROFILE_COLD_KEPT_H

/// What the cache keeps between two reads of a weight, in bytes, from the
/// cold-weight penalty (ns per byte, 0: none measured) with `bytes[i]` of
/// other weights read in between, `n` points in increasing `bytes`: where
/// the penalty first reaches half the median of the points that came out
/// cold, read off log-linearly between the two points around the crossing
/// (before the first point, from none at half its bytes); 0 when no point
/// came out cold. `penalty` is not modified.
double lpColdKeptBytes(const double *bytes, const double *penalty, int n);

#endif /* LATENCY_PROFILE_COLD_KEPT_H */
