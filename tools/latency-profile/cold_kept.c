/*===- cold_kept.c - what the cache keeps between two reads of a weight ---===*
 *
 * The penalty rises from none to the full rate over a few points (on the
 * project's VM between 2 and 8 MiB of a 32 MiB LLC, session 22), and each
 * point's draw can double it. Half the median of all points is the level
 * (the median: a single high draw does not move it), and reading the
 * crossing off between two points moves it a little when a point's draw
 * moves, where taking the first point above it moved it by a whole point.
 *
 *===----------------------------------------------------------------------===*/
#include "cold_kept.h"

#include "profile_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double lpColdKeptBytes(const double *bytes, const double *penalty, int n) {
  if (n < 1)
    return 0;
  double *sorted = malloc((size_t)n * sizeof *sorted);
  if (!sorted)
    return 0;
  memcpy(sorted, penalty, (size_t)n * sizeof *sorted);
  double half = lpMedian(sorted, (size_t)n) / 2; /* sorts its copy */
  free(sorted);
  for (int i = 0; half > 0 && i < n; i++) {
    if (penalty[i] < half)
      continue;
    if (i == 0)
      return bytes[0] / 2;
    double t = (half - penalty[i - 1]) / (penalty[i] - penalty[i - 1]);
    return bytes[i - 1] * pow(bytes[i] / bytes[i - 1], t);
  }
  return 0;
}
