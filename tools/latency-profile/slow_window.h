/*===- slow_window.h - which measurements a slow spell of the host touched ===*/
#ifndef LATENCY_PROFILE_SLOW_WINDOW_H
#define LATENCY_PROFILE_SLOW_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

/// A canary reading this far above the typical one (0.15: 1.15x) marks a
/// slow spell.
#define LP_SLOW_TOLERANCE 0.15

/// The canary reading `us` is `tolerance` or more above `typicalUs`: the
/// host ran slow when it was taken. False when either is not positive.
bool lpReadingIsSlow(double us, double typicalUs, double tolerance);

/// The median of the readings taken (those > 0) among `n`; 0 when none.
/// `readings` is not modified.
double lpTypicalReading(const double *readings, size_t n);

/// Marks the measurements a slow spell of the host may have inflated.
/// `readings[i]` (i < n) is the canary reading taken just before
/// measurement i and `readings[n]` the one after the last, 0 where none
/// was taken. Measurement i is suspect when the last reading taken up to
/// it or the next one after it is slow against the median of all
/// readings: a spell may have begun any time after the last typical
/// reading and ended any time before the next one. Sets `suspect[i]` and
/// returns how many are; with fewer than three readings nothing is marked,
/// as no median says what is typical.
size_t lpMarkSlowWindows(const double *readings, size_t n, double tolerance,
                         bool *suspect);

#endif /* LATENCY_PROFILE_SLOW_WINDOW_H */
