/*===- slow_window.c - which measurements a slow spell of the host touched ===*
 *
 * A spell (half a minute to a minute in which every kernel process runs
 * 1.3-1.6x, canary.c) holds still within a measurement, so no measurement's
 * own spread shows it; the canary's readings between the measurements do.
 * The median of the readings is what the host typically reads: a spell
 * that covers fewer than half of them does not move it.
 *
 *===----------------------------------------------------------------------===*/
#include "slow_window.h"

#include "profile_writer.h" /* lpMedianOfPositive, of calibrate.c */

bool lpReadingIsSlow(double us, double typicalUs, double tolerance) {
  return us > 0 && typicalUs > 0 && us >= typicalUs * (1 + tolerance);
}

double lpTypicalReading(const double *readings, size_t n) {
  return lpMedianOfPositive(readings, n, NULL);
}

size_t lpMarkSlowWindows(const double *readings, size_t n, double tolerance,
                         bool *suspect) {
  size_t numTaken;
  double typical = lpMedianOfPositive(readings, n + 1, &numTaken);
  if (numTaken < 3)
    typical = 0; /* too few readings to say what is typical */
  for (size_t i = 0; i < n; i++)
    suspect[i] = false;
  if (typical <= 0)
    return 0;
  double before = 0; /* the last reading taken up to measurement i */
  size_t marked = 0;
  for (size_t i = 0; i < n; i++) {
    if (readings[i] > 0)
      before = readings[i];
    size_t next = i + 1;
    while (next < n && !(readings[next] > 0))
      next++; /* readings[n] closes the run */
    suspect[i] = lpReadingIsSlow(before, typical, tolerance) ||
                 lpReadingIsSlow(readings[next], typical, tolerance);
    marked += suspect[i];
  }
  return marked;
}
