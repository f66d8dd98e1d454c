/*===- draws.h - one kernel's time from the processes that measured it ----===*/
#ifndef LATENCY_PROFILE_DRAWS_H
#define LATENCY_PROFILE_DRAWS_H

#include <stdbool.h>

/// Draws of one kernel this far apart (0.1: the slower over 1.1x the
/// faster) call for a third.
#define LP_DRAW_TOLERANCE 0.10

/// The two draws `a` and `b` (microseconds, > 0) are within `tolerance`
/// of each other: the slower is at most (1 + tolerance) times the faster.
bool lpDrawsAgree(double a, double b, double tolerance);

/// The time that stands for `n` (1..3) draws of a kernel, each measured in
/// a process of its own: one draw itself; two, their mean (when they do
/// not agree, take a third or see lpPriceDraws); three, their median, so that
/// one draw far off (a slow spell of the host, a process that drew badly)
/// does not move it. 0 for no draws. `us` is not modified.
double lpCombineDraws(const double *us, int n);

/// Prices a shape from its `n` (1..3) draws: one, itself; two that agree,
/// their mean; two that do not (the third draw failed), the lower, as a
/// slow spell or a bad process only ever adds time; three, their median.
/// Sets `*price` and returns the draws the price stands for (1 for the
/// lower of two); 0, with `*price` 0, for no draws.
int lpPriceDraws(const double *us, int n, double *price);

#endif /* LATENCY_PROFILE_DRAWS_H */
