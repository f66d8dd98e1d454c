/*===- draws.c - one kernel's time from the processes that measured it ----===*
 *
 * Within a process a kernel's repetitions agree to 1-2%; between processes
 * the same kernel file does not (session 23, `--run` of a depthwise conv
 * and a conv 236 times each, alternating, over six minutes: medians 123.4
 * and 50.6 us, 7% of the processes over 1.1x that, up to 1.44x and
 * 1.73x). A shape the canary suspects (canary.h) is drawn again; two draws
 * that agree are averaged, and where they do not a third settles it, as
 * `--validate` keeps the median of three processes of a whole model.
 *
 *===----------------------------------------------------------------------===*/
#include "draws.h"

#include <math.h>

bool lpDrawsAgree(double a, double b, double tolerance) {
  double lo = a < b ? a : b, hi = a < b ? b : a;
  return hi <= lo * (1 + tolerance);
}

double lpCombineDraws(const double *us, int n) {
  if (n <= 0)
    return 0;
  if (n == 1)
    return us[0];
  if (n == 2)
    return 0.5 * (us[0] + us[1]);
  double a = us[0], b = us[1], c = us[2];
  double lo = a < b ? a : b, hi = a < b ? b : a;
  return c < lo ? lo : c > hi ? hi : c; /* the one between */
}

int lpPriceDraws(const double *us, int n, double *price) {
  if (n == 2 && !lpDrawsAgree(us[0], us[1], LP_DRAW_TOLERANCE)) {
    *price = fmin(us[0], us[1]);
    return 1;
  }
  *price = lpCombineDraws(us, n);
  return n > 0 ? (n > 3 ? 3 : n) : 0;
}
