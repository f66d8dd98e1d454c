/*===- test_calibrate.c - the host roofline's fitted efficiencies ----------===*
 *
 * latency-profile's calibration (tools/latency-profile/calibrate.c,
 * calibrate_slopes.c, calibrate_weight_copy.c) on shapes built here with
 * known measured times: the median efficiency per type, the power law
 * along the axes kept only where it predicts the shapes better than the
 * median does, and the per-byte cost of a weight transposed per call.
 *
 *===----------------------------------------------------------------------===*/
#include "harness.h"

#include "allocator.h"
#include "cold_kept.h"
#include "draws.h"
#include "profile_writer.h"
#include "slow_window.h"

#include "latency/costmodel_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double kPeak = 1e9; /* FLOP/s of the device below */

static void setField(LpShape *s, int i, const char *name, double value) {
  snprintf(s->names[i], sizeof s->names[i], "%s", name);
  snprintf(s->values[i], sizeof s->values[i], "%.17g", value);
}

/* Ends shape `s` with an f32 dtype as its field `last` and makes it
 * measured: `flops` and `bytes` of work, taking the time an efficiency of
 * `efficiency` gives its flops. */
static void measuredF32(LpShape *s, int last, double flops, double bytes,
                        double efficiency) {
  snprintf(s->names[last], sizeof s->names[last], "dtype");
  snprintf(s->values[last], sizeof s->values[last], "f32");
  s->numFields = last + 1;
  s->flops = flops;
  s->bytes = bytes;
  s->result.ok = true;
  s->result.us = s->flops / (kPeak * efficiency) * 1e6;
}

/* A measured matmul+add shape whose efficiency is `efficiency`. */
static void matmulShape(LpShape *s, double m, double n, double k,
                        double efficiency) {
  memset(s, 0, sizeof *s);
  snprintf(s->type, sizeof s->type, "matmul+add");
  setField(s, 0, "m", m);
  setField(s, 1, "n", n);
  setField(s, 2, "k", k);
  measuredF32(s, 3, 2 * m * n * k, 4 * (m * k + k * n + m * n), efficiency);
}

static LpDeviceNumbers device(void) {
  LpDeviceNumbers d;
  memset(&d, 0, sizeof d);
  d.numDtypes = 1;
  snprintf(d.dtypes[0], sizeof d.dtypes[0], "f32");
  d.peakFlops[0] = kPeak;
  d.memBw = 1e15; /* every shape compute-bound */
  return d;
}

static double fitted(const LpDeviceNumbers *d, const char *key) {
  for (int i = 0; i < d->numFitted; i++)
    if (!strcmp(d->fittedKeys[i], key))
      return d->fittedValues[i];
  return NAN;
}

/* 5 x 5 shapes over n and k, efficiency 0.4 x (n / 256) ^ -0.5 (a slower
 * column walk as n grows), k without effect: the law is kept, its n slope
 * close to -0.5 (a small ridge pulls it in), k's close to 0, the range is
 * the shapes', and the efficiency at the centre of the range. */
TEST(power_law_is_fitted_where_it_predicts_better) {
  LpShape shapes[25];
  double ns[] = {16, 64, 256, 1024, 4096}, ks[] = {32, 64, 128, 256, 512};
  for (int i = 0; i < 25; i++)
    matmulShape(&shapes[i], 8, ns[i / 5], ks[i % 5],
                0.4 * pow(ns[i / 5] / 256, -0.5));
  LpShapeSet set = {shapes, 25, 25};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "efficiency_slope.matmul+add.n"), -0.5, 0.05);
  CHECK(fabs(fitted(&d, "efficiency_slope.matmul+add.k")) < 0.01);
  CHECK(fitted(&d, "efficiency_lo.matmul+add.n") == 16);
  CHECK(fitted(&d, "efficiency_hi.matmul+add.n") == 4096);
  CHECK(fitted(&d, "efficiency_lo.matmul+add.k") == 32);
  CHECK(fitted(&d, "efficiency_hi.matmul+add.k") == 512);
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+add.m"))); /* one value */
  CHECK(isnan(fitted(&d, "efficiency_reduction_k0.matmul+add")));
  /* the centre of n's range is 256, of k's 128: efficiency 0.4 there */
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.4, 0.02);
}

/* A family (<anchor>+*) is fitted over every measured type of its anchor,
 * for a type no bundled model has. Two matmul types on one law along n,
 * the second twice as fast: the family's slope is the law's, its centre
 * the two types' geometric mean; each type keeps its own fit. An anchor
 * measured only unfused (transpose) has no family; every shape still
 * counts once in the device-wide median. */
TEST(a_family_is_fitted_over_every_type_of_its_anchor) {
  LpShape shapes[53];
  double ns[] = {16, 64, 256, 1024, 4096}, ks[] = {32, 64, 128, 256, 512};
  for (int i = 0; i < 50; i++) {
    double law = 0.4 * pow(ns[i % 25 / 5] / 256, -0.5);
    matmulShape(&shapes[i], 8, ns[i % 25 / 5], ks[i % 5],
                i < 25 ? law : 2 * law);
    if (i >= 25)
      snprintf(shapes[i].type, sizeof shapes[i].type, "matmul+silu");
  }
  for (int i = 50; i < 53; i++) {
    matmulShape(&shapes[i], 8, 64, 64, 0.1);
    snprintf(shapes[i].type, sizeof shapes[i].type, "transpose");
  }
  LpShapeSet set = {shapes, 53, 53};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "efficiency_slope.matmul+*.n"), -0.5, 0.05);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+*"), 0.4 * sqrt(2), 0.03);
  CHECK(fitted(&d, "efficiency_lo.matmul+*.n") == 16);
  CHECK(fitted(&d, "efficiency_hi.matmul+*.n") == 4096);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.4, 0.02);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+silu"), 0.8, 0.04);
  CHECK(fitted(&d, "compute_efficiency.transpose") == 0.1);
  CHECK(isnan(fitted(&d, "compute_efficiency.transpose+*")));
  /* the median of 53: 25 + 25 law shapes and three at 0.1 */
  double all[53];
  for (int i = 0; i < 53; i++)
    all[i] = shapes[i].flops / kPeak / (shapes[i].result.us * 1e-6);
  CHECK_NEAR(fitted(&d, "compute_efficiency"), lpMedian(all, 53), 1e-9);
}

/* A family whose shapes give no law (one shape size) takes the median of
 * all its types' shapes: four matmul+add at 0.2 and five plain matmuls at
 * 0.4 make matmul+* 0.4 (0.2 without the plain ones); batch_matmul+add
 * (nine at 0.9) is a family of its own, and would have made it 0.9. */
TEST(a_family_without_a_law_takes_the_median_of_its_types) {
  LpShape shapes[18];
  for (int i = 0; i < 18; i++) {
    matmulShape(&shapes[i], 8, 64, 64, i < 4 ? 0.2 : i < 9 ? 0.4 : 0.9);
    snprintf(shapes[i].type, sizeof shapes[i].type, "%s",
             i < 4   ? "matmul+add"
             : i < 9 ? "matmul"
                     : "batch_matmul+add");
  }
  LpShapeSet set = {shapes, 18, 18};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+*"), 0.4, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency.batch_matmul+*"), 0.9, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul"), 0.4, 1e-9);
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+*.n")));
}

/* The same shapes at one efficiency: the median predicts them exactly, so
 * no law is kept and the type keeps its median. */
TEST(constant_efficiency_keeps_the_median_and_no_slopes) {
  LpShape shapes[25];
  double ns[] = {16, 64, 256, 1024, 4096}, ks[] = {32, 64, 128, 256, 512};
  for (int i = 0; i < 25; i++)
    matmulShape(&shapes[i], 8, ns[i / 5], ks[i % 5], 0.25);
  LpShapeSet set = {shapes, 25, 25};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.25, 1e-9);
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+add.n")));
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+add.k")));
}

/* No bundled model has an exp, sigmoid or SiLU kernel (EfficientNet's):
 * their families take their compute efficiency from the sigmoid probe,
 * unless the models measured the anchor (a fused type fitted the family,
 * or the plain type its own efficiency); without the probe they have
 * none. SiLU adds a multiply's time to the sigmoid's. */
TEST(transcendentals_take_the_sigmoid_probe_unless_measured) {
  LpShape shapes[5];
  matmulShape(&shapes[0], 8, 64, 64, 0.4);
  matmulShape(&shapes[1], 8, 64, 64, 0.7);
  snprintf(shapes[1].type, sizeof shapes[1].type, "exp+mul");
  matmulShape(&shapes[2], 8, 64, 64, 0.9);
  snprintf(shapes[2].type, sizeof shapes[2].type, "sigmoid+mul");
  matmulShape(&shapes[3], 8, 64, 64, 2.0);
  snprintf(shapes[3].type, sizeof shapes[3].type, "mul");
  matmulShape(&shapes[4], 8, 64, 64, 0.8);
  snprintf(shapes[4].type, sizeof shapes[4].type, "sigmoid");
  LpDeviceNumbers d = device();
  d.sigmoidEfficiency = 1.5;
  LpShapeSet none = {shapes, 0, 0}, one = {shapes, 1, 1},
             fused = {shapes, 4, 4}, plain = {&shapes[4], 1, 1};
  lpFitEfficiencies(&one, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.exp+*"), 1.5, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency.sigmoid+*"), 1.5, 1e-9);
  /* 4 + 1 flops: the sigmoid's time and a multiply's at the device-wide
     efficiency (no `mul` measured) */
  CHECK_NEAR(fitted(&d, "compute_efficiency.silu+*"), 5 / (4 / 1.5 + 1 / 0.4),
             1e-9);
  lpFitEfficiencies(&none, &d); /* no efficiency at all: a multiply at 1 */
  CHECK_NEAR(fitted(&d, "compute_efficiency.silu+*"), 5 / (4 / 1.5 + 1.0),
             1e-9);
  lpFitEfficiencies(&fused, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.exp+*"), 0.7, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency.sigmoid+*"), 0.9, 1e-9);
  /* the measured sigmoid and multiply price SiLU */
  CHECK_NEAR(fitted(&d, "compute_efficiency.silu+*"), 5 / (4 / 0.9 + 1 / 2.0),
             1e-9);
  lpFitEfficiencies(&plain, &d); /* a plain sigmoid measured: its own */
  CHECK_NEAR(fitted(&d, "compute_efficiency.sigmoid+*"), 0.8, 1e-9);
  /* measured memory-bound: the family takes that side, not the probe */
  LpDeviceNumbers slowMemory = device();
  slowMemory.memBw = 1e3;
  slowMemory.sigmoidEfficiency = 1.5;
  lpFitEfficiencies(&plain, &slowMemory);
  double memory = fitted(&slowMemory, "memory_efficiency.sigmoid");
  CHECK(memory > 0);
  CHECK_NEAR(fitted(&slowMemory, "memory_efficiency.sigmoid+*"), memory, 1e-9);
  CHECK(isnan(fitted(&slowMemory, "compute_efficiency.sigmoid+*")));
  LpDeviceNumbers noProbe = device();
  lpFitEfficiencies(&one, &noProbe);
  CHECK(isnan(fitted(&noProbe, "compute_efficiency.exp+*")));
  CHECK(isnan(fitted(&noProbe, "compute_efficiency.silu+*")));
}

/* Too few shapes for the terms (three per term): the median only. */
TEST(few_shapes_get_no_slopes) {
  LpShape shapes[4];
  for (int i = 0; i < 4; i++)
    matmulShape(&shapes[i], 8, 16 << (2 * i), 64, 0.4 * pow(4, -i));
  LpShapeSet set = {shapes, 4, 4};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+add.n")));
  CHECK(fitted(&d, "compute_efficiency.matmul+add") > 0);
}

/* Shape `s` as a kernel that transposes its weight on every call. */
static void transposeWeight(LpShape *s, bool transposed) {
  snprintf(s->names[4], sizeof s->names[4], "weight_transposed");
  snprintf(s->values[4], sizeof s->values[4], "%d", transposed);
  s->numFields = 5;
}

/* Kernels that transpose their weight on every call (ten times slower
 * here, as a fresh copy costs through `loops`) are left out of the fit:
 * the plain ones' efficiency and no slopes, though they outnumber them. */
TEST(transposed_weights_are_left_out_of_the_fit) {
  LpShape shapes[25];
  double ns[] = {16, 64, 256, 1024, 4096}, ks[] = {32, 64, 128, 256, 512};
  for (int i = 0; i < 25; i++) {
    bool transposed = i % 5 != 0;
    matmulShape(&shapes[i], 8, ns[i / 5], ks[i % 5],
                transposed ? 0.025 * pow(ns[i / 5] / 256, -0.5) : 0.25);
    transposeWeight(&shapes[i], transposed);
  }
  LpShapeSet set = {shapes, 25, 25};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.25, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency"), 0.25, 1e-9);
  CHECK(isnan(fitted(&d, "efficiency_slope.matmul+add.n")));
}

/* The copy a transposed weight costs: shapes that took 5 ns per weight
 * byte beyond the plain roofline (whose efficiency the plain shapes give)
 * from LP_FRESH_MAPPING_BYTES on, and 50 ns/B below it, where the heap
 * serves the copy: the fitted rate is 5 per type and device-wide, and the
 * plain efficiency is the plain shapes'. */
TEST(transposed_weights_fit_the_copy_rate_above_the_mapping_threshold) {
  LpShape shapes[25];
  double ns[] = {16, 64, 256, 1024, 4096}, ks[] = {32, 64, 128, 256, 512};
  int large = 0;
  for (int i = 0; i < 25; i++) {
    bool transposed = i % 5 != 0;
    matmulShape(&shapes[i], 8, ns[i / 5], ks[i % 5], 0.25);
    transposeWeight(&shapes[i], transposed);
    double bytes = lpWeightBytes(&shapes[i]);
    CHECK(bytes == ns[i / 5] * ks[i % 5] * 4);
    bool mapped = bytes >= LP_FRESH_MAPPING_BYTES;
    large += transposed && mapped;
    if (transposed)
      shapes[i].result.us += bytes * (mapped ? 5 : 50) * 1e-3;
  }
  CHECK(large >= 5); /* the test means something */
  LpShapeSet set = {shapes, 25, 25};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.25, 1e-9);
  CHECK_NEAR(fitted(&d, "weight_copy_ns_per_byte.matmul+add"), 5, 1e-6);
  CHECK_NEAR(fitted(&d, "weight_copy_ns_per_byte"), 5, 1e-6);
}

/* A copy rate that grows with the weight, 3 ns/B x (bytes / 1 MiB) ^ 0.2
 * from 256 KiB to 4 MiB: the slope and range are fitted, and the rates
 * are given at the range's centre (1 MiB: 3 ns/B). */
TEST(copy_rate_grows_along_the_weight_size) {
  LpShape shapes[8];
  for (int i = 0; i < 8; i++) {
    double n = 256.0 * (1 << (i % 4)), k = 256.0 * (1 << (i / 4));
    matmulShape(&shapes[i], 8, n, k, 0.25);
    transposeWeight(&shapes[i], true);
    double bytes = lpWeightBytes(&shapes[i]);
    shapes[i].result.us += bytes * 3 * pow(bytes / 1048576, 0.2) * 1e-3;
  }
  LpShape plain[3]; /* the efficiency the copy is measured beyond */
  for (int i = 0; i < 3; i++)
    matmulShape(&plain[i], 8, 64 << i, 64, 0.25);
  LpShape all[11];
  memcpy(all, shapes, sizeof shapes);
  memcpy(all + 8, plain, sizeof plain);
  LpShapeSet set = {all, 11, 11};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "weight_copy_slope"), 0.2, 1e-6);
  CHECK(fitted(&d, "weight_copy_lo_bytes") == 262144);
  CHECK(fitted(&d, "weight_copy_hi_bytes") == 4194304);
  CHECK_NEAR(fitted(&d, "weight_copy_ns_per_byte"), 3, 1e-6);
}

/* A kernel's scratch buffers are taken out of its time at the probed rate
 * before its efficiency is fitted (the roofline adds them back). */
TEST(scratch_pages_are_left_out_of_the_efficiency) {
  LpShape shapes[3];
  for (int i = 0; i < 3; i++) {
    matmulShape(&shapes[i], 8, 64 << i, 64, 0.25);
    shapes[i].scratchBytes = 1e6;
    shapes[i].result.us += 1e6 * 2 * 1e-3; /* 2 ns/B */
  }
  LpShapeSet set = {shapes, 3, 3};
  LpDeviceNumbers d = device();
  d.scratchNsPerByte = 2;
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.25, 1e-9);
  d = device(); /* without the rate the pages look like slow compute */
  lpFitEfficiencies(&set, &d);
  CHECK(fitted(&d, "compute_efficiency.matmul+add") < 0.2);
}

/* A measured conv shape of `type` (3 x 3, stride 1, f32) over `cin`
 * channels, channels last or not, whose efficiency is `efficiency`. */
static void convShape(LpShape *s, const char *type, double cin, bool last,
                      double efficiency) {
  memset(s, 0, sizeof *s);
  snprintf(s->type, sizeof s->type, "%s", type);
  const char *names[] = {"batch", "hw", "cin", "cout", "stride", "window"};
  const double values[] = {1, 196, cin, 64, 1, 9};
  for (int i = 0; i < 6; i++)
    setField(s, i, names[i], values[i]);
  snprintf(s->names[6], sizeof s->names[6], "dtype");
  snprintf(s->values[6], sizeof s->values[6], "f32");
  setField(s, 7, "channels_last", last);
  s->numFields = 8;
  s->flops = 2 * 196 * cin * 64 * 9;
  s->bytes = 4 * 196 * (cin + 64);
  s->result.ok = true;
  s->result.us = s->flops / (kPeak * efficiency) * 1e6;
}

/* Through `loops` the time per multiply-add rises with the reduction per
 * output and levels off, a form no power law has: shapes over cin (16 to
 * 512) x window (1, 9) x hw (49, 784) at efficiency 0.3 x (1 + 32 / k), k =
 * cin x window, get the reduction term with k0 = 32 over k's range, cin's
 * and window's slopes near 0, and the law predicts the longest reduction
 * within 2%. Matmuls whose efficiency does not depend on k get no term
 * (power_law_is_fitted_where_it_predicts_better). */
TEST(a_reduction_law_levels_off) {
  LpShape shapes[24];
  for (int i = 0; i < 24; i++) {
    double cin = 16 << (i % 6), window = i / 6 % 2 ? 9 : 1;
    double hw = i / 12 ? 784 : 49;
    convShape(&shapes[i], "conv2d+batchnorm+relu", cin, false, 1);
    setField(&shapes[i], 1, "hw", hw);
    setField(&shapes[i], 5, "window", window);
    double k = cin * window, efficiency = 0.3 * (1 + 32 / k);
    shapes[i].flops = 2 * hw * cin * 64 * window;
    shapes[i].result.us = shapes[i].flops / (kPeak * efficiency) * 1e6;
  }
  LpShapeSet set = {shapes, 24, 24};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  const char *type = "conv2d+batchnorm+relu";
  char key[128];
  snprintf(key, sizeof key, "efficiency_reduction_k0.%s", type);
  CHECK(fitted(&d, key) == 32);
  snprintf(key, sizeof key, "efficiency_reduction_lo.%s", type);
  CHECK(fitted(&d, key) == 16);
  snprintf(key, sizeof key, "efficiency_reduction_hi.%s", type);
  CHECK(fitted(&d, key) == 512 * 9);
  snprintf(key, sizeof key, "efficiency_slope.%s.cin", type);
  CHECK(fabs(fitted(&d, key)) < 0.05);
  snprintf(key, sizeof key, "efficiency_slope.%s.window", type);
  CHECK(fabs(fitted(&d, key)) < 0.05);
  /* the law at the longest reduction (cin 512, window 9, hw at the
     centre of its range, where its slope does not act) */
  double centre = fitted(&d, "compute_efficiency.conv2d+batchnorm+relu");
  snprintf(key, sizeof key, "efficiency_slope.%s.window", type);
  double windowSlope = fitted(&d, key);
  snprintf(key, sizeof key, "efficiency_slope.%s.cin", type);
  double cinSlope = fitted(&d, key);
  double law = centre * pow(9 / 3.0, windowSlope) *
               pow(512 / sqrt(16 * 512.0), cinSlope) *
               cmReductionLawFactor(4608, 32, 16, 4608);
  CHECK_NEAR(law, 0.3 * (1 + 32 / 4608.0), 0.02);
}

/* Channels-last convs get one efficiency per anchor, the median over all
 * their fused types (scratch pages left out), and a curve of it over their
 * reduction per output; they stay out of the efficiencies of the
 * channels-first kernels of the same type. */
TEST(channels_last_convs_fit_an_efficiency_per_anchor) {
  LpShape shapes[9];
  for (int i = 0; i < 3; i++)
    convShape(&shapes[i], "conv2d+batchnorm+relu", 16 << i, false, 2);
  for (int i = 3; i < 6; i++) {
    convShape(&shapes[i], "conv2d+batchnorm+relu", 16 << i, true, 4);
    shapes[i].scratchBytes = 1e6;
    shapes[i].result.us += 1e6 * 2 * 1e-3; /* 2 ns/B */
  }
  convShape(&shapes[6], "conv2d+add", 64, true, 5);
  convShape(&shapes[7], "conv2d+add", 128, true, 5);
  convShape(&shapes[8], "depthwise_conv2d+relu", 64, true, 0.5);
  LpShapeSet set = {shapes, 9, 9};
  LpDeviceNumbers d = device();
  d.scratchNsPerByte = 2;
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.conv2d+batchnorm+relu"), 2, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency"), 2, 1e-9);
  CHECK(isnan(fitted(&d, "compute_efficiency.conv2d+add")));
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d"), 4, 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.depthwise_conv2d"), 0.5,
             1e-9);
  CHECK(isnan(fitted(&d, "channels_last_efficiency.conv2d+add")));
  CHECK(isnan(fitted(&d, "channels_last_efficiency")));
  /* the curve over cin x window: 576 (5), 1152 (4 and 5: 4.5), 2304 (4),
     4608 (4), read at the powers of two from 512 to 8192 */
  CHECK(isnan(fitted(&d, "channels_last_efficiency.conv2d.k256")));
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k512"), 5, 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k1024"),
             5 - 0.5 * log(1024 / 576.0) / log(2), 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k2048"),
             4.5 - 0.5 * log(2048 / 1152.0) / log(2), 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k4096"), 4, 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k8192"), 4, 1e-9);
  CHECK(isnan(fitted(&d, "channels_last_efficiency.conv2d.k16384")));
  /* one reduction is no curve */
  CHECK(isnan(fitted(&d, "channels_last_efficiency.depthwise_conv2d.k8")));
  CHECK(isnan(fitted(&d, "channels_last_efficiency.depthwise_conv2d.k16")));
}

/* A channels-last conv's epilogue passes (its batch norm's loop nests)
 * come out of its efficiency at the probed rate, as its scratch pages do:
 * the roofline adds them back per kernel. A channels-first conv keeps its
 * own in its type's efficiency, which the roofline prices it with. */
TEST(epilogue_passes_are_left_out_of_the_channels_last_efficiency) {
  LpShape shapes[4];
  for (int i = 0; i < 4; i++) {
    bool last = i < 2;
    convShape(&shapes[i], "conv2d+batchnorm+relu", 16 << i, last, 4);
    shapes[i].epiloguePasses = 7;
    shapes[i].epilogueElements = 7 * 196 * 64; /* 49 KiB a pass */
    shapes[i].result.us += shapes[i].epilogueElements * 0.5 * 1e-3;
  }
  LpShapeSet set = {shapes, 4, 4};
  LpDeviceNumbers d = device();
  d.epilogueNs[0] = 0.5; /* 16 KiB */
  d.epilogueNs[2] = 0.5; /* 256 KiB */
  CHECK_NEAR(lpEpilogueUs(&d, &shapes[0]), 7 * 196 * 64 * 0.5e-3, 1e-9);
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d"), 4, 1e-9);
  CHECK(fitted(&d, "compute_efficiency.conv2d+batchnorm+relu") < 4);
  d = device(); /* without the probe the passes look like slow compute */
  lpFitEfficiencies(&set, &d);
  CHECK(fitted(&d, "channels_last_efficiency.conv2d") < 3.9);
}

/* A curve is written whole or not at all: with room for fewer keys than
 * its points, only the median is. */
TEST(a_channels_last_curve_without_room_is_not_written) {
  LpShape shapes[2];
  convShape(&shapes[0], "conv2d+relu", 16, true, 4);
  convShape(&shapes[1], "conv2d+relu", 512, true, 2); /* k144, k4608 */
  LpShapeSet set = {shapes, 2, 2};
  LpDeviceNumbers d = device();
  d.numFitted = LP_MAX_FITTED - 3; /* room for the median and two points */
  for (int i = 0; i < d.numFitted; i++)
    snprintf(d.fittedKeys[i], sizeof d.fittedKeys[i], "other.%d", i);
  lpFitChannelsLast(&set, &d);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d"), 3, 1e-9);
  CHECK(d.numFitted == LP_MAX_FITTED - 2);
  d.numFitted = 0; /* room: k128 .. k8192, 7 points */
  lpFitChannelsLast(&set, &d);
  CHECK(d.numFitted == 8);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k128"), 4, 1e-9);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d.k8192"), 2, 1e-9);
}

/* The median y at each distinct x, x ascending, after the points that are
 * not finite and positive are dropped. */
TEST(median_per_x_groups_and_filters) {
  LpPoint p[] = {{4, 1}, {2, 5}, {4, 3}, {NAN, 1},      {2, 1}, {1, -1},
                 {4, 2}, {0, 7}, {2, 3}, {8, INFINITY}, {2, 7}};
  size_t kept;
  size_t groups = lpMedianPerX(p, sizeof p / sizeof p[0], &kept);
  CHECK(groups == 2 && kept == 7);
  CHECK(p[0].x == 2 && p[0].y == 4); /* 1 3 5 7: even, the mean of 3, 5 */
  CHECK(p[1].x == 4 && p[1].y == 2); /* 1 2 3 */
  CHECK(lpMedianPerX(p, 0, NULL) == 0);
}

/* What the cache keeps (cold_kept.c), from p43's cold-kept penalties on the
 * project's VM at nominal 2..64 MiB of other weights between two reads
 * (the chains' own sizes are 2.25..64.1 MiB; none at 2 MiB): the penalty
 * crosses half the median of the cold points (0.0571 / 2) between 4 and 8 MiB,
 * log-linearly. */
TEST(the_kept_bytes_are_read_off_where_the_penalty_crosses_half_its_median) {
  const double mib = 1048576;
  double bytes[] = {2 * mib, 4 * mib, 8 * mib, 16 * mib, 32 * mib, 64 * mib};
  double penalty[] = {0, 0.0193, 0.163, 0.133, 0.0571, 0.0463};
  double half = 0.0571 / 2, t = (half - 0.0193) / (0.163 - 0.0193);
  CHECK_NEAR(lpColdKeptBytes(bytes, penalty, 6), 4 * mib * pow(2, t), 1e-9);
  CHECK(penalty[2] == 0.163 && penalty[4] == 0.0571); /* not sorted */
  /* a point's draw across the level moves it a little, not by a point */
  penalty[1] = 0.028; /* just under: between 4 and 8 MiB, near 4 */
  double kept = lpColdKeptBytes(bytes, penalty, 6);
  CHECK(kept > 4 * mib && kept < 4.02 * mib);
  penalty[1] = 0.029; /* just over: between 2 and 4 MiB, near 4 */
  kept = lpColdKeptBytes(bytes, penalty, 6);
  CHECK(kept > 3.95 * mib && kept < 4 * mib);
  /* cold at the first point: read off from none at half its bytes */
  double early[] = {0.05, 0.06, 0.05, 0.06, 0.05, 0.06};
  CHECK_NEAR(lpColdKeptBytes(bytes, early, 6), mib * pow(2, 0.0275 / 0.05),
             1e-12);
  /* warm points (none within the noise) do not drag the level to nothing */
  double late[] = {0, 0, 0, 0, 0.05, 0.06};
  CHECK_NEAR(lpColdKeptBytes(bytes, late, 6), 16 * mib * pow(2, 0.55), 1e-12);
  /* nothing came out cold */
  double none[] = {0, 0, 0, 0, 0, 0};
  CHECK(lpColdKeptBytes(bytes, none, 6) == 0);
  CHECK(lpColdKeptBytes(bytes, none, 0) == 0);
}

/* Draws of one kernel in processes of their own (session 23: a depthwise
 * conv at 123 us drew up to 178): two that agree are averaged, a third
 * settles two that do not. */
TEST(a_far_draw_is_outvoted_and_close_draws_are_averaged) {
  CHECK(lpDrawsAgree(120, 128, LP_DRAW_TOLERANCE));
  CHECK(lpDrawsAgree(128, 120, LP_DRAW_TOLERANCE));
  CHECK(!lpDrawsAgree(123, 178, LP_DRAW_TOLERANCE));
  CHECK(!lpDrawsAgree(178, 123, LP_DRAW_TOLERANCE));
  CHECK(lpDrawsAgree(100, 109.9, 0.1) && !lpDrawsAgree(100, 110.1, 0.1));
  double two[] = {120, 128};
  CHECK_NEAR(lpCombineDraws(two, 2), 124, 1e-12);
  /* the far draw first, last or between: the median of the three */
  double far[][3] = {{178, 123, 121}, {123, 121, 178}, {121, 178, 123}};
  for (int i = 0; i < 3; i++)
    CHECK_NEAR(lpCombineDraws(far[i], 3), 123, 1e-12);
  CHECK(far[0][0] == 178); /* not sorted */
  CHECK_NEAR(lpCombineDraws(two, 1), 120, 1e-12);
  CHECK(lpCombineDraws(two, 0) == 0);
  /* the price and what it stands for: two that disagree, where the third
   * failed, keep the lower as one draw */
  double price;
  CHECK(lpPriceDraws(two, 2, &price) == 2 && fabs(price - 124) < 1e-12);
  double apart[] = {178, 123};
  CHECK(lpPriceDraws(apart, 2, &price) == 1 && price == 123);
  CHECK(lpPriceDraws(far[1], 3, &price) == 3 && price == 123);
  CHECK(lpPriceDraws(apart, 1, &price) == 1 && price == 178);
  CHECK(lpPriceDraws(apart, 0, &price) == 0 && price == 0);
}

/* Canary readings every few of 12 measurements and one after the last;
 * the host ran 1.4x slow around the reading before measurement 6 (p47's
 * spells, session 23). */
TEST(measurements_next_to_a_slow_canary_reading_are_drawn_again) {
  double readings[13] = {0};
  readings[0] = 100, readings[3] = 102, readings[6] = 140, readings[9] = 99;
  readings[12] = 101;
  bool suspect[12];
  CHECK(lpMarkSlowWindows(readings, 12, LP_SLOW_TOLERANCE, suspect) == 6);
  /* 3-5: the next reading is slow; 6-8: the last one before is */
  for (int i = 0; i < 12; i++)
    CHECK(suspect[i] == (i >= 3 && i <= 8));
  CHECK(readings[6] == 140); /* not sorted */
  CHECK_NEAR(lpTypicalReading(readings, 13), 101, 1e-12);
  /* the reading after the last closes the run */
  readings[12] = 130;
  CHECK(lpMarkSlowWindows(readings, 12, LP_SLOW_TOLERANCE, suspect) == 9);
  CHECK(suspect[9] && suspect[11] && !suspect[2]);
  /* within the tolerance, nothing */
  double quiet[5] = {100, 0, 112, 0, 95};
  CHECK(lpMarkSlowWindows(quiet, 4, LP_SLOW_TOLERANCE, suspect) == 0);
  /* two readings say nothing of what is typical */
  double two[4] = {100, 0, 0, 300};
  CHECK(lpMarkSlowWindows(two, 3, LP_SLOW_TOLERANCE, suspect) == 0);
  CHECK(!suspect[0] && !suspect[2]);
  CHECK(!lpReadingIsSlow(0, 100, 0.15) && !lpReadingIsSlow(200, 0, 0.15));
  CHECK(lpReadingIsSlow(116, 100, 0.15) && !lpReadingIsSlow(114, 100, 0.15));
}

/* A type whose transposed weights are all under LP_FRESH_MAPPING_BYTES
 * (copied within the warm heap) gets no rate, however slow they are. */
TEST(small_transposed_weights_fit_no_copy_rate) {
  LpShape shapes[6];
  for (int i = 0; i < 6; i++) {
    matmulShape(&shapes[i], 8, 16 << (i % 3), 64, 0.25);
    transposeWeight(&shapes[i], i >= 3);
    if (i >= 3)
      shapes[i].result.us *= 10;
    CHECK(lpWeightBytes(&shapes[i]) < LP_FRESH_MAPPING_BYTES);
  }
  LpShapeSet set = {shapes, 6, 6};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK(isnan(fitted(&d, "weight_copy_ns_per_byte.matmul+add")));
  CHECK(isnan(fitted(&d, "weight_copy_ns_per_byte")));
}

/* Without transposed shapes there is no rate to fit. */
TEST(plain_weights_fit_no_copy_rate) {
  LpShape shapes[4];
  for (int i = 0; i < 4; i++)
    matmulShape(&shapes[i], 8, 256 << i, 512, 0.25);
  LpShapeSet set = {shapes, 4, 4};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK(isnan(fitted(&d, "weight_copy_ns_per_byte")));
}

/* Nine f32 matmul+add shapes at m = 8 under a 48 KiB 12-way L1 and a 1 MiB
 * 8-way L2: n = 1000 (its column in L1 up to k = 768) at efficiency 0.25
 * (8 ns a multiply-add at 1 GFLOP/s), n = 512 at k = 128..512 (L2) at 20 ns,
 * n = 1024 at k = 1024 and 4096 (neither) at 40 ns. */
static void spilledShapes(LpShape *shapes) {
  double ks[] = {64, 128, 256, 512};
  for (int i = 0; i < 4; i++)
    matmulShape(&shapes[i], 8, 1000, ks[i], 0.25);
  for (int i = 0; i < 3; i++) {
    matmulShape(&shapes[4 + i], 8, 512, ks[i + 1], 0.25);
    shapes[4 + i].result.us = 8 * 512 * ks[i + 1] * 20e-3;
  }
  for (int i = 0; i < 2; i++) {
    matmulShape(&shapes[7 + i], 8, 1024, 1024 << (2 * i), 0.25);
    shapes[7 + i].result.us = 8 * 1024 * (1024 << (2 * i)) * 40e-3;
  }
}

/* device() with the project's EPYC caches: a 48 KiB 12-way L1, a 1 MiB
 * 8-way L2, 64 B lines. */
static LpDeviceNumbers epycDevice(void) {
  LpDeviceNumbers d = device();
  d.caches = (CmCacheGeometry){49152, 12, 1048576, 8, 64};
  return d;
}

/* A channels-first depthwise conv over a 32 x 32 f32 plane (one 4 KiB L1
 * way) waits on its own stores (latency/column_walk.h): with the host's
 * caches it stays out of its type's efficiency, which the 14 x 14 planes
 * give alone; a channels-last one over the same plane is no such walk, and
 * none is without the walk's probe. */
TEST(aliased_depthwise_planes_are_left_out_of_the_efficiency) {
  LpShape shapes[6];
  for (int i = 0; i < 6; i++) {
    convShape(&shapes[i], "depthwise_conv2d+batchnorm", 32 << (i % 3), false,
              i < 3 ? 0.5 : 0.05);
    if (i >= 3)
      setField(&shapes[i], 1, "hw", 1024);
  }
  LpShapeSet set = {shapes, 6, 6};
  LpDeviceNumbers d = epycDevice();
  CHECK(!lpAliasesAccumulator(&d, &shapes[3])); /* not probed */
  for (int i = 0; i < CM_ACCUMULATOR_WALK_POINTS; i++)
    d.accumulatorWalkNs[i] = 5;
  CHECK(!lpAliasesAccumulator(&d, &shapes[0]));
  CHECK(lpAliasesAccumulator(&d, &shapes[3]));
  setField(&shapes[3], 7, "channels_last", 1);
  CHECK(!lpAliasesAccumulator(&d, &shapes[3]));
  setField(&shapes[3], 7, "channels_last", 0);
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.depthwise_conv2d+batchnorm"), 0.5,
             1e-9);
}

/* With the column-walk grid's shortest column (a `loops` profile), a 1 x 1
 * conv over 16 channels and a matmul with k = 16 are unrolled and
 * vectorized (CM_UNROLLED_REDUCTION): they stay out of their types'
 * efficiencies, which the longer reductions give alone. Without the grid,
 * or with part of its column, they count. */
TEST(unrolled_reductions_are_left_out_of_the_efficiency) {
  LpShape shapes[8];
  for (int i = 0; i < 4; i++) {
    bool shortOne = i >= 2;
    convShape(&shapes[i], "conv2d+batchnorm", shortOne ? 16 : 64, false,
              shortOne ? 5 : 0.5);
    if (shortOne)
      setField(&shapes[i], 5, "window", 1);
    matmulShape(&shapes[4 + i], 8, 16, shortOne ? 16 : 128, shortOne ? 4 : 0.4);
  }
  LpShapeSet set = {shapes, 8, 8};
  LpDeviceNumbers d = epycDevice();
  d.walkGridNs[1][0] = 0.05;
  CHECK(!lpUnrolledReduction(&d, &shapes[2])); /* part of the column */
  for (int i = 0; i < CM_WALK_GRID_SETS; i++)
    d.walkGridNs[i][0] = 0.05;
  CHECK(lpUnrolledReduction(&d, &shapes[2]) &&
        lpUnrolledReduction(&d, &shapes[6]));
  CHECK(!lpUnrolledReduction(&d, &shapes[0]) &&
        !lpUnrolledReduction(&d, &shapes[4]));
  LpShape half = shapes[2]; /* the probes' dtype only */
  snprintf(half.values[6], sizeof half.values[6], "f16");
  CHECK(!lpUnrolledReduction(&d, &half));
  LpShape spilled; /* k = 16 at n = 1024: 16 lines in one 12-way set */
  matmulShape(&spilled, 8, 1024, 16, 4);
  CHECK(lpColumnWalkLevel(&d, &spilled) >= 2 &&
        lpColumnWalkUs(&d, &spilled) == 0);
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.conv2d+batchnorm"), 0.5, 1e-9);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.4, 1e-9);
  /* whatever the vector width: a row shorter than a register runs the
     reduction scalar, at a rate of its own that stays out of the fits too */
  LpDeviceNumbers wide = d;
  wide.vectorBits = 512;
  LpShape narrow = shapes[6];
  setField(&narrow, 1, "n", 8);
  CHECK(lpUnrolledReduction(&wide, &shapes[2]) &&
        lpUnrolledReduction(&wide, &narrow));
  LpDeviceNumbers plain = epycDevice();
  CHECK(!lpUnrolledReduction(&plain, &shapes[2]));
  lpFitEfficiencies(&set, &plain);
  CHECK(fitted(&plain, "compute_efficiency.conv2d+batchnorm") > 0.5);
}

/* With the host's caches, matmuls whose weight column spills L1 are
 * samples of the walk, not of the efficiency: their time per multiply-add
 * is fitted per level (per type and dtype, and per dtype), the efficiency
 * from the others only. */
TEST(spilled_columns_fit_the_walk_not_the_efficiency) {
  LpShape shapes[9];
  spilledShapes(shapes);
  LpShapeSet set = {shapes, 9, 9};
  LpDeviceNumbers d = epycDevice();
  CHECK(lpColumnWalkLevel(&d, &shapes[3]) == 1);
  CHECK(lpColumnWalkLevel(&d, &shapes[6]) == 2);
  CHECK(lpColumnWalkLevel(&d, &shapes[8]) == 3);
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.matmul+add"), 0.25, 1e-9);
  CHECK_NEAR(fitted(&d, "column_walk_ns_l2.matmul+add.f32"), 20, 1e-9);
  CHECK_NEAR(fitted(&d, "column_walk_ns_l2.f32"), 20, 1e-9);
  CHECK_NEAR(fitted(&d, "column_walk_ns_mem.matmul+add.f32"), 40, 1e-9);
  CHECK_NEAR(fitted(&d, "column_walk_ns_mem.f32"), 40, 1e-9);
  CHECK_NEAR(lpColumnWalkUs(&d, &shapes[5]), shapes[5].result.us, 1e-9);
  CHECK(lpColumnWalkUs(&d, &shapes[0]) == 0);
}

/* A measured transpose of `elements` f32 whose innermost loop walks a
 * column of `k` elements `stride` apart, at `efficiency` (one flop an
 * element, as the pass counts a generic's). */
static void transposeShape(LpShape *s, double elements, double k, double stride,
                           double efficiency) {
  memset(s, 0, sizeof *s);
  snprintf(s->type, sizeof s->type, "transpose");
  setField(s, 0, "elements", elements);
  setField(s, 1, "walk_k", k);
  setField(s, 2, "walk_stride", stride);
  setField(s, 3, "walk_writes", 1);
  measuredF32(s, 4, elements, 8 * elements, efficiency);
}

/* A transpose whose column spills L1 (4096 elements 4 KiB apart: one set)
 * is priced by the cost model at the grid's rate, so it is no sample of
 * the transpose's efficiency where the grid has that point: three such at
 * 0.05 and three whose column stays (8 elements) at 0.5 make the
 * efficiency 0.5 with the write grid's point (one set, k = 4096); without
 * it (a profile the cost model prices by efficiency alone) all six
 * count. */
TEST(spilled_transposes_are_left_out_where_the_grid_prices_them) {
  LpShape shapes[6];
  for (int i = 0; i < 6; i++)
    transposeShape(&shapes[i], 1 << (16 + i % 3), i < 3 ? 8 : 4096, 1024,
                   i < 3 ? 0.5 : 0.05);
  LpShapeSet set = {shapes, 6, 6};
  LpDeviceNumbers d = epycDevice();
  CHECK(!lpTransposeWalkSpills(&d, &shapes[3]));
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.transpose"), 0.275, 1e-9);
  d.writeWalkGridNs[0][8] = 5; /* one set, k = 4096: the spilled column */
  CHECK(lpTransposeWalkSpills(&d, &shapes[3]) &&
        !lpTransposeWalkSpills(&d, &shapes[0]));
  d.numFitted = 0;
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "compute_efficiency.transpose"), 0.5, 1e-9);
}

/* With the measured grid (column_walk_probe.c), lpColumnWalkUs (the walk
 * the weight-copy fit subtracts from a transposed matmul's time) prices a
 * spilled column at the grid's rate, as the cost model does: point (i, j)
 * at 1 + j + 10 i ns, so n = 1024 at k = 4096 (one L1 set, point 0, 8)
 * walks at 9 ns, not at the fitted 40, and n = 512 at k = 256 (two sets,
 * halfway between points 0, 4 and 1, 4 in log2) at 10; a point not
 * measured leaves the fitted rate. */
TEST(the_measured_grid_prices_the_walk_before_the_fitted_rates) {
  LpShape shapes[9];
  spilledShapes(shapes);
  LpShapeSet set = {shapes, 9, 9};
  LpDeviceNumbers d = epycDevice();
  for (int i = 0; i < CM_WALK_GRID_SETS; i++)
    for (int j = 0; j < CM_WALK_GRID_KS; j++)
      d.walkGridNs[i][j] = 1 + j + 10 * i;
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "column_walk_ns_mem.f32"), 40, 1e-9);
  CHECK_NEAR(lpColumnWalkUs(&d, &shapes[8]), 8 * 1024 * 4096 * 9e-3, 1e-9);
  CHECK_NEAR(lpColumnWalkUs(&d, &shapes[5]), 8 * 512 * 256 * 10e-3, 1e-9);
  d.walkGridNs[0][8] = 0; /* a point not measured: the fitted rate */
  CHECK_NEAR(lpColumnWalkUs(&d, &shapes[8]), shapes[8].result.us, 1e-9);
}

/* L2 samples whose columns crowd 2, 8 and 64 of L1's sets (n = 512, 128
 * and 1000 f32, each at two k in L2) at 1.6 x (sets / 8) ^ -0.25 ns per
 * multiply-add: the slope and the sets' range are fitted, the rate at the
 * centre (8 sets: 1.6), and the walk of each shape as measured. */
TEST(l2_walk_follows_the_l1_sets_its_column_crowds) {
  double ns[] = {512, 512, 128, 128, 1000, 1000};
  double ks[] = {96, 128, 256, 512, 1280, 1500};
  LpShape shapes[6];
  LpDeviceNumbers d = epycDevice();
  double sets[] = {2, 2, 8, 8, 64, 64};
  for (int i = 0; i < 6; i++) {
    matmulShape(&shapes[i], 8, ns[i], ks[i], 0.25);
    shapes[i].result.us =
        8 * ns[i] * ks[i] * 1.6 * pow(sets[i] / 8, -0.25) * 1e-3;
    CHECK(lpColumnWalkLevel(&d, &shapes[i]) == 2);
  }
  LpShapeSet set = {shapes, 6, 6};
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "column_walk_l2_sets_slope.f32"), -0.25, 1e-6);
  CHECK(fitted(&d, "column_walk_l2_sets_lo.f32") == 2);
  CHECK(fitted(&d, "column_walk_l2_sets_lo.f32") == 2);
  CHECK(fitted(&d, "column_walk_l2_sets_hi.f32") == 64);
  CHECK_NEAR(fitted(&d, "column_walk_ns_l2.f32"),
             1.6 * pow(sqrt(128) / 8, -0.25), 1e-6);
  for (int i = 0; i < 6; i++)
    CHECK_NEAR(lpColumnWalkUs(&d, &shapes[i]), shapes[i].result.us, 1e-6);
}

/* The law is fitted over each x's median: a third sample at 2 sets timed
 * 30x too fast (a tiny kernel mistimed) leaves the slope as it was. */
TEST(one_bad_sample_does_not_move_a_law) {
  double x[] = {2, 2, 2, 8, 8, 64, 64},
         y[] = {1.6, 1.6, 0.05, 1.2, 1.2, 0.6, 0.6};
  LpLogLaw law;
  CHECK(lpFitLogLaw(x, y, 7, 4, &law));
  CHECK_NEAR(law.slope, log(0.6 / 1.6) / log(32), 0.05);
  CHECK(law.lo == 2 && law.hi == 64);
  CHECK(!lpFitLogLaw(x, y, 7, 64, &law));        /* spans 32x only */
  CHECK(!lpFitLogLaw(x + 3, y + 3, 4, 4, &law)); /* two distinct x */
}

/* Eight sizes on a law of slope 0.2, the smallest timed 5x too fast (one
 * sample at the edge, where least squares gives it the most leverage: it
 * would make the slope 0.38): the slope stays within 0.03 of 0.2. */
TEST(an_edge_sample_off_does_not_move_a_law) {
  double x[] = {0.15, 0.59, 1.4, 2.36, 5.6, 9.4, 18.9, 75.5}, y[8];
  for (int i = 0; i < 8; i++)
    y[i] = 3 * pow(x[i], 0.2) / (i == 0 ? 5 : 1);
  LpLogLaw law;
  CHECK(lpFitLogLaw(x, y, 8, 8, &law));
  CHECK_NEAR(law.slope, 0.2, 0.03);
  CHECK(law.lo == 0.15 && law.hi == 75.5);
}

/* The same shapes without the caches: no walk is fitted, and the spilled
 * shapes pull the type's one efficiency away from the others'. */
TEST(without_caches_spilled_columns_are_efficiencies) {
  LpShape shapes[9];
  spilledShapes(shapes);
  LpShapeSet set = {shapes, 9, 9};
  LpDeviceNumbers d = device();
  lpFitEfficiencies(&set, &d);
  CHECK(isnan(fitted(&d, "column_walk_ns_l2.f32")));
  CHECK(fabs(fitted(&d, "compute_efficiency.matmul+add") - 0.25) > 0.01);
}

/* A half type whose converted chain was probed (converted_chain_probe.c)
 * computes at f32's peak, one without keeps its own; its matmuls past a
 * reduction of 36 run on the chain at the rate of their accumulator (the
 * shape's accBits, else the dtype's own width: none for a missing f32
 * rate), and such a shape is no sample of its type's efficiency, where the
 * one at 36 and the f32 one are. */
TEST(converted_half_chains_are_left_out_of_the_efficiency) {
  LpDeviceNumbers d = device();
  d.numDtypes = 3;
  snprintf(d.dtypes[1], sizeof d.dtypes[1], "f16");
  snprintf(d.dtypes[2], sizeof d.dtypes[2], "bf16");
  d.peakFlops[1] = d.peakFlops[2] = kPeak / 4;
  d.convertedMacNs[1][LP_ACC_OWN] = 5;
  CHECK(lpDevicePeak(&d, "f16") == kPeak &&
        lpDevicePeak(&d, "bf16") == kPeak / 4);
  LpShape shapes[3];
  matmulShape(&shapes[0], 8, 16, 768, 0.4);
  matmulShape(&shapes[1], 8, 16, 36, 0.4);
  matmulShape(&shapes[2], 8, 16, 768, 0.4);
  for (int i = 0; i < 2; i++)
    snprintf(shapes[i].values[3], sizeof shapes[i].values[3], "f16");
  CHECK_NEAR(lpConvertedChainUs(&d, &shapes[0]), 8 * 16 * 768 * 5 * 1e-3, 1e-9);
  CHECK(lpConvertedChainUs(&d, &shapes[1]) == 0 &&
        lpConvertedChainUs(&d, &shapes[2]) == 0);
  LpShape f32acc = shapes[0]; /* accumulating in f32: no rate for it */
  f32acc.accBits = 32;
  CHECK(lpConvertedChainUs(&d, &f32acc) == 0);
  d.convertedMacNs[1][LP_ACC_F32] = 2;
  CHECK_NEAR(lpConvertedChainUs(&d, &f32acc), 8 * 16 * 768 * 2 * 1e-3, 1e-9);
  double eff;
  bool compute;
  CHECK(!lpEfficiencyOf(&d, &shapes[0], &eff, &compute));
  CHECK(lpEfficiencyOf(&d, &shapes[1], &eff, &compute) &&
        lpEfficiencyOf(&d, &shapes[2], &eff, &compute));
}

/* An int8 channels-last conv on the probed integer grid runs at the grid's
 * rate (latency/integer_mac.h; 3 x 3 here, read at its 64 channels between
 * the points at 32 and 128), and a depthwise one at its own: neither is a
 * sample of the channels-last efficiency, which the f32 convs alone set
 * (4); without the grid an int8 conv is one again. */
TEST(integer_convs_on_the_grid_are_left_out_of_the_efficiency) {
  LpShape shapes[5];
  for (int i = 0; i < 2; i++)
    convShape(&shapes[i], "conv2d+cast", 64 << i, true, 4);
  convShape(&shapes[2], "conv2d+cast", 64, true, 40);
  convShape(&shapes[3], "conv2d+cast", 128, true, 40);
  convShape(&shapes[4], "depthwise_conv2d+cast", 64, true, 40);
  for (int i = 2; i < 5; i++)
    snprintf(shapes[i].values[6], sizeof shapes[i].values[6], "i8");
  LpDeviceNumbers d = device();
  d.integerMacNs[1][5] = 0.4;  /* 3 x 3, 32 channels */
  d.integerMacNs[1][7] = 0.04; /* 128 */
  d.integerDepthwiseNs = 0.06;
  CHECK_NEAR(lpIntegerMacUs(&d, &shapes[2]), 196 * 64 * 64 * 9 * 0.22 * 1e-3,
             1e-9);
  CHECK_NEAR(lpIntegerMacUs(&d, &shapes[4]), 196 * 64 * 9 * 0.06 * 1e-3, 1e-9);
  CHECK(lpIntegerMacUs(&d, &shapes[0]) == 0); /* f32 */
  LpShapeSet set = {shapes, 5, 5};
  lpFitEfficiencies(&set, &d);
  CHECK_NEAR(fitted(&d, "channels_last_efficiency.conv2d"), 4, 1e-9);
  CHECK(isnan(fitted(&d, "channels_last_efficiency.depthwise_conv2d")));
  LpDeviceNumbers plain = device();
  CHECK(lpIntegerMacUs(&plain, &shapes[2]) == 0);
  lpFitEfficiencies(&set, &plain);
  CHECK(fitted(&plain, "channels_last_efficiency.conv2d") > 4);
}

int main(void) {
  return RUN_TESTS(
      T(power_law_is_fitted_where_it_predicts_better),
      T(spilled_transposes_are_left_out_where_the_grid_prices_them),
      T(a_reduction_law_levels_off),
      T(a_family_is_fitted_over_every_type_of_its_anchor),
      T(a_family_without_a_law_takes_the_median_of_its_types),
      T(constant_efficiency_keeps_the_median_and_no_slopes),
      T(few_shapes_get_no_slopes),
      T(transposed_weights_are_left_out_of_the_fit),
      T(transposed_weights_fit_the_copy_rate_above_the_mapping_threshold),
      T(plain_weights_fit_no_copy_rate),
      T(copy_rate_grows_along_the_weight_size),
      T(scratch_pages_are_left_out_of_the_efficiency),
      T(channels_last_convs_fit_an_efficiency_per_anchor),
      T(a_channels_last_curve_without_room_is_not_written),
      T(epilogue_passes_are_left_out_of_the_channels_last_efficiency),
      T(median_per_x_groups_and_filters),
      T(the_kept_bytes_are_read_off_where_the_penalty_crosses_half_its_median),
      T(a_far_draw_is_outvoted_and_close_draws_are_averaged),
      T(measurements_next_to_a_slow_canary_reading_are_drawn_again),
      T(an_edge_sample_off_does_not_move_a_law),
      T(small_transposed_weights_fit_no_copy_rate),
      T(spilled_columns_fit_the_walk_not_the_efficiency),
      T(the_measured_grid_prices_the_walk_before_the_fitted_rates),
      T(l2_walk_follows_the_l1_sets_its_column_crowds),
      T(one_bad_sample_does_not_move_a_law),
      T(without_caches_spilled_columns_are_efficiencies),
      T(converted_half_chains_are_left_out_of_the_efficiency),
      T(integer_convs_on_the_grid_are_left_out_of_the_efficiency),
      T(aliased_depthwise_planes_are_left_out_of_the_efficiency),
      T(unrolled_reductions_are_left_out_of_the_efficiency),
      T(transcendentals_take_the_sigmoid_probe_unless_measured));
}
