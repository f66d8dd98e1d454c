/*===- cold_kept.c - what the cache keeps between two reads of a weight ---===*
 *
 * The penalty rises from none to the full rate over a few points (on the
 * project's VM between 2 and 8 MiB of a 32 MiB LLC, session 22), and each
 * point's draw can double it. Half the median of the points that came out
 * cold is the level: the median, so that a single high draw does not move
 * it; of the cold ones, so that points within the noise (counted as none)
 * do not drag it to nothing when half the points are warm. Reading the
 * crossing off between two points moves it a little when a point's draw
 * moves, where taking the first point above it moved it by a whole point;
 * before the first point the penalty is taken as none at half its bytes,
 * so that no draw makes the answer jump there either.
 *
 *===----------------------------------------------------------------------===*/
#include "cold_kept.h"

#include "profile_writer.h" /* lpMedianOfPositive, of calibrate.c */

#include <math.h>

double lpColdKeptBytes(const double *bytes, const double *penalty, int n) {
  /* no points, none cold or no memory: 0, nothing came out cold */
  double half = n > 0 ? lpMedianOfPositive(penalty, (size_t)n, NULL) / 2 : 0;
  for (int i = 0; half > 0 && i < n; i++) {
    if (!(penalty[i] >= half))
      continue;
    double lowBytes = i ? bytes[i - 1] : bytes[0] / 2;
    double lowPenalty = i ? fmax(penalty[i - 1], 0) : 0;
    double t = (half - lowPenalty) / (penalty[i] - lowPenalty);
    return lowBytes * pow(bytes[i] / lowBytes, t);
  }
  return 0;
}
