/*===- test_transfer.c - a profile from a known one, on real CSV files -----===*
 *
 * Each test writes a small reference profile and a target device.csv,
 * transfers through the public API (latency/transfer.h: libcsv, the cost
 * model, the written profile loaded back) and checks one behaviour.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include "harness.h"
#include "test_profiles.h"

#include "latency/transfer.h"

#include <stdlib.h>
#include <string.h>

static char scratch[4096];

/* Reference (testMakeProfile's device: 1e15 FLOP/s bf16, 1e12 B/s, both at
 * 0.5 efficiency, launch 2 us): a line along m at n = k = 64 and a plane. */
static const char kTable[] = "kernel,dtype,m,n,k,latency_us\n"
                             "matmul,bf16,1,64,64,10\n"
                             "matmul,bf16,2,64,64,20\n"
                             "matmul,bf16,4,64,64,40\n"
                             "matmul,bf16,8,64,64,41\n"
                             "matmul,bf16,64,4096,4096,900\n"
                             "matmul,bf16,1024,4096,4096,3000\n";

/* Target: 4x the compute, 2x the bandwidth, launch 3 us. */
static const char kTarget[] = "key,value\nname,target-device\n"
                              "peak_flops.bf16,4e15\nmem_bw,2e12\n"
                              "compute_efficiency,0.5\n"
                              "memory_efficiency,0.5\nlaunch_us,3\n";

static bool setUp(const char *name, char *ref, char *device) {
  snprintf(ref, 4200, "%s/%s/ref", scratch, name);
  snprintf(device, 4200, "%s/%s/target/device.csv", scratch, name);
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/%s/target", scratch, name);
  return testMakeProfile(ref, NULL, kTable) &&
         testWriteFile(dir, "device.csv", kTarget);
}

/* The scaled reference, computed here from the formula: launch floors
 * 2 -> 3 us, the rest times (C' + M') / (C + M). */
static double scaled(double m, double n, double k, double t) {
  double flops = 2 * m * n * k, bytes = (m * k + k * n + m * n) * 2;
  double c = flops / (1e15 * 0.5), mem = bytes / (1e12 * 0.5);
  double c2 = flops / (4e15 * 0.5), mem2 = bytes / (2e12 * 0.5);
  return 3 + fmax(0, t - 2) * (c2 + mem2) / (c + mem);
}

static CmEstimate ask(CmProfile p, const char *m, const char *n,
                      const char *k) {
  CmField fields[] = {{"dtype", "bf16"}, {"m", m}, {"n", n}, {"k", k}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmOptions o = cmOptionsDefault();
  CmEstimate e;
  memset(&e, 0, sizeof e);
  CHECK(cmProfileEstimate(p, &q, &o, &e, NULL) == CM_OK);
  return e;
}

static CmTransferAnswer predict(CmTransfer t, const char *m, const char *n,
                                const char *k) {
  CmField fields[] = {{"dtype", "bf16"}, {"m", m}, {"n", n}, {"k", k}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmTransferAnswer a;
  memset(&a, 0, sizeof a);
  CHECK(cmTransferPredict(t, &q, &a, NULL) == CM_OK);
  return a;
}

/* Transfers `name`'s reference with `points` (NULL: none) into DIR/out and
 * loads it; the transfer stays open in `*t`. */
static CmProfile transferred(const char *name, const char *points,
                             CmTransfer *t) {
  char ref[4200], device[4200], dir[4200], out[4300];
  CmProfile p = {NULL};
  CmError err = {""};
  if (!setUp(name, ref, device))
    return p;
  snprintf(dir, sizeof dir, "%s/%s", scratch, name);
  snprintf(out, sizeof out, "%s/out", dir);
  CHECK(cmTransferCreate(ref, device, t, &err) == CM_OK);
  if (points) {
    char path[4300];
    snprintf(path, sizeof path, "%s/points.csv", dir);
    CHECK(testWriteFile(dir, "points.csv", points));
    CHECK(cmTransferAddPoints(*t, path, &err) == CM_OK);
  }
  CHECK(cmTransferWriteProfile(*t, out, NULL, &err) == CM_OK);
  if (err.message[0])
    fprintf(stderr, "%s\n", err.message);
  testLoadProfile(out, &p);
  return p;
}

TEST(zero_points_give_the_scaled_reference) {
  CmTransfer t = {NULL};
  CmProfile p = transferred("zero", NULL, &t);
  static const double rows[][4] = {{1, 64, 64, 10},
                                   {4, 64, 64, 40},
                                   {8, 64, 64, 41},
                                   {64, 4096, 4096, 900},
                                   {1024, 4096, 4096, 3000}};
  for (int i = 0; i < 5; i++) {
    char m[32], n[32], k[32];
    snprintf(m, sizeof m, "%g", rows[i][0]);
    snprintf(n, sizeof n, "%g", rows[i][1]);
    snprintf(k, sizeof k, "%g", rows[i][2]);
    double want = scaled(rows[i][0], rows[i][1], rows[i][2], rows[i][3]);
    CHECK_NEAR(predict(t, m, n, k).latencyUs, want, 1e-12);
    CmEstimate e = ask(p, m, n, k);
    CHECK(e.source == CM_SOURCE_TRANSFERRED && e.method == CM_METHOD_EXACT);
    CHECK_NEAR(e.latencyUs, want, 1e-6); /* tables hold 7 digits */
  }
  cmProfileDestroy(p);
  cmTransferDestroy(t);
}

TEST(measured_target_point_is_reproduced_exactly) {
  CmTransfer t = {NULL};
  CmProfile p = transferred("exact",
                            "kernel,dtype,m,n,k,latency_us\n"
                            "matmul,bf16,2,64,64,7.123456789012345\n"
                            "matmul,bf16,3,64,64,9.987654321098765\n",
                            &t);
  CHECK(predict(t, "2", "64", "64").latencyUs == 7.123456789012345);
  CmEstimate on = ask(p, "2", "64", "64"), off = ask(p, "3", "64", "64");
  CHECK(on.latencyUs == 7.123456789012345 && on.method == CM_METHOD_EXACT);
  CHECK(off.latencyUs == 9.987654321098765); /* a new row, not a ref one */
  CHECK(on.source == CM_SOURCE_TRANSFERRED && on.transferPoints == 2);
  CHECK(on.transferredFrom && !strcmp(on.transferredFrom, "test-device"));
  cmProfileDestroy(p);
  cmTransferDestroy(t);
}

TEST(correction_decays_away_from_the_points) {
  CmTransfer t = {NULL};
  CmProfile p = transferred("decay",
                            "kernel,dtype,m,n,k,latency_us\n"
                            "matmul,bf16,1,64,64,30\n",
                            &t);
  CmTransferAnswer near = predict(t, "2", "64", "64");
  CmTransferAnswer far = predict(t, "1024", "4096", "4096");
  CHECK(near.latencyUs > 1.5 * near.scaledUs); /* pulled towards 30 us */
  CHECK_NEAR(far.latencyUs, far.scaledUs, 1e-3);
  CHECK(near.points == 1 && far.points == 1);
  cmProfileDestroy(p);
  cmTransferDestroy(t);
}

TEST(transferred_profile_interpolates_and_falls_back_to_roofline) {
  CmTransfer t = {NULL};
  CmProfile p = transferred("tiers", NULL, &t);
  CmEstimate mid = ask(p, "3", "64", "64"), out = ask(p, "9", "64", "64");
  CHECK(mid.source == CM_SOURCE_TRANSFERRED && mid.dim == 1);
  CHECK(mid.confidence > 0 && mid.confidence <= 0.45);
  CHECK(out.source == CM_SOURCE_ROOFLINE && out.launchUs == 3);
  CHECK(!strcmp(cmSourceGetName(mid.source), "transferred"));
  cmProfileDestroy(p);
  cmTransferDestroy(t);
}

/* Runs --suggest into a string. */
static char *suggest(CmTransfer t, const char *candidates, size_t count,
                     uint64_t seed) {
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&text, &size);
  CHECK(cmTransferSuggest(t, candidates, count, seed, out, NULL) == CM_OK);
  fclose(out);
  return text;
}

TEST(suggestions_are_deterministic_and_never_repeat_a_point) {
  CmTransfer t = {NULL};
  CmProfile p = transferred("suggest",
                            "kernel,dtype,m,n,k,latency_us\n"
                            "matmul,bf16,4,64,64,12\n",
                            &t);
  char dir[4200], path[4300];
  snprintf(dir, sizeof dir, "%s/suggest", scratch);
  snprintf(path, sizeof path, "%s/candidates.csv", dir);
  CHECK(testWriteFile(dir, "candidates.csv",
                      "kernel,dtype,m,n,k,note\n"
                      "matmul,bf16,4,64,64,measured\n"
                      "matmul,bf16,1,64,64,a\nmatmul,bf16,1,64,64,twin\n"
                      "matmul,bf16,2,64,64,b\nmatmul,bf16,8,64,64,\"c,d\"\n"
                      "matmul,bf16,16,64,64,e\nmatmul,bf16,64,4096,4096,f\n"
                      "matmul,bf16,512,4096,4096,g\n"));
  char *first = suggest(t, path, 10, 7), *again = suggest(t, path, 10, 7);
  CHECK(first && again && !strcmp(first, again));
  CHECK(first && !strncmp(first, "kernel,dtype,m,n,k,note\n", 24));
  CHECK(first && !strstr(first, "measured") && !strstr(first, "twin"));
  CHECK(first && strstr(first, ",\"c,d\"\n")); /* fields echoed as CSV */
  int rows = 0;
  for (const char *s = first; s && *s; s++)
    rows += *s == '\n';
  CHECK(rows == 1 + 6); /* every distinct unmeasured shape, once */
  free(first);
  free(again);
  cmProfileDestroy(p);
  cmTransferDestroy(t);
}

TEST(negative_bad_point_names_file_and_line) {
  char ref[4200], device[4200], dir[4200], path[4300];
  CmTransfer t = {NULL};
  CmError err = {""};
  CHECK(setUp("bad", ref, device));
  snprintf(dir, sizeof dir, "%s/bad", scratch);
  snprintf(path, sizeof path, "%s/points.csv", dir);
  CHECK(testWriteFile(dir, "points.csv",
                      "kernel,dtype,m,n,k,latency_us\n"
                      "matmul,bf16,1,64,64,3\nmatmul,bf16,x,64,64,3\n"));
  CHECK(cmTransferCreate(ref, device, &t, &err) == CM_OK);
  CHECK(cmTransferAddPoints(t, path, &err) == CM_ERR_FORMAT);
  CHECK(strstr(err.message, "points.csv:3: column 'm': 'x' is not a finite "
                            "number") != NULL);
  cmTransferDestroy(t);
  CHECK(cmTransferCreate(ref, "/no/such/device.csv", &t, &err) == CM_ERR_IO);
  CHECK(t.ptr == NULL);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  snprintf(scratch, sizeof scratch, "%s", argv[2]);
  return RUN_TESTS(
      T(zero_points_give_the_scaled_reference),
      T(measured_target_point_is_reproduced_exactly),
      T(correction_decays_away_from_the_points),
      T(transferred_profile_interpolates_and_falls_back_to_roofline),
      T(suggestions_are_deterministic_and_never_repeat_a_point),
      T(negative_bad_point_names_file_and_line));
}
