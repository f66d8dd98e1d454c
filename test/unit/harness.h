/*===- harness.h - a twenty-line test harness for the C unit tests ---------===*
 *
 * TEST(name) defines a test; CHECK(cond) records a failure with file:line and
 * goes on; RUN_TESTS(T(a), T(b)) runs the tests and prints "N passed, N
 *failed".
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TEST_HARNESS_H
#define LATENCY_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>

static int harnessFailures; /* CHECK failures in the running test */

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
      harnessFailures++;                                                       \
    }                                                                          \
  } while (0)

/* Relative closeness, for values that went through arithmetic. */
#define CHECK_NEAR(a, b, rel)                                                  \
  CHECK(fabs((double)(a) - (double)(b)) <=                                     \
        (rel)*fmax(fabs((double)(a)), fabs((double)(b))))

#define TEST(name) static void name(void)

typedef struct {
  const char *name;  /* printed in the result line */
  void (*run)(void); /* the test body               */
} HarnessTest;

/* One entry of RUN_TESTS: T(testFunction). */
#define T(fn)                                                                  \
  { #fn, fn }

/* Runs every test, prints "N passed, N failed", returns the exit status. */
static int harnessRun(const HarnessTest *tests, int n) {
  int passed = 0, failed = 0;
  for (int i = 0; i < n; i++) {
    harnessFailures = 0;
    tests[i].run();
    printf("%s %s\n", harnessFailures ? "FAIL" : "ok  ", tests[i].name);
    harnessFailures ? failed++ : passed++;
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

/* Runs T(a), T(b), ... and evaluates to the exit status. */
#define RUN_TESTS(...)                                                         \
  harnessRun(                                                                  \
      (const HarnessTest[]){__VA_ARGS__},                                      \
      (int)(sizeof((const HarnessTest[]){__VA_ARGS__}) / sizeof(HarnessTest)))

#endif /* LATENCY_TEST_HARNESS_H */
