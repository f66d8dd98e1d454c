/*===- latency_mark.c - a model's kernels timed where they run ------------===*
 *
 * scripts/time-kernels-in-place compiles this into a shared library that
 * mlir-runner loads, and calls `latency_mark(id)` from the model before
 * each kernel (the pass's `latency.kernel` ids, >= 0), at the start of each
 * call of the entry (-1) and before it returns (-2). The time from one mark
 * to the next goes to the kernel the first one opened, as do the page
 * faults the process took meanwhile (`getrusage`: minor faults, the fresh
 * pages a buffer costs). At exit, the median per call of each kernel over
 * every call but the first (the warm-up) is written as CSV to
 * $LATENCY_MARK_OUT: `kernel,us,calls,faults`. $LATENCY_MARK_KERNELS
 * bounds the ids (a larger one is ignored). Single-threaded, as the code
 * mlir-runner runs.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

typedef struct {
  double *ns, *faults; /* [call][kernel] */
  long kernels, calls, capacity;
  long open;   /* the kernel the last mark opened, or -1 */
  long call;   /* index of the current call, -1 before the first */
  double from; /* when it was opened, ns */
  long faultsFrom;
} Marks;

static Marks marks = {NULL, NULL, 0, 0, 0, -1, -1, 0, 0};

static double nowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static long minorFaults(void) {
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt : 0;
}

/* Room for call `call`'s row; false when out of memory. */
static int reserve(long call) {
  if (call < marks.capacity)
    return 1;
  long capacity = marks.capacity ? 2 * marks.capacity : 64;
  size_t bytes = (size_t)capacity * (size_t)marks.kernels * sizeof(double);
  double *ns = realloc(marks.ns, bytes);
  if (!ns)
    return 0;
  marks.ns = ns;
  double *faults = realloc(marks.faults, bytes);
  if (!faults)
    return 0;
  marks.faults = faults;
  for (size_t i = (size_t)marks.capacity * marks.kernels;
       i < (size_t)capacity * marks.kernels; i++)
    marks.ns[i] = marks.faults[i] = 0;
  marks.capacity = capacity;
  return 1;
}

void latency_mark(int64_t id) {
  long faults = minorFaults();
  double now = nowNs();
  if (marks.kernels == 0) {
    const char *n = getenv("LATENCY_MARK_KERNELS");
    marks.kernels = n && atol(n) > 0 ? atol(n) : 4096;
  }
  if (marks.open >= 0 && marks.call >= 0 && reserve(marks.call)) {
    size_t at = (size_t)marks.call * marks.kernels + marks.open;
    marks.ns[at] += now - marks.from;
    marks.faults[at] += faults - marks.faultsFrom;
  }
  if (id == -1) {
    marks.call++;
    marks.calls = marks.call + 1;
  }
  marks.open = id >= 0 && id < marks.kernels ? (long)id : -1;
  marks.faultsFrom = faults; /* the bookkeeping above goes to the next one */
  marks.from = now;
}

static int byValue(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Calls with a row: every one, unless memory ran out. */
static long rows(void) {
  return marks.calls < marks.capacity ? marks.calls : marks.capacity;
}

/* The median of column `kernel` of `table` over calls 1.. (`work` holds
 * them). */
static double median(const double *table, long kernel, double *work) {
  long n = 0;
  for (long c = 1; c < rows(); c++)
    work[n++] = table[(size_t)c * marks.kernels + kernel];
  if (n == 0)
    return 0;
  qsort(work, n, sizeof *work, byValue);
  return work[n / 2];
}

__attribute__((destructor)) static void writeMarks(void) {
  const char *path = getenv("LATENCY_MARK_OUT");
  double *work = marks.calls > 0 ? malloc(marks.calls * sizeof *work) : NULL;
  FILE *out = path && work && marks.ns ? fopen(path, "w") : NULL;
  if (out) {
    fprintf(out, "kernel,us,calls,faults\n");
    for (long k = 0; k < marks.kernels; k++) {
      int seen = 0; /* a kernel some call opened */
      for (long c = 0; c < rows() && !seen; c++)
        seen = marks.ns[(size_t)c * marks.kernels + k] > 0;
      if (seen)
        fprintf(out, "%ld,%.4f,%ld,%.0f\n", k, median(marks.ns, k, work) * 1e-3,
                rows() - 1, median(marks.faults, k, work));
    }
    fclose(out);
  }
  free(work);
  free(marks.ns);
  free(marks.faults);
}
