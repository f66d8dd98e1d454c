/*===- test_costmodel.c - tiers, provenance and rollback on real CSVs ------===*
 *
 * Each test writes a small profile directory, loads it through the public
 * API (libcsv, Qhull), and checks one behaviour.
 *
 *===----------------------------------------------------------------------===*/
#include "harness.h"
#include "test_profiles.h"

#include "latency/channels_last.h"
#include "latency/column_walk.h"
#include "latency/epilogue.h"

#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static char scratch[4096];

static CmProfile profileWith(const char *name, const char *policy,
                             const char *table) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/%s", scratch, name);
  CmProfile p = {NULL};
  if (testMakeProfile(dir, policy, table))
    testLoadProfile(dir, &p);
  return p;
}

/* profileWith, its device.csv replaced by `device`. */
static CmProfile profileWithDevice(const char *name, const char *policy,
                                   const char *table, const char *device) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/%s", scratch, name);
  CmProfile p = {NULL};
  if (testMakeProfile(dir, policy, table) &&
      testWriteFile(dir, "device.csv", device))
    testLoadProfile(dir, &p);
  return p;
}

static CmEstimate ask(CmProfile p, const char *kernel, const char *m,
                      const char *n, const char *k, bool interpolation) {
  CmField fields[] = {{"dtype", "bf16"}, {"m", m}, {"n", n}, {"k", k}};
  CmQuery q = {kernel, fields, 4, -1, -1};
  CmOptions o = {interpolation};
  CmEstimate e;
  memset(&e, 0, sizeof e);
  CHECK(cmProfileEstimate(p, &q, &o, &e, NULL) == CM_OK);
  return e;
}

/* A line along m at n=k=64: m = 1, 2, 4 with 10, 20, 40 us. */
static const char kLine[] = "kernel,dtype,m,n,k,latency_us\n"
                            "matmul,bf16,1,64,64,10\n"
                            "matmul,bf16,2,64,64,20\n"
                            "matmul,bf16,4,64,64,40\n";

TEST(profile_exposes_device_and_fusion_rules) {
  CmProfile p = profileWith("device", NULL, kLine);
  CHECK(!strcmp(cmProfileGetDeviceName(p), "test-device"));
  CHECK(cmProfileGetDeviceNumber(p, "mem_bw", -1) == 1e12);
  CHECK(cmProfileGetDeviceNumber(p, "no_such_key", -1) == -1);
  CHECK(cmProfileGetNumFusionRules(p) == 1);
  CHECK(cmProfileAllowsFusion(p, "matmul", "add"));
  CHECK(!cmProfileAllowsFusion(p, "add", "matmul"));
  cmProfileDestroy(p);
}

/* Rules learned from measurements keep the pairs that did not pay, with
 * decision=no, for the audit: only decision=yes rows are rules. */
TEST(measured_fusion_rules_keep_only_decision_yes) {
  CmProfile p = profileWith("measured-rules", NULL, kLine);
  char path[4200];
  snprintf(path, sizeof path, "%s/measured-rules.csv", scratch);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs("producer,consumer,decision,op1_us,op2_us,fused_us,gain_pct\n"
        "matmul,relu,yes,10,2,10.5,12.5\n"
        "conv2d,add,no,10,2,12.5,-4\n"
        "pad,pool,unmeasured,,,,\n",
        f);
  fclose(f);
  CmError e;
  CHECK(cmProfileLoadFusionRules(p, path, &e) == CM_OK);
  CHECK(cmProfileGetNumFusionRules(p) == 1);
  CHECK(cmProfileAllowsFusion(p, "matmul", "relu"));
  CHECK(!cmProfileAllowsFusion(p, "conv2d", "add"));
  /* what fusing did on the device, rule or not: 1 - gain_pct / 100 */
  CHECK_NEAR(cmProfileGetFusionRatio(p, "matmul", "relu"), 0.875, 1e-12);
  CHECK_NEAR(cmProfileGetFusionRatio(p, "conv2d", "add"), 1.04, 1e-12);
  CHECK(isnan(cmProfileGetFusionRatio(p, "pad", "pool")));
  CHECK(isnan(cmProfileGetFusionRatio(p, "relu", "matmul")));
  cmProfileDestroy(p);
}

/* A measured gain that is not a number below 100% names file, line and
 * column, and the old rules stay. */
TEST(measured_fusion_rules_reject_a_bad_time) {
  CmProfile p = profileWith("measured-bad", NULL, kLine);
  char path[4200];
  snprintf(path, sizeof path, "%s/measured-bad.csv", scratch);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs("producer,consumer,decision,gain_pct\n"
        "matmul,relu,yes,100\n",
        f);
  fclose(f);
  CmError e;
  CHECK(cmProfileLoadFusionRules(p, path, &e) == CM_ERR_FORMAT);
  CHECK(strstr(e.message, ":2: column 'gain_pct'") != NULL);
  CHECK(cmProfileAllowsFusion(p, "matmul", "add"));
  cmProfileDestroy(p);
}

TEST(exact_hit_returns_measured_value_unchanged) {
  CmProfile p = profileWith("exact", NULL, kLine);
  CmEstimate e = ask(p, "matmul", "2", "64", "64", true);
  CHECK(e.source == CM_SOURCE_MEASURED && e.method == CM_METHOD_EXACT);
  CHECK(e.latencyUs == 20.0);
  cmProfileDestroy(p);
}

TEST(linear_midpoint_and_quarter_point) {
  CmProfile p = profileWith("line", NULL, kLine);
  CmEstimate mid = ask(p, "matmul", "3", "64", "64", true);
  CHECK(mid.source == CM_SOURCE_INTERPOLATED && mid.dim == 1);
  CHECK_NEAR(mid.latencyUs, 30.0, 1e-12);
  CmEstimate quarter = ask(p, "matmul", "2.5", "64", "64", true);
  CHECK_NEAR(quarter.latencyUs, 25.0, 1e-12);
  CHECK(quarter.lo[0] == 2 && quarter.hi[0] == 4);
  cmProfileDestroy(p);
}

TEST(out_of_range_is_never_extrapolated) {
  CmProfile p = profileWith("range", NULL, kLine);
  CmEstimate e = ask(p, "matmul", "8", "64", "64", true);
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  CHECK(strstr(e.reason, "1D: no line brackets") != NULL);
  cmProfileDestroy(p);
}

TEST(interpolation_off_is_exact_then_roofline) {
  CmProfile p = profileWith("rollback", NULL, kLine);
  CmEstimate off = ask(p, "matmul", "3", "64", "64", false);
  CHECK(off.source == CM_SOURCE_ROOFLINE);
  CHECK(strstr(off.reason, "interpolation off") != NULL);
  CmEstimate hit = ask(p, "matmul", "4", "64", "64", false);
  CHECK(hit.source == CM_SOURCE_MEASURED && hit.latencyUs == 40.0);
  cmProfileDestroy(p);
}

TEST(roofline_is_max_of_bounds_plus_launch) {
  CmProfile p = profileWith("roofline", NULL, kLine);
  /* device: 1e15 bf16 x 0.5, 1e12 B/s x 0.5, launch 2 us. */
  CmEstimate e = ask(p, "matmul", "1024", "1024", "1024", true);
  double flops = 2.0 * 1024 * 1024 * 1024, bytes = 3.0 * 1024 * 1024 * 2;
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  CHECK_NEAR(e.computeUs, flops / 0.5e15 * 1e6, 1e-12);
  CHECK_NEAR(e.memoryUs, bytes / 0.5e12 * 1e6, 1e-12);
  CHECK_NEAR(e.latencyUs, fmax(e.computeUs, e.memoryUs) + 2, 1e-12);
  CHECK(e.bound ==
        (e.computeUs > e.memoryUs ? CM_BOUND_COMPUTE : CM_BOUND_MEMORY));
  cmProfileDestroy(p);
}

TEST(per_kernel_device_values_override_device_wide_ones) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/perkernel", scratch);
  CHECK(testMakeProfile(dir, NULL, kLine));
  CHECK(testWriteFile(dir, "device.csv",
                      "key,value\npeak_flops.bf16,1e15\nmem_bw,1e12\n"
                      "launch_us,2\nlaunch_us.matmul,10\n"
                      "compute_efficiency,1\ncompute_efficiency.matmul,0.5\n"
                      "memory_efficiency,1\nmemory_efficiency.matmul,0.25\n"));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  CmEstimate e = ask(p, "matmul+add", "100", "100", "100", false);
  CHECK(e.source == CM_SOURCE_ROOFLINE && e.launchUs == 10);
  CHECK_NEAR(e.computeUs, 2e6 / (1e15 * 0.5) * 1e6, 1e-12);
  CHECK_NEAR(e.memoryUs, 3e4 * 2 / (1e12 * 0.25) * 1e6, 1e-12);
  CmField fields[] = {{"dtype", "bf16"}};
  CmQuery other = {"conv2d", fields, 1, 1e9, 1e6};
  CHECK(cmProfileEstimate(p, &other, NULL, &e, NULL) == CM_OK);
  CHECK(e.launchUs == 2); /* no table kernel: the device-wide values */
  CHECK_NEAR(e.computeUs, 1e9 / 1e15 * 1e6, 1e-12);
  cmProfileDestroy(p);
}

/* A host profile's efficiency slopes (latency-profile, calibrate_slopes.c):
 * the efficiency is a power law of the axes inside the fitted range and
 * held at its edge outside, never extrapolated; a kernel without slopes is
 * unchanged. Efficiency 0.5 at the centre (n = 100 of [10, 1000]), slope
 * -1 along n: twice the efficiency at n = 50, half at n = 200, and at
 * n = 5000 the edge's (n = 1000: a tenth of the centre's). Only on the
 * side the kernel's efficiency is on. */
TEST(efficiency_slopes_scale_the_roofline_inside_their_range) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/slopes", scratch);
  CHECK(testMakeProfile(dir, NULL, kLine));
  CHECK(testWriteFile(
      dir, "device.csv",
      "key,value\npeak_flops.bf16,1e15\nmem_bw,1e12\n"
      "compute_efficiency,1\nmemory_efficiency,1e-9\n"
      "compute_efficiency.matmul,0.5\n"
      "efficiency_slope.matmul.n,-1\n"
      "efficiency_lo.matmul.n,10\nefficiency_hi.matmul.n,1000\n"));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  double at[] = {100, 50, 200, 5000}, scale[] = {1, 2, 0.5, 0.1};
  for (int i = 0; i < 4; i++) {
    char n[16];
    snprintf(n, sizeof n, "%g", at[i]);
    CmEstimate e = ask(p, "matmul", "100", n, "100", false);
    double flops = 2.0 * 100 * at[i] * 100;
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e.computeUs, flops / (1e15 * 0.5 * scale[i]) * 1e6, 1e-9);
    /* the slope was fitted on the compute side, where matmul's efficiency
       is: the device-wide memory efficiency keeps its value */
    CHECK_NEAR(e.memoryUs, e.bytes / (1e12 * 1e-9) * 1e6, 1e-9);
    CHECK(i == 0 || strstr(e.reason, "efficiency_slope") != NULL);
  }
  CmField fields[] = {{"dtype", "bf16"}};
  CmQuery other = {"conv2d", fields, 1, 1e9, 1e6};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &other, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.computeUs, 1e9 / 1e15 * 1e6, 1e-12); /* no slopes: as before */
  cmProfileDestroy(p);
  /* a hand-made slope of 50: the factor is held at 1e3, the answer finite */
  CHECK(testWriteFile(
      dir, "device.csv",
      "key,value\npeak_flops.bf16,1e15\nmem_bw,1e12\n"
      "compute_efficiency,1\nmemory_efficiency,1e-9\n"
      "compute_efficiency.matmul,0.5\n"
      "efficiency_slope.matmul.n,50\n"
      "efficiency_lo.matmul.n,10\nefficiency_hi.matmul.n,1000\n"));
  CHECK(testLoadProfile(dir, &p));
  e = ask(p, "matmul", "100", "1000", "100", false);
  CHECK_NEAR(e.computeUs, 2.0 * 100 * 1000 * 100 / (1e15 * 0.5 * 1e3) * 1e6,
             1e-9);
  cmProfileDestroy(p);
}

/* The device of a host profile with neither families nor a channels-last
 * efficiency: f32 at 1 GFLOP/s, device-wide compute efficiency 2. */
#define PLAIN_HOST_DEVICE                                                      \
  "key,value\npeak_flops.f32,1e9\nmem_bw,1e12\ncompute_efficiency,2\n"

/* A host profile measures the types its models have (conv2d+batchnorm+relu);
 * a hidden model's plain conv2d or conv2d+relu has no table and takes the
 * efficiency and slopes latency-profile fitted over the anchor's family
 * (conv2d+*), its shape read through a sibling's fields: efficiency 0.5 at
 * cin = 100 of [10, 1000], slope -1. So does a type with a table but no
 * efficiency, keeping its other keys; a type's own efficiency wins. A type
 * without a family (depthwise here) keeps the device-wide value, and so
 * does a profile without family keys. */
static const char kConvPolicy[] =
    "kernel,axes,regime\n"
    "conv2d+batchnorm+relu,batch hw cin cout,stride window channels_last "
    "dtype\n"
    "conv2d+batchnorm,batch hw cin cout,stride window channels_last dtype\n";
static const char kConvTable[] =
    "kernel,batch,hw,cin,cout,stride,window,channels_last,dtype,latency_us\n"
    "conv2d+batchnorm+relu,1,64,16,16,1,9,0,f32,100\n"
    "conv2d+batchnorm,1,64,16,16,1,9,0,f32,100\n";

static CmEstimate askConv(CmProfile p, const char *kernel, const char *cin) {
  CmField fields[] = {{"batch", "1"},   {"hw", "3136"},        {"cin", cin},
                      {"cout", "64"},   {"stride", "1"},       {"window", "9"},
                      {"dtype", "f32"}, {"channels_last", "0"}};
  CmQuery q = {kernel, fields, 8, 1e9, 1};
  CmEstimate e;
  memset(&e, 0, sizeof e);
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  return e;
}

TEST(a_type_without_an_efficiency_takes_its_familys) {
  static const char device[] = PLAIN_HOST_DEVICE
      "memory_efficiency,1\ncompute_efficiency.conv2d+*,0.5\n"
      "efficiency_slope.conv2d+*.cin,-1\nefficiency_lo.conv2d+*.cin,10\n"
      "efficiency_hi.conv2d+*.cin,1000\n"
      "compute_efficiency.conv2d+batchnorm+relu,4\n"
      "launch_us.conv2d+batchnorm,7\n";
  CmProfile p = profileWithDevice("family", kConvPolicy, kConvTable, device);
  CmProfile none = profileWithDevice("family-none", kConvPolicy, kConvTable,
                                     PLAIN_HOST_DEVICE);
  CHECK(!cmProfileIsNull(p) && !cmProfileIsNull(none));
  const char *kernels[] = {"conv2d", "conv2d+relu"};
  for (int i = 0; i < 2; i++) {
    CmEstimate e = askConv(p, kernels[i], "100");
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 0.5) * 1e6, 1e-6);
    CHECK(strstr(e.reason, "conv2d+*") != NULL);
    CHECK_NEAR(askConv(p, kernels[i], "50").latencyUs, 1e9 / 1e9 * 1e6, 1e-6);
    CHECK_NEAR(askConv(none, kernels[i], "50").latencyUs, 1e9 / 2e9 * 1e6,
               1e-6);
  }
  /* a field that is no number leaves the law at its centre, no error */
  CHECK_NEAR(askConv(p, "conv2d", "?").latencyUs, 1e9 / (1e9 * 0.5) * 1e6,
             1e-6);
  /* a type's own efficiency beats its family's; a type with a table but no
     efficiency (all its shapes left out of the fit) takes the family's and
     keeps its own other keys */
  CmEstimate own = askConv(p, "conv2d+batchnorm+relu", "50");
  CHECK_NEAR(own.latencyUs, 1e9 / 4e9 * 1e6, 1e-6);
  CHECK(strstr(own.reason, "+*") == NULL);
  CmEstimate tabled = askConv(p, "conv2d+batchnorm", "50");
  CHECK(tabled.source == CM_SOURCE_ROOFLINE && tabled.launchUs == 7);
  CHECK_NEAR(tabled.latencyUs, 1e9 / 1e9 * 1e6 + 7, 1e-6);
  CmEstimate dw = askConv(p, "depthwise_conv2d", "50");
  CHECK_NEAR(dw.latencyUs, 1e9 / 2e9 * 1e6, 1e-6);
  CHECK(strstr(dw.reason, "+*") == NULL);
  /* prepared, the family's fields are its axes */
  CmField fields[] = {{"dtype", "f32"}, {"stride", "1"}, {"window", "9"}};
  CmQuery q = {"conv2d", fields, 3, -1, -1};
  CmPrepared prep;
  CHECK(cmProfilePrepare(p, &q, &prep, NULL) == CM_OK);
  CHECK(prep.numAxes == 4 && !strcmp(prep.axisNames[2], "cin"));
  double axes[4] = {1, 3136, 50, 64};
  CmEstimate e;
  CHECK(cmPreparedEstimate(&prep, axes, 1e9, 1, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, 1e9 / 1e9 * 1e6, 1e-6);
  CHECK(cmPreparedEstimate(&prep, NULL, 1e9, 1, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 0.5) * 1e6, 1e-6);
  cmProfileDestroy(p);
  cmProfileDestroy(none);
}

/* The reduction law (efficiency_reduction_k0|lo|hi): the efficiency times
 * (1 + k0 / k) / (1 + k0 / centre) at the query's multiply-adds per output,
 * k = cin x window for a conv, clamped to the fitted range. k0 = 32 over
 * [16, 4608] (centre 271.5): a 3 x 3 conv over 16 channels (k = 144) runs
 * at 1.093 x the centre's efficiency, over 512 (4608) at 0.901, over 1024
 * at 512's; the family's law answers a type without its own. */
TEST(the_reduction_law_scales_a_convs_efficiency) {
  static const char device[] =
      PLAIN_HOST_DEVICE "memory_efficiency,1\ncompute_efficiency.conv2d+*,0.5\n"
                        "efficiency_reduction_k0.conv2d+*,32\n"
                        "efficiency_reduction_lo.conv2d+*,16\n"
                        "efficiency_reduction_hi.conv2d+*,4608\n";
  CmProfile p = profileWithDevice("reduction", kConvPolicy, kConvTable, device);
  CHECK(!cmProfileIsNull(p));
  const char *cins[] = {"16", "512", "1024"};
  double ks[] = {144, 4608, 4608};
  for (int i = 0; i < 3; i++) {
    double factor = (1 + 32 / ks[i]) / (1 + 32 / sqrt(16 * 4608.0));
    CmEstimate e = askConv(p, "conv2d+relu", cins[i]);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 0.5 * factor) * 1e6, 1e-6);
  }
  CHECK_NEAR(cmReductionLawFactor(144, 32, 16, 4608), 1.0933, 1e-4);
  CHECK(cmReductionLawFactor(144, 0, 16, 4608) == 1 &&
        cmReductionLawFactor(NAN, 32, 16, 4608) == 1);
  cmProfileDestroy(p);
}

/* device.csv is looked up by bisection: a key written many times answers
 * with its first row, as a scan of the file would, and every key is found
 * among many. */
TEST(a_repeated_device_key_answers_with_its_first_row) {
  char device[4096] = "key,value\nname,repeated\n";
  size_t used = strlen(device);
  for (int i = 0; i < 60; i++) /* k_00..k_59, and five launch_us among them */
  {
    used += (size_t)snprintf(device + used, sizeof device - used, "k_%02d,%d\n",
                             i, i);
    if (i % 12 == 5)
      used += (size_t)snprintf(device + used, sizeof device - used,
                               "launch_us,%d\n", i);
  }
  CmProfile p = profileWithDevice("repeated-key", NULL, kLine, device);
  CHECK(!cmProfileIsNull(p));
  CHECK(cmProfileGetDeviceNumber(p, "launch_us", -1) == 5);
  for (int i = 0; i < 60; i++) {
    char key[8];
    snprintf(key, sizeof key, "k_%02d", i);
    CHECK(cmProfileGetDeviceNumber(p, key, -1) == i);
  }
  CHECK(cmProfileGetDeviceNumber(p, "k_", -1) == -1);
  CHECK(cmProfileGetDeviceNumber(p, "k_60", -1) == -1);
  CHECK(cmProfileGetDeviceNumber(p, "name", -1) == -1); /* text: fallback */
  CHECK(!strcmp(cmProfileGetDeviceName(p), "repeated"));
  cmProfileDestroy(p);
}

/* Estimates `kernel` at bf16 m = 4, n = k = `size` on a plain (e[0]) and
 * a transposed weight (e[1]): their difference is the copy. */
static void askPlainAndTransposed(CmProfile p, const char *kernel,
                                  const char *size, CmEstimate e[2]) {
  for (int t = 0; t < 2; t++) {
    CmField fields[] = {{"dtype", "bf16"},
                        {"m", "4"},
                        {"n", size},
                        {"k", size},
                        {"weight_transposed", t ? "1" : "0"}};
    CmQuery q = {kernel, fields, 5, -1, -1};
    CHECK(cmProfileEstimate(p, &q, NULL, &e[t], NULL) == CM_OK);
  }
}

/* A host profile's weight copy (latency-profile, calibrate_weight_copy.c):
 * a matmul whose query says weight_transposed=1 pays weight bytes x
 * weight_copy_ns_per_byte on top of its roofline, from
 * weight_copy_min_bytes on; the plain regime and a smaller weight do not.
 * bf16 weights: n = k = 512 is 512 KiB, n = k = 128 is 32 KiB. */
TEST(transposed_weight_pays_its_copy_in_the_roofline) {
  static const char policy[] = "kernel,axes,regime,transform\n"
                               "matmul,m n k,dtype weight_transposed,\n";
  static const char table[] =
      "kernel,dtype,m,n,k,weight_transposed,latency_us\n"
      "matmul,bf16,1,64,64,0,10\n"
      "matmul,bf16,2,64,64,1,20\n";
  CmProfile p =
      profileWithDevice("weight-copy", policy, table,
                        "key,value\npeak_flops.bf16,1e15\nmem_bw,1e12\n"
                        "launch_us,2\nweight_copy_ns_per_byte.matmul,5\n"
                        "weight_copy_min_bytes,131072\n");
  CHECK(!cmProfileIsNull(p));
  const char *sizes[] = {"512", "128"};
  double copyUs[] = {512.0 * 512 * 2 * 5 * 1e-3, 0};
  for (int i = 0; i < 2; i++) {
    CmEstimate e[2];
    askPlainAndTransposed(p, "matmul+add", sizes[i], e);
    CHECK(e[0].source == CM_SOURCE_ROOFLINE);
    CHECK(e[1].source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e[1].latencyUs - e[0].latencyUs, copyUs[i], 1e-9);
    CHECK_NEAR(e[1].launchUs, 2 + copyUs[i], 1e-9);
    CHECK((strstr(e[1].reason, "transposed weight copy") != NULL) == (i == 0));
    CHECK(strstr(e[0].reason, "transposed weight copy") == NULL);
  }
  cmProfileDestroy(p);
}

/* A matmul type without a table of its own (a projection with nothing fused,
 * on a host profile whose tables are keyed without weight_transposed) is
 * answered through the built-in matmul policy, which does not key on
 * weight_transposed: its roofline pays for the copy all the same. */
TEST(transposed_weight_copy_needs_no_policy_key) {
  CmProfile p = profileWithDevice("weight-copy-builtin-policy", NULL, kLine,
                                  "key,value\npeak_flops.bf16,1e15\n"
                                  "mem_bw,1e12\nweight_copy_ns_per_byte,5\n"
                                  "weight_copy_min_bytes,131072\n");
  CHECK(!cmProfileIsNull(p));
  CmEstimate e[2];
  askPlainAndTransposed(p, "matmul", "512", e);
  CHECK_NEAR(e[1].latencyUs - e[0].latencyUs, 512.0 * 512 * 2 * 5 * 1e-3, 1e-9);
  cmProfileDestroy(p);
}

/* The copy's rate along the weight's size (weight_copy_slope, fitted
 * over [lo, hi] bytes): (bytes / centre) ^ slope inside, the edge's rate
 * beyond. bf16 weights of 512 KiB, 2 MiB (the centre) and 8 MiB against a
 * law fitted over 1-4 MiB. */
TEST(copy_rate_follows_the_weight_size_within_its_range) {
  CmProfile p = profileWithDevice("weight-copy-size", NULL, kLine,
                                  "key,value\npeak_flops.bf16,1e15\n"
                                  "mem_bw,1e12\nweight_copy_ns_per_byte,5\n"
                                  "weight_copy_min_bytes,131072\n"
                                  "weight_copy_slope,0.5\n"
                                  "weight_copy_lo_bytes,1048576\n"
                                  "weight_copy_hi_bytes,4194304\n");
  CHECK(!cmProfileIsNull(p));
  const char *sizes[] = {"512", "1024", "2048"};
  double factor[] = {sqrt(0.5), 1, sqrt(2)};
  for (int i = 0; i < 3; i++) {
    CmEstimate e[2];
    askPlainAndTransposed(p, "matmul", sizes[i], e);
    double bytes = atof(sizes[i]) * atof(sizes[i]) * 2;
    CHECK_NEAR(e[1].latencyUs - e[0].latencyUs, bytes * 5 * factor[i] * 1e-3,
               1e-9);
  }
  cmProfileDestroy(p);
}

/* A kernel's scratch buffers (passes/describe.c: bytes it allocates
 * inside, each mapped fresh per call) pay scratch_ns_per_byte each in the
 * roofline, on a type without a table (no policy at all) as on one whose
 * table cannot answer; a measured row already includes them, and a profile
 * without the rate (a GPU's) adds nothing. */
TEST(scratch_buffers_pay_their_pages_in_the_roofline) {
  static const char device[] = "key,value\npeak_flops.bf16,1e15\n"
                               "mem_bw,1e12\nlaunch_us,2\n"
                               "scratch_ns_per_byte,3\n";
  CmProfile p = profileWithDevice("scratch-pages", NULL, kLine, device);
  CmProfile gpu = profileWithDevice("scratch-no-rate", NULL, kLine,
                                    "key,value\npeak_flops.bf16,1e15\n"
                                    "mem_bw,1e12\nlaunch_us,2\n");
  CHECK(!cmProfileIsNull(p) && !cmProfileIsNull(gpu));
  const char *kernels[] = {"silu", "matmul"};
  const char *m[] = {"4", "4"}; /* kLine's rows are at n = k = 64 */
  for (int i = 0; i < 2; i++) {
    CmEstimate e[3];
    for (int t = 0; t < 3; t++) {
      CmField fields[] = {{"dtype", "bf16"},
                          {"m", m[i]},
                          {"n", "512"},
                          {"k", "512"},
                          {"scratch_bytes", "1e6"}};
      CmQuery q = {kernels[i], fields, t ? 5 : 4, 1e6, 1e6};
      CHECK(cmProfileEstimate(t == 2 ? gpu : p, &q, NULL, &e[t], NULL) ==
            CM_OK);
      CHECK(e[t].source == CM_SOURCE_ROOFLINE);
    }
    CHECK_NEAR(e[1].latencyUs - e[0].latencyUs, 1e6 * 3 * 1e-3, 1e-9);
    CHECK_NEAR(e[1].launchUs, 2 + 3000, 1e-9);
    CHECK(strstr(e[1].reason, "fresh scratch pages") != NULL);
    CHECK(strstr(e[0].reason, "fresh scratch pages") == NULL);
    CHECK_NEAR(e[2].latencyUs, e[0].latencyUs, 1e-9);
  }
  /* a prepared query keeps the field for every estimate it answers */
  CmField fields[] = {{"dtype", "bf16"}, {"scratch_bytes", "1e6"}};
  CmQuery q = {"matmul", fields, 2, -1, -1};
  CmPrepared prep;
  CHECK(cmProfilePrepare(p, &q, &prep, NULL) == CM_OK);
  double axes[] = {4, 512, 512};
  CmEstimate e;
  CHECK(cmPreparedEstimate(&prep, axes, 1e6, 1e6, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.launchUs, 2 + 3000, 1e-9);
  /* a measured row answers as measured, scratch or not */
  CmField exact[] = {{"dtype", "bf16"},
                     {"m", "1"},
                     {"n", "64"},
                     {"k", "64"},
                     {"scratch_bytes", "1e6"}};
  q = (CmQuery){"matmul", exact, 5, -1, -1};
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(e.source == CM_SOURCE_MEASURED);
  cmProfileDestroy(p);
  cmProfileDestroy(gpu);
}

/* A channels-last conv on a host profile runs at its anchor's
 * channels_last_efficiency, without the slopes fitted on channels-first
 * ones; a channels-first conv, and a channels-last one on a profile without
 * the key, answer as before; the prepared path agrees with the text one. */
TEST(channels_last_convs_take_their_own_efficiency) {
  static const char device[] =
      PLAIN_HOST_DEVICE "channels_last_efficiency.conv2d,4\n"
                        "channels_last_efficiency.depthwise_conv2d,0.5\n";
  CmProfile p = profileWithDevice("channels-last", NULL, kLine, device);
  CmProfile gpu =
      profileWithDevice("channels-last-none", NULL, kLine, PLAIN_HOST_DEVICE);
  CHECK(!cmProfileIsNull(p) && !cmProfileIsNull(gpu));
  const char *kernels[] = {"conv2d+add", "depthwise_conv2d+relu"};
  const double lastUs[] = {1e9 / (1e9 * 4) * 1e6, 1e9 / (1e9 * 0.5) * 1e6};
  for (int i = 0; i < 2; i++) {
    CmEstimate e[3];
    for (int t = 0; t < 3; t++) {
      CmField fields[] = {{"dtype", "f32"},
                          {"channels_last", t == 1 ? "0" : "1"}};
      CmQuery q = {kernels[i], fields, 2, 1e9, 1};
      CHECK(cmProfileEstimate(t == 2 ? gpu : p, &q, NULL, &e[t], NULL) ==
            CM_OK);
      CHECK(e[t].source == CM_SOURCE_ROOFLINE);
    }
    CHECK_NEAR(e[0].latencyUs, lastUs[i], 1e-6);
    CHECK(strstr(e[0].reason, "channels-last conv") != NULL);
    CHECK_NEAR(e[1].latencyUs, 1e9 / (1e9 * 2) * 1e6, 1e-6);
    CHECK(strstr(e[1].reason, "channels-last conv") == NULL);
    CHECK_NEAR(e[2].latencyUs, e[1].latencyUs, 1e-6);
  }
  CmField fields[] = {{"dtype", "f32"}, {"channels_last", "1"}};
  CmQuery q = {"conv2d+add", fields, 2, -1, -1};
  CmPrepared prep;
  CHECK(cmProfilePrepare(p, &q, &prep, NULL) == CM_OK);
  CmEstimate e;
  CHECK(cmPreparedEstimate(&prep, NULL, 1e9, 1, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, lastUs[0], 1e-6);
  cmProfileDestroy(p);
  cmProfileDestroy(gpu);
}

/* A channels-last conv on a profile with its anchor's curve runs at the
 * curve's efficiency at its reduction (cin x window), linear in ln k between
 * the points written and the edge one beyond them; the median answers for
 * an anchor without a curve (depthwise here) and for a query whose
 * reduction is unknown. A channels-first conv ignores both. */
TEST(channels_last_convs_read_their_curve_at_their_reduction) {
  static const char device[] =
      PLAIN_HOST_DEVICE "memory_efficiency,1\n"
                        "channels_last_efficiency.conv2d,4\n"
                        "channels_last_efficiency.conv2d.k16,8\n"
                        "channels_last_efficiency.conv2d.k64,4\n"
                        "channels_last_efficiency.conv2d.k256,2\n"
                        "channels_last_efficiency.depthwise_conv2d,0.5\n";
  CmProfile p =
      profileWithDevice("channels-last-curve", kConvPolicy, kConvTable, device);
  CHECK(!cmProfileIsNull(p));
  /* cin x window 9: 9 (edge), 36 (between 16 and 64), 144, 4608 (edge) */
  const char *cins[] = {"1", "4", "16", "512"};
  const double expected[] = {8, 8 - 4 * log(36 / 16.0) / log(4),
                             4 - 2 * log(144 / 64.0) / log(4), 2};
  for (int i = 0; i < 4; i++) {
    CmField fields[] = {{"batch", "1"},   {"hw", "3136"},
                        {"cin", cins[i]}, {"cout", "64"},
                        {"stride", "1"},  {"window", "9"},
                        {"dtype", "f32"}, {"channels_last", "1"}};
    CmQuery q = {"conv2d+add", fields, 8, 1e9, 1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * expected[i]) * 1e6, 1e-6);
    CHECK(strstr(e.reason, "at reduction") != NULL);
    fields[7].value = "0"; /* channels first: the family's way */
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(strstr(e.reason, "channels-last conv") == NULL);
  }
  CmField dw[] = {{"batch", "1"},   {"hw", "3136"},        {"cin", "64"},
                  {"cout", "64"},   {"stride", "1"},       {"window", "9"},
                  {"dtype", "f32"}, {"channels_last", "1"}};
  CmQuery q = {"depthwise_conv2d+relu", dw, 8, 1e9, 1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 0.5) * 1e6, 1e-6);
  CmField bare[] = {{"dtype", "f32"}, {"channels_last", "1"}};
  q = (CmQuery){"conv2d+add", bare, 2, 1e9, 1}; /* no cin: the median */
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 4) * 1e6, 1e-6);
  CHECK(strstr(e.reason, "at reduction") == NULL);
  cmProfileDestroy(p);
  /* a value set by hand for the dtype answers before the curve */
  char own[sizeof device + 64];
  snprintf(own, sizeof own, "%schannels_last_efficiency.conv2d.f32,16\n",
           device);
  p = profileWithDevice("channels-last-own-dtype", kConvPolicy, kConvTable,
                        own);
  CHECK(!cmProfileIsNull(p));
  CmField mine[] = {{"batch", "1"},   {"hw", "3136"},        {"cin", "16"},
                    {"cout", "64"},   {"stride", "1"},       {"window", "9"},
                    {"dtype", "f32"}, {"channels_last", "1"}};
  q = (CmQuery){"conv2d+add", mine, 8, 1e9, 1};
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.latencyUs, 1e9 / (1e9 * 16) * 1e6, 1e-6);
  cmProfileDestroy(p);
}

static double curveAt(const void *context, int index) {
  const double *points = context;
  return points[index];
}

TEST(channels_last_convs_pay_for_their_epilogue_passes) {
  static const char device[] =
      PLAIN_HOST_DEVICE "memory_efficiency,1\n"
                        "channels_last_efficiency.conv2d,4\n"
                        "epilogue_ns_per_element.b16384,0.5\n"
                        "epilogue_ns_per_element.b1048576,2\n";
  CmProfile p =
      profileWithDevice("epilogue-curve", kConvPolicy, kConvTable, device);
  CHECK(!cmProfileIsNull(p));
  /* 7 passes over 3136 x 64 f32 elements: 784 KiB a pass, between the
     points at 256 KiB (unwritten) and 1 MiB: linear in ln bytes between
     16 KiB and 1 MiB */
  double elements = 7 * 3136 * 64.0, pass = 3136 * 64 * 4.0;
  double ns = 0.5 + 1.5 * log(pass / 16384) / log(1048576 / 16384.0);
  char text[32];
  snprintf(text, sizeof text, "%.17g", elements);
  CmField fields[] = {{"batch", "1"},
                      {"hw", "3136"},
                      {"cin", "16"},
                      {"cout", "64"},
                      {"stride", "1"},
                      {"window", "9"},
                      {"dtype", "f32"},
                      {"channels_last", "1"},
                      {"epilogue_elements", text},
                      {"epilogue_passes", "7"}};
  CmQuery q = {"conv2d+add", fields, 10, 1e9, 1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  double conv = 1e9 / (1e9 * 4) * 1e6;
  CHECK_NEAR(e.latencyUs, conv + elements * ns * 1e-3, 1e-6);
  CHECK(strstr(e.reason, "epilogue passes") != NULL);
  /* f16 elements: half the bytes a pass, so a lower rate */
  fields[6].value = "f16";
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  double half = 0.5 + 1.5 * log(pass / 2 / 16384) / log(1048576 / 16384.0);
  CHECK_NEAR(e.launchUs, elements * half * 1e-3, 1e-6);
  /* a channels-first conv's efficiency was fitted with its epilogue in */
  fields[6].value = "f32";
  fields[7].value = "0";
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(strstr(e.reason, "epilogue") == NULL);
  CHECK_NEAR(e.launchUs, 0, 1e-12);
  cmProfileDestroy(p);
}

TEST(epilogue_curve_reads_the_bytes_of_a_pass) {
  double points[CM_EPILOGUE_POINTS];
  for (int i = 0; i < CM_EPILOGUE_POINTS; i++)
    points[i] = NAN;
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 1e6, 2, "f32"), 0, 0); /* none */
  points[1] = 1;                                                  /* 64 KiB */
  points[3] = 3;                                                  /* 1 MiB */
  /* 2 passes of 65536 f32 elements: 256 KiB each, halfway in ln bytes */
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 131072, 2, "f32"), 131072 * 2e-3,
             1e-9);
  /* f16: 128 KiB a pass, a quarter of the way from 64 KiB to 1 MiB */
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 131072, 2, "f16"), 131072 * 1.5e-3,
             1e-9);
  /* an unknown or no dtype is 4 bytes an element */
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 131072, 2, "x7"), 131072 * 2e-3,
             1e-9);
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 131072, 2, NULL), 131072 * 2e-3,
             1e-9);
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 100, 1, "f32"), 100 * 1e-3, 1e-12);
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 1e9, 1, "f32"), 1e9 * 3e-3, 1e-3);
  CHECK_NEAR(cmEpilogueUs(curveAt, points, 1e6, 0, "f32"), 0, 0);
  CHECK_NEAR(cmEpilogueUs(curveAt, points, NAN, 1, "f32"), 0, 0);
  char key[64];
  cmEpilogueKey(key, sizeof key, 0);
  CHECK(!strcmp(key, "epilogue_ns_per_element.b16384"));
  cmEpilogueKey(key, sizeof key, CM_EPILOGUE_POINTS);
  CHECK(!strcmp(key, ""));
}

TEST(channels_last_curve_interpolates_in_log_reduction) {
  double points[CM_CHANNELS_LAST_POINTS];
  for (int i = 0; i < CM_CHANNELS_LAST_POINTS; i++)
    points[i] = NAN;
  CHECK(isnan(cmChannelsLastEfficiency(curveAt, points, 100)));
  points[4] = 1;  /* k16 */
  points[8] = 3;  /* k256 */
  points[9] = -1; /* not a point */
  CHECK_NEAR(cmChannelsLastEfficiency(curveAt, points, 64), 2, 1e-12);
  CHECK_NEAR(cmChannelsLastEfficiency(curveAt, points, 2), 1, 1e-12);
  CHECK_NEAR(cmChannelsLastEfficiency(curveAt, points, 1e6), 3, 1e-12);
  CHECK(isnan(cmChannelsLastEfficiency(curveAt, points, 0)));
  CHECK(isnan(cmChannelsLastEfficiency(curveAt, points, NAN)));
  char key[96];
  cmChannelsLastKey(key, sizeof key, "conv2d", 6);
  CHECK(!strcmp(key, "channels_last_efficiency.conv2d.k64"));
  cmChannelsLastKey(key, sizeof key, "conv2d", CM_CHANNELS_LAST_POINTS);
  CHECK(!strcmp(key, ""));
}

/* The column a loop-lowered matmul walks (latency/column_walk.h) in a 48
 * KiB 12-way L1 (64 sets) and a 1 MiB 8-way L2 (2048 sets), 64 B lines:
 * f32 n = 1000 (62.5 lines a step) spreads over every set, n = 512 (32
 * lines) over 2 sets of L1 and 64 of L2, n = 1024 over 1 and 32. */
static const CmCacheGeometry kEpyc = {49152, 12, 1048576, 8, 64};

TEST(column_walk_level_counts_the_busiest_set) {
  CHECK(cmColumnWalkLevel(&kEpyc, 512, 4000) == 1);  /* 512 of 768 lines */
  CHECK(cmColumnWalkLevel(&kEpyc, 1280, 4000) == 2); /* > 768 lines    */
  CHECK(cmColumnWalkLevel(&kEpyc, 24, 2048) == 1);   /* 2 sets x 12    */
  CHECK(cmColumnWalkLevel(&kEpyc, 25, 2048) == 2);
  CHECK(cmColumnWalkLevel(&kEpyc, 512, 2048) == 2); /* 64 sets x 8   */
  CHECK(cmColumnWalkLevel(&kEpyc, 513, 2048) == 3);
  CHECK(cmColumnWalkLevel(&kEpyc, 4096, 4096) == 3);
  CHECK(cmColumnWalkLevel(&kEpyc, 3072, 8) == 1); /* 384 lines, packed */
  CmCacheGeometry none = {0, 0, 0, 0, 0}, odd = {49152, 7, 1048576, 8, 64};
  CHECK(cmColumnWalkLevel(&none, 512, 2048) == 0);
  CHECK(cmColumnWalkLevel(&odd, 512, 2048) == 0); /* 109.7 sets */
  CHECK(cmColumnWalkLevel(&kEpyc, 0, 2048) == 0);
  CHECK(cmColumnWalkLevel(NULL, 512, 2048) == 0);
}

/* The L1 sets a column falls in: n = 512 f32 (2048 B, 32 lines a step) 2
 * of 64, n = 128 (8 lines) 8, n = 1000 every set, a stride under a line
 * its consecutive lines; none without a geometry. */
TEST(column_walk_counts_the_l1_sets_a_column_crowds) {
  CHECK(cmColumnWalkL1Sets(&kEpyc, 128, 2048) == 2);
  CHECK(cmColumnWalkL1Sets(&kEpyc, 512, 512) == 8);
  CHECK(cmColumnWalkL1Sets(&kEpyc, 1280, 4000) == 64);
  CHECK(cmColumnWalkL1Sets(&kEpyc, 100, 4) == 7);
  CHECK(cmColumnWalkL1Sets(&kEpyc, 1e15, 1e-12) == 16); /* 1000 B */
  CmCacheGeometry none = {0, 0, 0, 0, 0};
  CHECK(cmColumnWalkL1Sets(&none, 128, 2048) == 0);
  CHECK(cmColumnWalkL1Sets(NULL, 128, 2048) == 0);
  CHECK(cmColumnWalkL1Sets(&kEpyc, 0, 2048) == 0);
}

/* Shapes no model has, from latency-query or a hand-made device.csv,
 * answer at once: a stride under a line is not counted element by
 * element (1e15 elements of 1e-12 bytes), a span past 2^52 bytes is no
 * shape (n = 1e307: its lines would overflow), and ways are bounded. */
TEST(column_walk_level_is_bounded_on_absurd_shapes) {
  CHECK(cmColumnWalkLevel(&kEpyc, 1e15, 1e-12) == 1);
  CHECK(cmColumnWalkLevel(&kEpyc, 1e15, 1e-3) == 3);
  CHECK(cmColumnWalkLevel(&kEpyc, 10, 4e307) == 0);
  CmCacheGeometry wide = {64 * 1e12 * 64, 1e12, 1048576, 8, 64};
  CHECK(cmColumnWalkLevel(&wide, 1e9, 4096) == 0);
}

/* A host profile with the geometry and walk rates: a matmul whose column
 * spills gets at least multiply-adds x the rate of its level as its memory
 * side, per kernel and dtype before per dtype; one whose column stays in
 * L1 gets the plain roofline. */
static const char kWalkTable[] = "kernel,dtype,m,n,k,latency_us\n"
                                 "matmul,f32,1,8,8,1\n";
static const char kWalkDevice[] =
    "key,value\npeak_flops.f32,1e12\nmem_bw,1e12\n"
    "l1d_bytes,49152\nl1d_ways,12\nl2_bytes,1048576\nl2_ways,8\n"
    "cache_line_bytes,64\ncolumn_walk_ns_l2.f32,1.5\n"
    "column_walk_ns_mem.f32,3\ncolumn_walk_ns_mem.matmul.f32,4\n";

TEST(spilled_weight_columns_set_the_matmul_roofline) {
  CmProfile p = profileWithDevice("column-walk", NULL, kWalkTable, kWalkDevice);
  CHECK(!cmProfileIsNull(p));
  struct {
    const char *kernel, *n, *k;
    double ns;
  } cases[] = {{"matmul+add", "512", "128", 1.5}, /* L2, per dtype */
               {"matmul+add", "1024", "4096", 4}, /* memory, the matmul
                                                     table's kernel's */
               {"matmul+add", "1000", "512", 0}}; /* L1: none      */
  for (int i = 0; i < 3; i++) {
    CmField fields[] = {
        {"dtype", "f32"}, {"m", "8"}, {"n", cases[i].n}, {"k", cases[i].k}};
    CmQuery q = {cases[i].kernel, fields, 4, -1, -1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    double macs = 8 * atof(cases[i].n) * atof(cases[i].k);
    double plain = (macs * 8 + 4 * atof(cases[i].k) * atof(cases[i].n)) / 1e12 *
                   1e6; /* bytes: the weight dominates */
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    if (cases[i].ns > 0) {
      CHECK_NEAR(e.memoryUs, macs * cases[i].ns * 1e-3, 1e-6);
      CHECK(e.bound == CM_BOUND_MEMORY && strstr(e.reason, "weight column"));
    } else {
      CHECK(e.memoryUs < plain && !strstr(e.reason, "weight column"));
    }
  }
  cmProfileDestroy(p);
}

/* The measured grid (latency/column_walk.h), point (i, j) at 1 + j + 10 i
 * ns: exact on its points, linear in log2 sets and log2 k between them
 * (sets 2 is halfway from 1 to 4), held at its edges outside, and no
 * answer when a corner around the query is missing, infinite or negative. */
typedef struct {
  int setsIndex, kIndex;
  double value;
} GridHole;

static double gridAt(const void *context, int setsIndex, int kIndex) {
  const GridHole *hole = context;
  if (hole && hole->setsIndex == setsIndex && hole->kIndex == kIndex)
    return hole->value;
  return 1 + kIndex + 10 * setsIndex;
}

TEST(column_walk_grid_interpolates_in_log_sets_and_k) {
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 1, 256), 5, 1e-12);
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 16, 4096), 29, 1e-12);
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 2, 4096), 14, 1e-12);
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 64, 362.038672), 35.5, 1e-6);
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 8, 1448.15468), 22.5, 1e-6);
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 0.5, 10), 1, 1e-12); /* edges */
  CHECK_NEAR(cmWalkGridNs(gridAt, NULL, 1000, 1e9), 40, 1e-12);
  GridHole missing = {1, 7, NAN}; /* sets 4, k 2048 */
  CHECK(isnan(cmWalkGridNs(gridAt, &missing, 2, 3000)));
  CHECK(isnan(cmWalkGridNs(gridAt, &missing, 4, 2048)));
  CHECK_NEAR(cmWalkGridNs(gridAt, &missing, 16, 256), 25, 1e-12);
  GridHole beside = {0, 4, NAN}; /* a zero-weight neighbour of (4, 256) */
  CHECK_NEAR(cmWalkGridNs(gridAt, &beside, 4, 256), 15, 1e-12);
  GridHole infinite = {1, 7, INFINITY}, negative = {1, 7, -1};
  CHECK(isnan(cmWalkGridNs(gridAt, &infinite, 2, 3000)));
  CHECK(isnan(cmWalkGridNs(gridAt, &negative, 2, 3000)));
  CHECK(isnan(cmWalkGridNs(NULL, NULL, 1, 256)));
  GridHole shortest = {3, 0, NAN}; /* sets 64, k 32 */
  CHECK(cmWalkGridShortestMeasured(gridAt, &missing));
  CHECK(!cmWalkGridShortestMeasured(gridAt, &shortest) &&
        !cmWalkGridShortestMeasured(NULL, NULL));
  CHECK(isnan(cmWalkGridNs(gridAt, NULL, 0, 256)));
  CHECK(isnan(cmWalkGridNs(gridAt, NULL, 1, NAN)));
  char key[64];
  cmWalkGridKey(key, sizeof key, CM_WALK_READS, "f32", 2, 9);
  CHECK(!strcmp(key, "column_walk_grid_ns.f32.s16.k8192"));
}

/* Point i of the accumulator walk is 1 + i ns (channels 8, 16, 32, 64,
 * 256), point `hole->kIndex` (when given) `hole->value`. */
static double accumulatorAt(const void *context, int index) {
  const GridHole *hole = context;
  return hole && hole->kIndex == index ? hole->value : 1 + index;
}

/* The accumulator walk interpolates in log2 channels between its points,
 * holds the edge points outside them and has no rate where a point it
 * needs is missing, infinite or negative. A plane aliases when it is a
 * whole number (>= 1) of L1 ways (4 KiB here), never with no usable L1. */
TEST(accumulator_walk_interpolates_in_log_channels) {
  CHECK_NEAR(cmAccumulatorWalkNs(accumulatorAt, NULL, 16), 2, 1e-12);
  CHECK_NEAR(cmAccumulatorWalkNs(accumulatorAt, NULL, 128), 4.5, 1e-12);
  CHECK_NEAR(cmAccumulatorWalkNs(accumulatorAt, NULL, 2), 1, 1e-12);
  CHECK_NEAR(cmAccumulatorWalkNs(accumulatorAt, NULL, 4096), 5, 1e-12);
  GridHole missing = {0, 3, NAN}, infinite = {0, 3, INFINITY};
  GridHole negative = {0, 3, -1};
  CHECK(isnan(cmAccumulatorWalkNs(accumulatorAt, &missing, 100)));
  CHECK(isnan(cmAccumulatorWalkNs(accumulatorAt, &infinite, 100)));
  CHECK(isnan(cmAccumulatorWalkNs(accumulatorAt, &negative, 100)));
  CHECK_NEAR(cmAccumulatorWalkNs(accumulatorAt, &missing, 32), 3, 1e-12);
  CHECK(isnan(cmAccumulatorWalkNs(NULL, NULL, 32)));
  CHECK(cmAccumulatorWalkMeasured(accumulatorAt, NULL));
  CHECK(!cmAccumulatorWalkMeasured(accumulatorAt, &missing) &&
        !cmAccumulatorWalkMeasured(accumulatorAt, &infinite) &&
        !cmAccumulatorWalkMeasured(NULL, NULL));
  CHECK(isnan(cmAccumulatorWalkNs(accumulatorAt, NULL, 0)));
  CmCacheGeometry g = {49152, 12, 1048576, 8, 64}, none = {0, 0, 0, 0, 0};
  CHECK(cmAccumulatorWalkAliases(&g, 4096) &&
        cmAccumulatorWalkAliases(&g, 36864));
  CHECK(!cmAccumulatorWalkAliases(&g, 1024) &&
        !cmAccumulatorWalkAliases(&g, 9216) &&
        !cmAccumulatorWalkAliases(&g, INFINITY) &&
        !cmAccumulatorWalkAliases(&g, NAN));
  CHECK(!cmAccumulatorWalkAliases(&none, 4096) &&
        !cmAccumulatorWalkAliases(NULL, 4096));
  char key[64];
  cmAccumulatorWalkKey(key, sizeof key, "f32", 4);
  CHECK(!strcmp(key, "accumulator_walk_ns.f32.k256"));
}

/* Cold written columns at shares 0.25, 0.5, 1, 2, 4 of the LLC: 0.01, 0.02,
 * 0.08, 0.09, 0.1 ns per byte, one of them `hole`d like the grids. */
static double coldWriteAt(const void *context, int index) {
  static const double ns[CM_COLD_WRITE_POINTS] = {0.01, 0.02, 0.08, 0.09, 0.1};
  const GridHole *hole = context;
  return hole && hole->kIndex == index ? hole->value : ns[index];
}

/* A cold written column's rate is linear in the share of the LLC the call
 * moves between the probed shares, from nothing at no bytes to the first
 * and the last beyond the last; a share not measured (missing, negative,
 * infinite) is stepped over, and without a cache size, bytes or any share
 * there is no charge. */
TEST(cold_written_columns_grow_with_the_bytes_a_call_moves) {
  double llc = 1 << 20;
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, 0.125 * llc), 0.005,
             1e-12);
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, 0.75 * llc), 0.05,
             1e-12);
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, llc), 0.08, 1e-12);
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, 64 * llc), 0.1,
             1e-12);
  GridHole missing = {0, 2, NAN}, negative = {0, 2, -1};
  GridHole infinite = {0, 2, INFINITY};
  /* share 1 gone: 0.75 lies between 0.5 (0.02) and 2 (0.09) */
  double between = 0.02 + 0.07 * (0.75 - 0.5) / 1.5;
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, &missing, llc, 0.75 * llc),
             between, 1e-12);
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, &negative, llc, 0.75 * llc),
             between, 1e-12);
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, &infinite, llc, 0.75 * llc),
             between, 1e-12);
  GridHole lastGone = {0, 4, NAN};
  CHECK_NEAR(cmColdWriteNsPerByte(coldWriteAt, &lastGone, llc, 64 * llc), 0.09,
             1e-12);
  CHECK(cmColdWriteNsPerByte(coldWriteAt, NULL, 0, llc) == 0);
  CHECK(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, 0) == 0);
  CHECK(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, NAN) == 0);
  CHECK(cmColdWriteNsPerByte(coldWriteAt, NULL, llc, INFINITY) == 0);
  CHECK(cmColdWriteNsPerByte(NULL, NULL, llc, llc) == 0);
  char key[64];
  cmColdWriteKey(key, sizeof key, 0);
  CHECK(!strcmp(key, "cold_column_write_ns_per_byte.llc0.25"));
  cmColdWriteKey(key, sizeof key, 4);
  CHECK(!strcmp(key, "cold_column_write_ns_per_byte.llc4"));
  cmColdWriteKey(key, sizeof key, CM_COLD_WRITE_POINTS);
  CHECK(!strcmp(key, ""));
  cmColdWriteKey(key, sizeof key, -1);
  CHECK(!strcmp(key, ""));
}

/* kWalkDevice with an f16 memory rate and the f32 grid of gridAt, point
 * (0, 8) (one set, k = 4096) written as `hole` ("" leaves it out). */
static void gridDevice(char *out, size_t size, const char *hole) {
  size_t used =
      snprintf(out, size, "%scolumn_walk_ns_mem.f16,3\n", kWalkDevice);
  for (int i = 0; i < CM_WALK_GRID_SETS; i++)
    for (int j = 0; j < CM_WALK_GRID_KS; j++) {
      char key[64], value[32];
      cmWalkGridKey(key, sizeof key, CM_WALK_READS, "f32", i, j);
      snprintf(value, sizeof value, "%g", gridAt(NULL, i, j));
      bool isHole = i == 0 && j == 8;
      if (used < size && (!isHole || *hole))
        used += snprintf(out + used, size - used, "%s,%s\n", key,
                         isHole ? hole : value);
    }
  CHECK(used < size);
}

static CmEstimate askWalk(CmProfile p, const char *dtype, const char *n,
                          const char *k) {
  CmField fields[] = {{"dtype", dtype}, {"m", "8"}, {"n", n}, {"k", k}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmEstimate e;
  memset(&e, 0, sizeof e);
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  return e;
}

/* With a grid for f32 in device.csv, a spilled f32 column is priced at the
 * grid's rate, not its level's (4 ns per multiply-add for the matmul
 * table's kernel beyond L2, kWalkDevice); n = 1024, k = 4096 crowds one
 * L1 set (point 0, 8, given as 8 ns); n = 1280, k = 1448 four sets, halfway
 * between k = 1024 and 2048 in log2 (17.5 ns). An f16 query, with no
 * grid of its own, keeps its level's rate; so does an f32 one whose grid
 * point is missing. A rate so large the walk overflows is no walk. */
TEST(a_measured_grid_prices_the_walk_before_the_level_rates) {
  char device[4096];
  gridDevice(device, sizeof device, "8");
  CmProfile p = profileWithDevice("column-walk-grid", NULL, kWalkTable, device);
  CHECK(!cmProfileIsNull(p));
  struct {
    const char *dtype, *n, *k;
    double ns;
  } cases[] = {{"f32", "1024", "4096", 8},
               {"f32", "1280", "1448.15468", 17.5},
               {"f16", "1024", "4096", 3}};
  for (int i = 0; i < 3; i++) {
    CmEstimate e = askWalk(p, cases[i].dtype, cases[i].n, cases[i].k);
    double macs = 8 * atof(cases[i].n) * atof(cases[i].k);
    CHECK_NEAR(e.memoryUs, macs * cases[i].ns * 1e-3, 1e-6);
  }
  cmProfileDestroy(p);
  gridDevice(device, sizeof device, "");
  p = profileWithDevice("column-walk-grid-hole", NULL, kWalkTable, device);
  CHECK_NEAR(askWalk(p, "f32", "1024", "4096").memoryUs, 8 * 1024 * 4096 * 4e-3,
             1e-6);
  cmProfileDestroy(p);
  gridDevice(device, sizeof device, "1e308");
  p = profileWithDevice("column-walk-grid-huge", NULL, kWalkTable, device);
  CmEstimate e = askWalk(p, "f32", "1024", "4096");
  CHECK(isfinite(e.latencyUs) && !strstr(e.reason, "weight column"));
  cmProfileDestroy(p);
}

/* A channels-first conv through `loops` walks, for every output, a column
 * of its input across the channels, a plane apart: a 1 x 1 conv at 32 x 32
 * pixels (a 4 KiB plane: one L1 set) with 128 input channels is priced at
 * the grid's point (1 set, k = 128: 4 ns) for each of its batch x cout x
 * hw x cin multiply-adds; so is a plain conv2d with no table (through its
 * family's fields), and a stride-2 1 x 1 conv to 16 x 16 (its input plane
 * 32 x 32, not 31 x 31). A channels-last one (TOSA's), one without a
 * layout and one without a stride walk no such column. */
TEST(channels_first_convs_walk_their_input_column) {
  char device[4096];
  gridDevice(device, sizeof device, "8");
  CmProfile p = profileWithDevice("conv-walk", kConvPolicy, kConvTable, device);
  CHECK(!cmProfileIsNull(p));
  struct {
    const char *kernel, *layout, *stride, *hw;
    bool walks;
  } cases[] = {{"conv2d+batchnorm", "0", "1", "1024", true},
               {"conv2d", "0", "1", "1024", true},
               {"conv2d+batchnorm", "0", "2", "256", true},
               {"conv2d+batchnorm", "1", "1", "1024", false},
               {"conv2d+batchnorm", NULL, "1", "1024", false},
               {"conv2d+batchnorm", "0", NULL, "1024", false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CmField fields[8] = {{"batch", "1"}, {"hw", cases[i].hw}, {"cin", "128"},
                         {"cout", "24"}, {"window", "1"},     {"dtype", "f32"}};
    size_t n = 6;
    if (cases[i].stride)
      fields[n++] = (CmField){"stride", cases[i].stride};
    if (cases[i].layout)
      fields[n++] = (CmField){"channels_last", cases[i].layout};
    double outputs = strtod(cases[i].hw, NULL) * 24;
    CmQuery q = {cases[i].kernel, fields, n, 2.0 * outputs * 128, 1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    if (cases[i].walks) {
      CHECK_NEAR(e.memoryUs, outputs * 128 * 4 * 1e-3, 1e-6);
      CHECK(strstr(e.reason, "input column") != NULL);
    } else
      CHECK(e.memoryUs < 1 && !strstr(e.reason, "column"));
  }
  cmProfileDestroy(p);
}

/* Removes the line of device.csv text `device` that starts with `key`
 * (a probe point not measured); CHECKs that it was there. */
static void dropDeviceLine(char *device, const char *key) {
  char *line = strstr(device, key);
  CHECK(line != NULL);
  if (!line)
    return;
  char *next = strchr(line, '\n');
  next = next ? next + 1 : line + strlen(line);
  memmove(line, next, strlen(next) + 1);
}

/* A profile with a probe's keys (`device`), one without any (kWalkDevice)
 * and one without the line `dropKey` starts (part of the probe), each
 * named `name` plus a suffix, over `policy` and `table`. */
typedef struct {
  CmProfile with, without, partial;
} ProbedProfiles;

static ProbedProfiles probedProfiles(const char *name, const char *policy,
                                     const char *table, char *device,
                                     const char *dropKey) {
  char dir[96];
  ProbedProfiles out;
  out.with = profileWithDevice(name, policy, table, device);
  snprintf(dir, sizeof dir, "%s-none", name);
  out.without = profileWithDevice(dir, policy, table, kWalkDevice);
  dropDeviceLine(device, dropKey);
  snprintf(dir, sizeof dir, "%s-partial", name);
  out.partial = profileWithDevice(dir, policy, table, device);
  CHECK(!cmProfileIsNull(out.with) && !cmProfileIsNull(out.without) &&
        !cmProfileIsNull(out.partial));
  return out;
}

static void probedProfilesDestroy(ProbedProfiles *p) {
  cmProfileDestroy(p->with);
  cmProfileDestroy(p->without);
  cmProfileDestroy(p->partial);
}

/* `q` answered by the roofline on `p`; its compute side (`memory` false)
 * or memory side is `expectedUs` with `reason` when expectedUs > 0, else
 * below `otherwiseUs` without the reason. Returns the estimate. */
static CmEstimate checkTerm(CmProfile p, const CmQuery *q, bool memory,
                            double expectedUs, double otherwiseUs,
                            const char *reason) {
  CmEstimate e;
  CHECK(cmProfileEstimate(p, q, NULL, &e, NULL) == CM_OK);
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  double term = memory ? e.memoryUs : e.computeUs;
  if (expectedUs > 0) {
    CHECK_NEAR(term, expectedUs, 1e-9);
    CHECK(strstr(e.reason, reason) != NULL);
  } else
    CHECK(term < otherwiseUs && !strstr(e.reason, reason));
  return e;
}

/* A roofline term a probe adds (checkTerm): `expectedUs` (0: none) with
 * the whole probe, none without it or with part of it. Returns the
 * estimate with the whole probe. */
static CmEstimate checkProbedTerm(const ProbedProfiles *p, const CmQuery *q,
                                  bool memory, double expectedUs,
                                  double otherwiseUs, const char *reason) {
  checkTerm(p->without, q, memory, 0, otherwiseUs, reason);
  checkTerm(p->partial, q, memory, 0, otherwiseUs, reason);
  return checkTerm(p->with, q, memory, expectedUs, otherwiseUs, reason);
}

/* A product whose whole reduction per output is at most
 * CM_UNROLLED_REDUCTION (27) multiply-adds is unrolled and vectorized: its
 * compute side is its multiply-adds at the grid's shortest column (k = 32)
 * at the L1 sets its column crowds, 1 ns at one set here, however slow or
 * fast the efficiency says (peak 1e12, efficiency 1: 2e-3 ns), and it
 * walks nothing. A 1 x 1 conv over 16 channels at 32 x 32 pixels (a 4 KiB
 * plane: one set), a 3 x 3 one over 3 channels (27) at 30 x 30 (its
 * padded input 32 x 32), a matmul with k = 16 at n = 1024 (one set) are; 32
 * channels, 3 x 3 over 4 (36) and k = 40 are not, and neither is anything
 * on a profile without the grid or with part of its k = 32 column. */
TEST(short_reductions_are_unrolled_and_vectorized) {
  char device[4096];
  gridDevice(device, sizeof device, "8");
  /* AVX-512: an output row under 16 f32 never enters the vector loop */
  strncat(device, "vector_bits,512\n", sizeof device - strlen(device) - 1);
  ProbedProfiles p = probedProfiles("unrolled", kConvPolicy, kConvTable, device,
                                    "column_walk_grid_ns.f32.s64.k32,");
  struct {
    const char *kernel, *cin, *window, *hw;
    bool unrolled;
  } cases[] = {{"conv2d+batchnorm", "16", "1", "1024", true},
               {"conv2d", "3", "9", "900", true},
               {"matmul", "16", NULL, NULL, true},
               {"conv2d+batchnorm", "32", "1", "1024", false},
               {"conv2d+batchnorm", "4", "9", "900", false},
               {"matmul", "40", NULL, NULL, false},
               {"conv2d+batchnorm", "16", "1", "144", false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bool conv = cases[i].window != NULL;
    CmField convFields[] = {{"batch", "1"},        {"hw", cases[i].hw},
                            {"cin", cases[i].cin}, {"cout", "64"},
                            {"stride", "1"},       {"window", cases[i].window},
                            {"dtype", "f32"},      {"channels_last", "0"}};
    CmField matmulFields[] = {
        {"dtype", "f32"}, {"m", "64"}, {"n", "1024"}, {"k", cases[i].cin}};
    double macs = conv ? atof(cases[i].hw) * 64 * atof(cases[i].cin) *
                             atof(cases[i].window)
                       : 64 * 1024 * atof(cases[i].cin);
    CmQuery q = {cases[i].kernel, conv ? convFields : matmulFields,
                 conv ? 8 : 4, 2 * macs, 1};
    CmEstimate e =
        checkProbedTerm(&p, &q, false, cases[i].unrolled ? macs * 1 * 1e-3 : 0,
                        macs * 1e-3, "reduction unrolled and vectorized");
    CHECK(!cases[i].unrolled || !strstr(e.reason, "column in"));
  }
  probedProfilesDestroy(&p);
}

/* Writes kConvPolicy and a depthwise conv's policy into `out`. */
static void convAndDepthwisePolicy(char *out, size_t size) {
  snprintf(out, size,
           "%sdepthwise_conv2d,batch hw cin cout,stride window "
           "channels_last dtype\n",
           kConvPolicy);
}

/* A half-precision matmul or dense conv whose reduction is longer than
 * CM_CONVERTED_UNROLLED_REDUCTION (36) converts its elements one by one:
 * its compute side is at least its multiply-adds at the probed rate of its
 * element and accumulator types (converted_mac_ns.<dtype>.acc<bits>), here
 * far above what the peak and efficiency give (1e12 at 2: 1e-3 ns). The
 * accumulator is the query's acc_bits when 16 or 32, else the dtype's own
 * width (an infinite or 64-bit one too); an f32
 * product, a reduction of 36, a depthwise conv, and a profile without the
 * key (bf16's f32 accumulator here) keep their roofline. */
TEST(half_precision_products_run_at_their_converted_chain) {
  /* the conv policies and a depthwise one, whose fields the floor reads */
  char policy[1024];
  convAndDepthwisePolicy(policy, sizeof policy);
  CmProfile p = profileWithDevice(
      "converted-chain", policy, kConvTable,
      "key,value\npeak_flops.f32,1e12\npeak_flops.f16,1e12\n"
      "peak_flops.bf16,1e12\nmem_bw,1e15\ncompute_efficiency,2\n"
      "converted_mac_ns.f16.acc16,5\nconverted_mac_ns.f16.acc32,2.5\n"
      "converted_mac_ns.bf16.acc16,3\n");
  CHECK(!cmProfileIsNull(p));
  struct {
    const char *kernel, *dtype, *accBits, *reduction;
    double ns; /* the rate it takes; 0: its plain roofline */
  } cases[] = {{"matmul", "f16", NULL, "768", 5},
               {"matmul", "f16", "16", "768", 5},
               {"matmul", "f16", "32", "768", 2.5},
               {"matmul", "f16", "inf", "768", 5},
               {"matmul", "f16", "64", "768", 5},
               {"matmul+add", "bf16", NULL, "64", 3},
               {"matmul", "f16", NULL, "37", 5},
               {"conv2d+batchnorm", "f16", "32", "96", 2.5},
               {"conv2d", "f16", NULL, "96", 5},
               {"matmul", "f16", NULL, "36", 0},
               {"matmul", "f32", "32", "768", 0},
               {"matmul", "bf16", "32", "768", 0},
               {"depthwise_conv2d", "f16", NULL, "49", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bool conv = strstr(cases[i].kernel, "conv2d") != NULL;
    bool depthwise = !strncmp(cases[i].kernel, "depthwise", 9);
    /* a dense conv's reduction is cin x window (window 1 here), a
       depthwise one's its window */
    CmField fields[10] = {{"dtype", cases[i].dtype}, {"batch", "1"}};
    size_t n = 2;
    if (conv) {
      fields[n++] = (CmField){"hw", "784"};
      fields[n++] = (CmField){"cout", "64"};
      fields[n++] = (CmField){"cin", depthwise ? "64" : cases[i].reduction};
      fields[n++] = (CmField){"window", depthwise ? cases[i].reduction : "1"};
      fields[n++] = (CmField){"stride", "1"};
      fields[n++] = (CmField){"channels_last", "1"};
    } else {
      fields[n++] = (CmField){"m", "784"};
      fields[n++] = (CmField){"n", "64"};
      fields[n++] = (CmField){"k", cases[i].reduction};
    }
    if (cases[i].accBits)
      fields[n++] = (CmField){"acc_bits", cases[i].accBits};
    double macs = 784.0 * 64 * atof(cases[i].reduction);
    CmQuery q = {cases[i].kernel, fields, n, 2 * macs, 1};
    checkTerm(p, &q, false, macs * cases[i].ns * 1e-3, macs * 1e-3,
              "converted one by one");
  }
  cmProfileDestroy(p);
}

/* An integer channels-last conv2d's compute side is its multiply-adds at
 * the probed grid's rate (integer_mac_ns.<dtype>.w<window>.c<channels>),
 * read linearly in ln channels between the points written (16 and 64
 * here: 32 channels is halfway), then in ln window between 1 and 9 (3 is
 * halfway), the edge point beyond them; an integer depthwise conv's at its
 * one rate; far above what the peak and efficiency give (1e12 at 2: 1e-3
 * ns). A padded one pays for its pad's copy on top (pad_elements at
 * pad_copy_ns_per_element). An f32 conv, a channels-first one, an i8
 * matmul and a dtype without keys (i16) keep their roofline, pads unpaid. */
TEST(integer_convs_run_at_the_probed_rates) {
  char policy[1024];
  convAndDepthwisePolicy(policy, sizeof policy);
  CmProfile p = profileWithDevice(
      "integer-mac", policy, kConvTable,
      "key,value\npeak_flops.f32,1e12\npeak_flops,1e12\nmem_bw,1e15\n"
      "compute_efficiency,2\ninteger_mac_ns.i8.w1.c16,0.2\n"
      "integer_mac_ns.i8.w1.c64,0.04\ninteger_mac_ns.i8.w9.c16,0.4\n"
      "integer_mac_ns.i8.w9.c64,0.06\ninteger_mac_ns.i8.depthwise,0.1\n"
      "pad_copy_ns_per_element,3\n");
  CHECK(!cmProfileIsNull(p));
  struct {
    const char *kernel, *dtype, *cin, *window, *channelsLast;
    double ns; /* the rate it takes; 0: its plain roofline */
  } cases[] = {{"conv2d+cast", "i8", "16", "1", "1", 0.2},
               {"conv2d+cast", "i8", "64", "1", "1", 0.04},
               {"conv2d+cast", "i8", "32", "1", "1", 0.12},
               {"conv2d", "i8", "8", "1", "1", 0.2},
               {"conv2d", "i8", "512", "1", "1", 0.04},
               {"conv2d+cast", "i8", "16", "9", "1", 0.4},
               {"conv2d+cast", "i8", "16", "3", "1", 0.3},
               {"conv2d+cast", "i8", "16", "49", "1", 0.4},
               {"depthwise_conv2d+cast", "i8", "64", "9", "1", 0.1},
               {"conv2d+cast", "f32", "16", "1", "1", 0},
               {"conv2d+cast", "i8", "16", "1", "0", 0},
               {"conv2d+cast", "i16", "16", "1", "1", 0},
               {"matmul", "i8", "64", NULL, NULL, 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bool conv = cases[i].window != NULL;
    bool depthwise = !strncmp(cases[i].kernel, "depthwise", 9);
    CmField fields[12] = {{"dtype", cases[i].dtype}, {"batch", "1"}};
    size_t n = 2;
    if (conv) {
      fields[n++] = (CmField){"hw", "784"};
      fields[n++] = (CmField){"cout", depthwise ? cases[i].cin : "64"};
      fields[n++] = (CmField){"cin", cases[i].cin};
      fields[n++] = (CmField){"window", cases[i].window};
      fields[n++] = (CmField){"stride", "1"};
      fields[n++] = (CmField){"channels_last", cases[i].channelsLast};
    } else {
      fields[n++] = (CmField){"m", "784"};
      fields[n++] = (CmField){"n", "64"};
      fields[n++] = (CmField){"k", cases[i].cin};
    }
    fields[n++] = (CmField){"pad_elements", "1000"};
    double macs = conv ? 784.0 * atof(depthwise ? cases[i].cin : "64") *
                             (depthwise ? 1 : atof(cases[i].cin)) *
                             atof(cases[i].window)
                       : 784.0 * 64 * atof(cases[i].cin);
    CmQuery q = {cases[i].kernel, fields, n, 2 * macs, 1};
    CmEstimate e = checkTerm(p, &q, false, macs * cases[i].ns * 1e-3,
                             macs * 1e-3, "integer multiply-adds");
    /* the pad's copy: 1000 elements at 3 ns, with the integer rate only */
    CHECK((strstr(e.reason, "copying its pads") != NULL) == (cases[i].ns > 0));
    CHECK(cases[i].ns == 0 || e.launchUs >= 3 - 1e-9);
  }
  cmProfileDestroy(p);
}

/* Off the chain a half type the host converts computes at f32's rate: with
 * a converted_mac_ns key for f16, an f16 relu's compute side is its flops
 * at peak_flops.f32 (1e9 here), not peak_flops.f16 (1e8, the f16 matmul
 * probe's); bf16, without a key, keeps its own peak. */
TEST(a_converted_half_type_computes_at_f32_peak) {
  CmProfile p =
      profileWithDevice("converted-peak", NULL, NULL,
                        "key,value\npeak_flops.f32,1e9\npeak_flops.f16,1e8\n"
                        "peak_flops.bf16,1e8\nmem_bw,1e15\n"
                        "converted_mac_ns.f16.acc32,2.5\n");
  CHECK(!cmProfileIsNull(p));
  const char *dtypes[] = {"f16", "bf16"};
  double peaks[] = {1e9, 1e8};
  for (int i = 0; i < 2; i++) {
    CmField fields[] = {{"dtype", dtypes[i]}, {"elements", "1000000"}};
    CmQuery q = {"relu", fields, 2, 1e6, 1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    CHECK_NEAR(e.computeUs, 1e6 / peaks[i] * 1e6, 1e-9);
    CHECK((strstr(e.reason, "computed at f32's peak") != NULL) == (i == 0));
  }
  cmProfileDestroy(p);
}

/* A channels-first depthwise conv walks its output across the channels; a
 * plane of a whole number of 4 KiB L1 ways (32 x 32 and 64 x 64 f32) waits
 * on its stores at the probed rate for its channels, 5 ns a multiply-add
 * at 32, 5.5 at 128 (halfway between 64 and 256 in log2). 16 x 16 and
 * 48 x 48 planes, a channels-last conv and a profile without the probe, or
 * without one of its points, have no such walk. A depthwise type without a
 * table reads its fields through its family's policy, and walks too. */
TEST(depthwise_convs_over_whole_ways_wait_on_their_stores) {
  static const char policy[] =
      "kernel,axes,regime\n"
      "depthwise_conv2d+batchnorm,batch hw cin cout,stride window "
      "channels_last dtype\n";
  static const char table[] =
      "kernel,batch,hw,cin,cout,stride,window,channels_last,dtype,latency_us\n"
      "depthwise_conv2d+batchnorm,1,64,16,16,1,9,0,f16,100\n"; /* no rows */
  char device[2048];
  snprintf(device, sizeof device,
           "%saccumulator_walk_ns.f32.k8,0.4\naccumulator_walk_ns.f32.k16,2\n"
           "accumulator_walk_ns.f32.k32,5\naccumulator_walk_ns.f32.k64,5\n"
           "accumulator_walk_ns.f32.k256,6\n",
           kWalkDevice);
  ProbedProfiles p = probedProfiles("acc-walk", policy, table, device,
                                    "accumulator_walk_ns.f32.k8,");
  struct {
    const char *kernel, *hw, *cin, *layout;
    double ns; /* 0: no walk */
  } cases[] = {{"depthwise_conv2d+batchnorm", "1024", "32", "0", 5},
               {"depthwise_conv2d+batchnorm", "4096", "128", "0", 5.5},
               {"depthwise_conv2d", "1024", "32", "0", 5},
               {"depthwise_conv2d+batchnorm", "256", "32", "0", 0},
               {"depthwise_conv2d+batchnorm", "2304", "32", "0", 0},
               {"depthwise_conv2d+batchnorm", "1024", "32", "1", 0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CmField fields[] = {
        {"batch", "1"},        {"hw", cases[i].hw},
        {"cin", cases[i].cin}, {"cout", cases[i].cin},
        {"stride", "1"},       {"window", "9"},
        {"dtype", "f32"},      {"channels_last", cases[i].layout}};
    double macs = atof(cases[i].hw) * atof(cases[i].cin) * 9;
    CmQuery q = {cases[i].kernel, fields, 8, 2 * macs, 1};
    checkProbedTerm(&p, &q, true, macs * cases[i].ns * 1e-3, macs * 0.4e-3,
                    "output column a cache way apart");
  }
  probedProfilesDestroy(&p);
}

/* Attention through loops runs two products per batch and head: Q K^T
 * walks columns of head_dim elements kv_len apart, P V columns of kv_len
 * elements head_dim apart. At seq = kv_len = 1024, head_dim 40 (SD's
 * self-attention) both spill L1 (40 lines in one set; 1024 lines); at
 * seq 8, head_dim 64 neither does and the walk adds nothing. The shape is
 * read through the attention table's policy (a kernel without one has
 * none for the roofline). */
TEST(attention_walks_the_columns_of_its_two_products) {
  static const char policy[] =
      "kernel,axes,regime,transform\n"
      "attention,seq kv_len,dtype batch heads kv_heads head_dim,\n";
  static const char table[] =
      "kernel,dtype,batch,seq,kv_len,heads,kv_heads,head_dim,latency_us\n"
      "attention,f32,1,2048,2048,8,8,64,5\n"; /* no answer for the queries */
  CmProfile p =
      profileWithDevice("column-walk-attention", policy, table, kWalkDevice);
  CHECK(!cmProfileIsNull(p));
  const char *seq[] = {"1024", "8"}, *dim[] = {"40", "64"};
  for (int i = 0; i < 2; i++) {
    CmField fields[] = {{"dtype", "f32"},    {"batch", "1"}, {"seq", seq[i]},
                        {"kv_len", seq[i]},  {"heads", "8"}, {"kv_heads", "8"},
                        {"head_dim", dim[i]}};
    CmQuery q = {"attention", fields, 7, -1, -1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    double macs = 8 * atof(seq[i]) * atof(seq[i]) * atof(dim[i]);
    if (i == 0) {
      CHECK_NEAR(e.memoryUs, 2 * macs * 1.5 * 1e-3, 1e-6);
      CHECK(strstr(e.reason, "weight column in L2") != NULL);
    } else {
      CHECK(e.memoryUs < macs * 1.5 * 1e-3 && !strstr(e.reason, "column"));
    }
  }
  cmProfileDestroy(p);
}

/* A transpose through loops walks a column of the side its innermost loop
 * strides on (walk_k elements walk_stride apart): where it spills L1,
 * every element costs the grid's rate of that side. On gridDevice (L1 of
 * 64 sets, 4 KiB ways) plus a write grid at half the read one, a column
 * of 4096 elements 1024 f32 apart (one set) costs 4.5 ns an element
 * written, 8 read (the read grid's point given as 8); a 16-element column
 * (16 lines in a 12-way set) is a walk too, no unrolled reduction, at the
 * grid's shortest column; 8 elements stay in L1 and a transpose without a
 * walk (walk_k 0) walks nothing. Without a write grid a written column
 * takes the read one's rate. The walk is read whatever the transpose
 * table keys on: a profile made before transposes had walks keys on
 * elements alone, and a profile without a transpose table has none. */
TEST(transposes_walk_the_column_of_their_strided_side) {
  char reads[8192], both[8192];
  gridDevice(reads, sizeof reads, "8");
  size_t used = strlen(reads);
  memcpy(both, reads, used + 1);
  for (int i = 0; i < CM_WALK_GRID_SETS; i++)
    for (int j = 0; j < CM_WALK_GRID_KS; j++) {
      char key[64];
      cmWalkGridKey(key, sizeof key, CM_WALK_WRITES, "f32", i, j);
      used += (size_t)snprintf(both + used, sizeof both - used, "%s,%g\n", key,
                               0.5 * gridAt(NULL, i, j));
    }
  CHECK(used < sizeof both);
  static const char policy[] = "kernel,axes,regime,transform\n"
                               "transpose,elements,dtype,\n";
  static const char table[] = "kernel,elements,dtype,latency_us\n"
                              "transpose,64,f32,0.1\n";
  CmProfile withWrites =
      profileWithDevice("transpose-walk", NULL, kWalkTable, both);
  CmProfile readsOnly =
      profileWithDevice("transpose-walk-reads", policy, table, reads);
  CHECK(!cmProfileIsNull(withWrites) && !cmProfileIsNull(readsOnly));
  struct {
    CmProfile profile;
    const char *k, *writes;
    double ns;
    const char *reason;
  } cases[] = {{withWrites, "4096", "1", 4.5, "output column in"},
               {withWrites, "4096", "0", 8, "input column in"},
               {withWrites, "16", "1", 0.5, "output column in"},
               {withWrites, "8", "1", 0, NULL},
               {withWrites, "0", "0", 0, NULL},
               {readsOnly, "4096", "1", 8, "output column in"},
               {readsOnly, "4096", "0", 8, "input column in"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double k = atof(cases[i].k), elements = 1024 * (k > 0 ? k : 1);
    char text[32];
    snprintf(text, sizeof text, "%.0f", elements);
    CmField fields[] = {{"dtype", "f32"},
                        {"elements", text},
                        {"walk_k", cases[i].k},
                        {"walk_stride", k > 0 ? "1024" : "0"},
                        {"walk_writes", cases[i].writes}};
    CmQuery q = {"transpose", fields, 5, 0, elements * 8};
    CmEstimate e;
    CHECK(cmProfileEstimate(cases[i].profile, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_ROOFLINE);
    if (cases[i].reason) {
      CHECK_NEAR(e.memoryUs, elements * cases[i].ns * 1e-3, 1e-6);
      CHECK(strstr(e.reason, cases[i].reason) != NULL &&
            !strstr(e.reason, "unrolled"));
    } else {
      CHECK_NEAR(e.memoryUs, elements * 8 / 1e12 * 1e6, 1e-9);
      CHECK(!strstr(e.reason, "column"));
    }
  }
  cmProfileDestroy(withWrites);
  cmProfileDestroy(readsOnly);
}

/* A memory side above the walk (the query's own bytes) stays as it is,
 * and the reason does not claim the walk. */
TEST(column_walk_under_the_memory_side_changes_nothing) {
  CmProfile p =
      profileWithDevice("column-walk-under", NULL, kWalkTable, kWalkDevice);
  CHECK(!cmProfileIsNull(p));
  CmField fields[] = {
      {"dtype", "f32"}, {"m", "8"}, {"n", "1024"}, {"k", "4096"}};
  CmQuery q = {"matmul", fields, 4, -1, 1e12}; /* 1 s at 1 TB/s */
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK_NEAR(e.memoryUs, 1e6, 1e-6);
  CHECK(!strstr(e.reason, "weight column"));
  cmProfileDestroy(p);
}

/* The same rates without the cache geometry: no level, no walk. */
TEST(no_cache_geometry_no_column_walk) {
  CmProfile p = profileWithDevice(
      "column-walk-no-caches", NULL,
      "kernel,dtype,m,n,k,latency_us\nmatmul,f32,1,8,8,1\n",
      "key,value\npeak_flops.f32,1e12\nmem_bw,1e12\n"
      "column_walk_ns_l2.f32,1.5\ncolumn_walk_ns_mem.f32,3\n");
  CHECK(!cmProfileIsNull(p));
  CmField fields[] = {
      {"dtype", "f32"}, {"m", "8"}, {"n", "1024"}, {"k", "4096"}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(e.source == CM_SOURCE_ROOFLINE && !strstr(e.reason, "weight column"));
  CHECK(e.memoryUs < 8 * 1024 * 4096 * 1.5e-3 / 100);
  cmProfileDestroy(p);
}

TEST(fused_kernel_uses_anchor_table_and_says_so) {
  CmProfile p = profileWith("alias", NULL, kLine);
  CmEstimate e = ask(p, "matmul+add", "2", "64", "64", true);
  CHECK(e.source == CM_SOURCE_MEASURED && e.viaAnchor);
  CHECK(e.tableKernel && !strcmp(e.tableKernel, "matmul"));
  cmProfileDestroy(p);
}

/* A full 3x3 grid in (m, n) at k=64 except the centre: the 1D lines
 * through the centre bracket it, so 1D answers; at an off-grid point in both
 * axes no line exists and the 2D Delaunay tier answers. */
static const char kGrid[] = "kernel,dtype,m,n,k,latency_us\n"
                            "matmul,bf16,0,0,64,1\n"
                            "matmul,bf16,0,10,64,2\n"
                            "matmul,bf16,10,0,64,3\n"
                            "matmul,bf16,10,10,64,4\n";

TEST(two_d_delaunay_on_a_plane) {
  CmProfile p = profileWith("plane", NULL, kGrid);
  CmEstimate e = ask(p, "matmul", "5", "5", "64", true);
  CHECK(e.source == CM_SOURCE_INTERPOLATED &&
        e.method == CM_METHOD_DELAUNAY_2D);
  CHECK_NEAR(e.latencyUs, 2.5, 1e-12); /* bilinear data: exact in a simplex */
  CHECK(e.numCorners == 3);
  CmEstimate outside = ask(p, "matmul", "11", "5", "64", true);
  CHECK(outside.source == CM_SOURCE_ROOFLINE);
  CHECK(strstr(outside.reason, "outside the hull") != NULL);
  cmProfileDestroy(p);
}

/* device.csv max_simplex_span: a simplex whose corners lie further apart
 * than that on one of its axes does not answer (a sparse host table), and
 * the reason says so; without the key the same query is interpolated. */
TEST(max_simplex_span_leaves_wide_simplices_to_the_roofline) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/span", scratch);
  static const char wide[] = "kernel,dtype,m,n,k,latency_us\n"
                             "matmul,bf16,1,1,64,1\n"
                             "matmul,bf16,1,100,64,2\n"
                             "matmul,bf16,3,1,64,3\n"
                             "matmul,bf16,3,100,64,4\n";
  CHECK(testMakeProfile(dir, NULL, wide));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  CmEstimate e = ask(p, "matmul", "2", "50", "64", true);
  CHECK(e.method == CM_METHOD_DELAUNAY_2D);
  cmProfileDestroy(p);
  CHECK(testWriteFile(dir, "device.csv",
                      "key,value\npeak_flops.bf16,1e15\nmem_bw,1e12\n"
                      "max_simplex_span,4\n"));
  CHECK(testLoadProfile(dir, &p));
  e = ask(p, "matmul", "2", "50", "64", true);
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  CHECK(strstr(e.reason, "simplex spans 100x on n") != NULL);
  cmProfileDestroy(p);
}

/* The 2D/3D confidence follows how far apart the simplex's corners are:
 * nearly equal corners rate higher than corners a factor of 10 apart, both
 * strictly between 0 and 1, and the expected error is reported. */
TEST(delaunay_confidence_follows_corner_spread) {
  static const char flat[] = "kernel,dtype,m,n,k,latency_us\n"
                             "matmul,bf16,0,0,64,10\n"
                             "matmul,bf16,0,10,64,10.2\n"
                             "matmul,bf16,10,0,64,10.1\n"
                             "matmul,bf16,10,10,64,10.3\n";
  static const char steep[] = "kernel,dtype,m,n,k,latency_us\n"
                              "matmul,bf16,0,0,64,1\n"
                              "matmul,bf16,0,10,64,10\n"
                              "matmul,bf16,10,0,64,10\n"
                              "matmul,bf16,10,10,64,100\n";
  CmProfile pf = profileWith("flat", NULL, flat);
  CmProfile ps = profileWith("steep", NULL, steep);
  CmEstimate ef = ask(pf, "matmul", "4", "3", "64", true);
  CmEstimate es = ask(ps, "matmul", "4", "3", "64", true);
  CHECK(ef.method == CM_METHOD_DELAUNAY_2D &&
        es.method == CM_METHOD_DELAUNAY_2D);
  CHECK(ef.confidence > es.confidence);
  CHECK(ef.confidence < 1 && es.confidence > 0);
  CHECK(ef.errorEstimate > 0 && es.errorEstimate > ef.errorEstimate);
  cmProfileDestroy(pf);
  cmProfileDestroy(ps);
}

TEST(three_d_delaunay_in_a_volume) {
  /* Eight corners of a cube; latency linear: 1 + m + 2n + 3k. */
  char table[1024] = "kernel,dtype,m,n,k,latency_us\n";
  for (int c = 0; c < 8; c++) {
    int m = c & 1, n = (c >> 1) & 1, k = (c >> 2) & 1;
    snprintf(table + strlen(table), sizeof table - strlen(table),
             "matmul,bf16,%d,%d,%d,%d\n", m * 8, n * 8, k * 8,
             1 + m * 8 + 2 * n * 8 + 3 * k * 8);
  }
  CmProfile p = profileWith("cube", NULL, table);
  CmEstimate e = ask(p, "matmul", "3", "2", "5", true);
  CHECK(e.method == CM_METHOD_DELAUNAY_3D);
  CHECK_NEAR(e.latencyUs, 1 + 3 + 4 + 15, 1e-12);
  cmProfileDestroy(p);
}

TEST(collinear_points_are_degenerate_not_fatal) {
  static const char table[] = "kernel,dtype,m,n,k,latency_us\n"
                              "matmul,bf16,0,0,64,1\n"
                              "matmul,bf16,1,1,64,2\n"
                              "matmul,bf16,2,2,64,3\n"
                              "matmul,bf16,3,3,64,4\n";
  CmProfile p = profileWith("collinear", NULL, table);
  CmEstimate e = ask(p, "matmul", "1.5", "1", "64", true);
  CHECK(e.source == CM_SOURCE_ROOFLINE);
  CHECK(strstr(e.reason, "degenerate") != NULL);
  cmProfileDestroy(p);
}

TEST(duplicates_are_averaged_and_bad_latencies_dropped) {
  static const char table[] = "kernel,dtype,m,n,k,latency_us\n"
                              "matmul,bf16,1,64,64,10\n"
                              "matmul,bf16,1,64,64,14\n"
                              "matmul,bf16,2,64,64,nan\n"
                              "matmul,bf16,2,64,64,-1\n"
                              "matmul,bf16,2,64,64,0\n"
                              "matmul,bf16,2,64,64,inf\n";
  CmProfile p = profileWith("dups", NULL, table);
  CHECK(cmProfileGetNumDroppedRows(p) == 4);
  CmEstimate e = ask(p, "matmul", "1", "64", "64", true);
  CHECK(e.latencyUs == 12.0 && e.counts.aggregated == 1);
  CHECK(e.counts.dropped == 4 && e.counts.raw == 6);
  cmProfileDestroy(p);
}

/* The answer at `seq` of a bf16 `attn` table whose seq axis has policy
 * transform `transform` (seq:<transform>), with rows `rows` ("seq,us"). */
static CmEstimate transformedAnswer(const char *transform, const char *rows,
                                    const char *seq) {
  char policy[128], table[256];
  snprintf(policy, sizeof policy,
           "kernel,axes,regime,transform\nattn,seq,dtype,seq:%s\n", transform);
  snprintf(table, sizeof table, "kernel,dtype,seq,latency_us\n%s", rows);
  CmProfile p = profileWith(transform, policy, table);
  CmField fields[] = {{"dtype", "bf16"}, {"seq", seq}};
  CmQuery q = {"attn", fields, 2, -1, -1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  cmProfileDestroy(p);
  return e;
}

TEST(policy_transform_applies_to_candidates_and_target) {
  CmEstimate e =
      transformedAnswer("sqrt", "attn,bf16,1,10\nattn,bf16,9,30\n", "4");
  CHECK_NEAR(e.latencyUs, 20.0, 1e-12); /* sqrt 4 = 2 is halfway in 1..3 */
}

TEST(square_transform_interpolates_quadratic_work_exactly) {
  /* attention's time grows with seq squared: over seq^2 the chord between
   * 4 and 16 meets 10 = 100 us exactly, where raw seq gives 116 */
  CmEstimate e =
      transformedAnswer("square", "attn,bf16,4,16\nattn,bf16,16,256\n", "10");
  CHECK(e.source == CM_SOURCE_INTERPOLATED);
  CHECK_NEAR(e.latencyUs, 100.0, 1e-12);
}

TEST(confidence_never_changes_the_answer) {
  /* Two profiles whose tables differ only in rows far from the query: the
   * confidence may differ, the chosen tier and value may not. */
  CmProfile p = profileWith("conf", NULL, kLine);
  CmEstimate a = ask(p, "matmul", "3", "64", "64", true);
  CmEstimate b = ask(p, "matmul", "3", "64", "64", true);
  CHECK(a.latencyUs == b.latencyUs && a.source == b.source);
  CHECK(a.confidence > 0 && a.confidence <= 1);
  cmProfileDestroy(p);
}

TEST(tables_loaded_by_kernel_answer_as_a_full_load) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/bykernel", scratch);
  static const char policy[] = "kernel,axes,regime,transform\n"
                               "other,x,dtype,\n";
  CHECK(testMakeProfile(dir, policy, kLine));
  CHECK(testWriteFile(dir, "tables/u.csv",
                      "kernel,dtype,x,latency_us\nother,bf16,1,5\n"));
  CmProfile full, lazy;
  CHECK(testLoadProfile(dir, &full));
  CHECK(cmProfileCreateFromDirWithoutTables(dir, &lazy, NULL) == CM_OK);
  CmField bf16[] = {{"dtype", "bfloat16"}}; /* an alias of the rows' bf16 */
  CmQuery types[] = {{"matmul+add", bf16, 1, -1, -1}}; /* the matmul table */
  CHECK(cmProfileLoadTablesFor(lazy, types, 1, NULL) == CM_OK);
  CHECK(cmProfileGetNumRows(lazy) == 3); /* u.csv never names matmul */
  CmEstimate a = ask(full, "matmul+add", "3", "64", "64", true);
  CmEstimate b = ask(lazy, "matmul+add", "3", "64", "64", true);
  CHECK(a.latencyUs == b.latencyUs && a.source == b.source);
  CmError err;
  CHECK(cmProfileLoadTablesFor(lazy, types, 1, &err) == CM_ERR_QUERY);
  cmProfileDestroy(full);
  cmProfileDestroy(lazy);
  /* A dtype no row has: nothing is parsed, the answer is the roofline as in
   * a full load. */
  CmField f32[] = {{"dtype", "F32"}};
  CmQuery other[] = {{"matmul", f32, 1, -1, -1}};
  CHECK(cmProfileCreateFromDirWithoutTables(dir, &lazy, NULL) == CM_OK);
  CHECK(cmProfileLoadTablesFor(lazy, other, 1, NULL) == CM_OK);
  CHECK(cmProfileGetNumRows(lazy) == 0);
  cmProfileDestroy(lazy);
}

typedef struct {
  CmProfile profile;
  double results[64];
} ThreadJob;

static void *queryMany(void *arg) {
  ThreadJob *job = arg;
  for (int i = 0; i < 64; i++) {
    char m[16];
    snprintf(m, sizeof m, "%d", 1 + i % 16);
    CmField fields[] = {{"dtype", "bf16"}, {"m", m}, {"n", "5"}, {"k", "64"}};
    CmQuery q = {"matmul", fields, 4, -1, -1};
    CmEstimate e;
    cmProfileEstimate(job->profile, &q, NULL, &e, NULL);
    job->results[i] = e.latencyUs;
  }
  return NULL;
}

TEST(concurrent_queries_give_identical_answers) {
  CmProfile p = profileWith("threads", NULL, kGrid);
  ThreadJob jobs[8];
  pthread_t threads[8];
  for (int t = 0; t < 8; t++) {
    jobs[t].profile = p;
    pthread_create(&threads[t], NULL, queryMany, &jobs[t]);
  }
  for (int t = 0; t < 8; t++)
    pthread_join(threads[t], NULL);
  for (int t = 1; t < 8; t++)
    CHECK(memcmp(jobs[0].results, jobs[t].results, sizeof jobs[0].results) ==
          0);
  cmProfileDestroy(p);
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  snprintf(scratch, sizeof scratch, "%s", argv[2]);
  return RUN_TESTS(T(profile_exposes_device_and_fusion_rules),
                   T(measured_fusion_rules_keep_only_decision_yes),
                   T(measured_fusion_rules_reject_a_bad_time),
                   T(exact_hit_returns_measured_value_unchanged),
                   T(linear_midpoint_and_quarter_point),
                   T(out_of_range_is_never_extrapolated),
                   T(interpolation_off_is_exact_then_roofline),
                   T(roofline_is_max_of_bounds_plus_launch),
                   T(efficiency_slopes_scale_the_roofline_inside_their_range),
                   T(the_reduction_law_scales_a_convs_efficiency),
                   T(max_simplex_span_leaves_wide_simplices_to_the_roofline),
                   T(per_kernel_device_values_override_device_wide_ones),
                   T(transposed_weight_pays_its_copy_in_the_roofline),
                   T(transposed_weight_copy_needs_no_policy_key),
                   T(scratch_buffers_pay_their_pages_in_the_roofline),
                   T(copy_rate_follows_the_weight_size_within_its_range),
                   T(channels_last_convs_take_their_own_efficiency),
                   T(channels_last_convs_read_their_curve_at_their_reduction),
                   T(channels_last_curve_interpolates_in_log_reduction),
                   T(channels_last_convs_pay_for_their_epilogue_passes),
                   T(epilogue_curve_reads_the_bytes_of_a_pass),
                   T(a_type_without_an_efficiency_takes_its_familys),
                   T(a_repeated_device_key_answers_with_its_first_row),
                   T(column_walk_level_counts_the_busiest_set),
                   T(column_walk_level_is_bounded_on_absurd_shapes),
                   T(column_walk_counts_the_l1_sets_a_column_crowds),
                   T(spilled_weight_columns_set_the_matmul_roofline),
                   T(column_walk_grid_interpolates_in_log_sets_and_k),
                   T(a_measured_grid_prices_the_walk_before_the_level_rates),
                   T(column_walk_under_the_memory_side_changes_nothing),
                   T(channels_first_convs_walk_their_input_column),
                   T(depthwise_convs_over_whole_ways_wait_on_their_stores),
                   T(accumulator_walk_interpolates_in_log_channels),
                   T(cold_written_columns_grow_with_the_bytes_a_call_moves),
                   T(short_reductions_are_unrolled_and_vectorized),
                   T(half_precision_products_run_at_their_converted_chain),
                   T(integer_convs_run_at_the_probed_rates),
                   T(a_converted_half_type_computes_at_f32_peak),
                   T(attention_walks_the_columns_of_its_two_products),
                   T(transposes_walk_the_column_of_their_strided_side),
                   T(no_cache_geometry_no_column_walk),
                   T(fused_kernel_uses_anchor_table_and_says_so),
                   T(two_d_delaunay_on_a_plane),
                   T(three_d_delaunay_in_a_volume),
                   T(delaunay_confidence_follows_corner_spread),
                   T(collinear_points_are_degenerate_not_fatal),
                   T(duplicates_are_averaged_and_bad_latencies_dropped),
                   T(policy_transform_applies_to_candidates_and_target),
                   T(square_transform_interpolates_quadratic_work_exactly),
                   T(confidence_never_changes_the_answer),
                   T(tables_loaded_by_kernel_answer_as_a_full_load),
                   T(concurrent_queries_give_identical_answers));
}
