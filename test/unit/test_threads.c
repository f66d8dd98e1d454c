/*===- test_threads.c - many threads, one profile, identical answers -------===*
 *
 * Eight threads start together on a freshly loaded H100 profile, so the
 * lazily built line indexes, subspace indexes and Delaunay triangulations
 * are raced for, and ask queries that hit every tier (exact, 1D, 2D, 3D,
 * roofline) many times each, through the prepared API and the text API.
 * (No matmul query reaches the 3D tier: triangulating all 35,700 GEMM
 * points takes seconds, too long for a test run under TSan.)
 * Every answer must equal the single-threaded answer of another load of the
 * same profile, bit for bit: with the on-disk triangulation cache off (Qhull
 * raced for), and with a cache the first load filled (files read back while
 * raced for). Built with LATENCY_SANITIZE=thread, TSan checks the lazy
 * builds' locking and publication as well.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include "harness.h"
#include "test_profiles.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 8, kRounds = 200 };

/* Queries between real rows of profiles/h100-sxm/tables, each with the tier
 * and method it must get. */
typedef struct {
  int kernel;          /* index into kKernels                 */
  double axes[3];      /* in policy order                     */
  const char *text[3]; /* the same axes, for the text API     */
  CmSource source;     /* the tier that must answer           */
  CmMethod method;     /* and how                             */
} TierQuery;

static const struct {
  const char *name;    /* kernel type                          */
  const char *axes[3]; /* its policy's axes (profiles/h100-sxm) */
} kKernels[2] = {{"matmul", {"m", "n", "k"}},
                 {"attention", {"seq", "batch", "heads"}}};

static const TierQuery kQueries[] = {
    /* matmul_bf16.csv line 2: 2.5813333690166474 us */
    {0, {1, 32, 32}, {"1", "32", "32"}, CM_SOURCE_MEASURED, CM_METHOD_EXACT},
    /* m between the rows at 769 and 1024 */
    {0,
     {1000, 4096, 4096},
     {"1000", "4096", "4096"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_LINEAR_1D},
    {0,
     {1000, 4000, 4096},
     {"1000", "4000", "4096"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_DELAUNAY_2D},
    /* attention_prefill.csv line 3: 15.97333326935768 us */
    {1, {16, 1, 1}, {"16", "1", "1"}, CM_SOURCE_MEASURED, CM_METHOD_EXACT},
    {1,
     {24, 1, 1},
     {"24", "1", "1"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_LINEAR_1D},
    {1,
     {24, 3, 1},
     {"24", "3", "1"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_DELAUNAY_2D},
    {1,
     {24, 3, 3},
     {"24", "3", "3"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_DELAUNAY_3D},
    {1,
     {100, 3, 5},
     {"100", "3", "5"},
     CM_SOURCE_INTERPOLATED,
     CM_METHOD_DELAUNAY_3D},
    /* outside every hull: the roofline, with attention's work formula */
    {1,
     {20000, 3, 3},
     {"20000", "3", "3"},
     CM_SOURCE_ROOFLINE,
     CM_METHOD_ROOFLINE},
};
enum { kNumQueries = sizeof kQueries / sizeof kQueries[0] };

static const CmField kRegimes[2][5] = {{{"dtype", "bf16"}},
                                       {{"dtype", "bf16"},
                                        {"kv_dtype", "bf16"},
                                        {"kv_heads", "1"},
                                        {"head_dim", "64"},
                                        {"window", "0"}}};
static const size_t kNumRegime[2] = {1, 5};

typedef struct {
  CmProfile profile;          /* shared by every thread */
  CmPrepared prepared[2];     /* per kernel, shared     */
  pthread_barrier_t start;    /* all threads at once    */
  const CmEstimate *expected; /* kNumQueries answers    */
  bool useText[kThreads];     /* per thread: text API   */
  int mismatches[kThreads];   /* per thread             */
  CmEstimate got[kThreads];   /* last mismatch, if any  */
  int index[kThreads];        /* its query              */
} Shared;

typedef struct {
  Shared *shared;
  int thread;
} Job;

/* Loads the shipped H100 profile with the tables of bf16 matmul and
 * attention only (as the passes load it), which halves the time under TSan. */
static bool loadShipped(CmProfile *out) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/h100-sxm", testShippedProfilesDir());
  CmQuery needs[2] = {{kKernels[0].name, kRegimes[0], kNumRegime[0], -1, -1},
                      {kKernels[1].name, kRegimes[1], kNumRegime[1], -1, -1}};
  CmError err;
  CmStatus status = cmProfileCreateFromDirWithoutTables(dir, out, &err);
  if (status == CM_OK &&
      (status = cmProfileLoadTablesFor(*out, needs, 2, &err)) != CM_OK) {
    cmProfileDestroy(*out);
    out->ptr = NULL;
  }
  if (status != CM_OK)
    fprintf(stderr, "cannot load %s: %s\n", dir, err.message);
  return status == CM_OK;
}

static bool sameBits(const void *a, const void *b, size_t n) {
  return memcmp(a, b, n) == 0;
}

/* The answer and all its numeric provenance, bit for bit. */
static bool sameAnswer(const CmEstimate *a, const CmEstimate *b) {
  if (a->source != b->source || a->method != b->method || a->dim != b->dim ||
      a->numCorners != b->numCorners || a->numLines != b->numLines ||
      !sameBits(&a->latencyUs, &b->latencyUs, sizeof a->latencyUs) ||
      !sameBits(&a->confidence, &b->confidence, sizeof a->confidence) ||
      !sameBits(&a->errorEstimate, &b->errorEstimate, sizeof(double)) ||
      !sameBits(a->interpAxes, b->interpAxes, a->dim * sizeof(int)) ||
      !sameBits(a->lo, b->lo, a->dim * sizeof(double)) ||
      !sameBits(a->hi, b->hi, a->dim * sizeof(double)) ||
      strcmp(a->reason, b->reason))
    return false;
  for (int i = 0; i < a->numCorners; i++) { /* axes past numAxes unset */
    const CmCorner *x = &a->corners[i], *y = &b->corners[i];
    if (!sameBits(x->axes, y->axes, a->numAxes * sizeof(double)) ||
        !sameBits(&x->latencyUs, &y->latencyUs, sizeof(double)) ||
        !sameBits(&x->weight, &y->weight, sizeof(double)))
      return false;
  }
  for (int i = 0; i < a->numLines; i++) { /* field by field: padding */
    const CmLine *x = &a->lines[i], *y = &b->lines[i];
    double xs[5] = {x->lo, x->hi, x->value, x->checkErr, x->weight};
    double ys[5] = {y->lo, y->hi, y->value, y->checkErr, y->weight};
    if (x->axis != y->axis || x->numChecks != y->numChecks ||
        !sameBits(xs, ys, sizeof xs))
      return false;
  }
  return true;
}

static bool prepareAll(CmProfile p, CmPrepared *prepared) {
  for (int k = 0; k < 2; k++) {
    CmQuery q = {kKernels[k].name, kRegimes[k], kNumRegime[k], -1, -1};
    if (cmProfilePrepare(p, &q, &prepared[k], NULL) != CM_OK ||
        !prepared[k].group)
      return false;
  }
  return true;
}

/* Asks query `i` of kQueries on the shared profile. */
static void askShared(const Shared *s, bool text, int i, CmEstimate *out) {
  const TierQuery *tq = &kQueries[i];
  if (!text) {
    cmPreparedEstimate(&s->prepared[tq->kernel], tq->axes, -1, -1, NULL, out,
                       NULL);
    return;
  }
  CmField fields[8];
  size_t n = kNumRegime[tq->kernel];
  memcpy(fields, kRegimes[tq->kernel], n * sizeof *fields);
  for (int a = 0; a < 3; a++)
    fields[n++] = (CmField){kKernels[tq->kernel].axes[a], tq->text[a]};
  CmQuery q = {kKernels[tq->kernel].name, fields, n, -1, -1};
  cmProfileEstimate(s->profile, &q, NULL, out, NULL);
}

static void *queryAll(void *arg) {
  Job *job = arg;
  Shared *s = job->shared;
  pthread_barrier_wait(&s->start);
  for (int round = 0; round < kRounds; round++)
    for (int j = 0; j < kNumQueries; j++) {
      int i = (j + job->thread) % kNumQueries; /* threads start apart */
      CmEstimate e;
      askShared(s, s->useText[job->thread], i, &e);
      if (!sameAnswer(&e, &s->expected[i])) {
        s->mismatches[job->thread]++;
        s->got[job->thread] = e;
        s->index[job->thread] = i;
      }
    }
  return NULL;
}

TEST(every_tier_answers_as_expected_single_threaded) {
  CmProfile p;
  CmPrepared prepared[2];
  CHECK(loadShipped(&p));
  CHECK(prepareAll(p, prepared));
  for (int i = 0; i < kNumQueries; i++) {
    CmEstimate e;
    CHECK(cmPreparedEstimate(&prepared[kQueries[i].kernel], kQueries[i].axes,
                             -1, -1, NULL, &e, NULL) == CM_OK);
    if (e.source != kQueries[i].source || e.method != kQueries[i].method)
      fprintf(stderr, "query %d: %s %s\n", i, cmSourceGetName(e.source),
              cmMethodGetName(e.method));
    CHECK(e.source == kQueries[i].source && e.method == kQueries[i].method);
  }
  cmProfileDestroy(p);
}

/* Loads the profile twice with the triangulation cache at `cache` ("off":
 * none): once for the single-threaded answers (which fills the cache), once
 * for eight threads started together; checks every answer of theirs. */
static void matchOneThread(const char *cache) {
  setenv("MLIR_LATENCY_CACHE", cache, 1);
  CmProfile reference;
  CmPrepared refPrepared[2];
  CmEstimate expected[kNumQueries];
  CHECK(loadShipped(&reference));
  CHECK(prepareAll(reference, refPrepared));
  for (int i = 0; i < kNumQueries; i++) {
    cmPreparedEstimate(&refPrepared[kQueries[i].kernel], kQueries[i].axes, -1,
                       -1, NULL, &expected[i], NULL);
    CHECK(expected[i].source == kQueries[i].source &&
          expected[i].method == kQueries[i].method);
  }

  Shared *s = calloc(1, sizeof *s);
  CHECK(s && loadShipped(&s->profile));
  CHECK(prepareAll(s->profile, s->prepared));
  s->expected = expected;
  pthread_barrier_init(&s->start, NULL, kThreads);
  pthread_t threads[kThreads];
  Job jobs[kThreads];
  for (int t = 0; t < kThreads; t++) {
    jobs[t] = (Job){s, t};
    s->useText[t] = t % 2 == 1;
    CHECK(pthread_create(&threads[t], NULL, queryAll, &jobs[t]) == 0);
  }
  for (int t = 0; t < kThreads; t++)
    pthread_join(threads[t], NULL);
  for (int t = 0; t < kThreads; t++) {
    if (s->mismatches[t]) {
      fprintf(stderr, "thread %d: %d mismatches; query %d got:\n", t,
              s->mismatches[t], s->index[t]);
      cmEstimatePrintJson(&s->got[t], stderr);
      fputc('\n', stderr);
    }
    CHECK(s->mismatches[t] == 0);
  }
  pthread_barrier_destroy(&s->start);
  cmProfileDestroy(s->profile);
  cmProfileDestroy(reference);
  free(s);
  setenv("MLIR_LATENCY_CACHE", "off", 1);
}

static char scratch[4096]; /* this test's folder in the build tree */

/* Qhull runs in whichever thread gets a set's lock first. */
TEST(eight_threads_on_a_cold_profile_match_one_thread_bit_for_bit) {
  matchOneThread("off");
}

/* The reference load writes the sets of 1000 points or more to the cache;
 * the threads' load reads them back. */
TEST(eight_threads_reading_the_triangulation_cache_match_one_thread) {
  char cache[4200];
  snprintf(cache, sizeof cache, "%s/triangulation-cache", scratch);
  CHECK(testWriteFile(cache, "README", "test_threads: entries of a run\n"));
  matchOneThread(cache);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  snprintf(scratch, sizeof scratch, "%s", argv[2]);
  setenv("MLIR_LATENCY_CACHE", "off", 1); /* never the user's cache */
  return RUN_TESTS(
      T(every_tier_answers_as_expected_single_threaded),
      T(eight_threads_on_a_cold_profile_match_one_thread_bit_for_bit),
      T(eight_threads_reading_the_triangulation_cache_match_one_thread));
}
