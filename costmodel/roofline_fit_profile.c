/*===- roofline_fit_profile.c - a profile's points as roofline samples ----===*
 *
 * Every measured point becomes a roofline sample of its (table kernel,
 * dtype) group: its work from the built-in formulas (costmodel/work.c),
 * divided by the device's peaks, its GEMM shape for the tile model
 * (gemm_tiles.c), and its measured time. Training samples
 * feed the fit; held-out samples are predicted with device.csv's values
 * and with the fitted ones. Which group a parameter belongs to mirrors the
 * roofline's own lookup (cmRooflineDeviceNumber), so `before` is exactly
 * what the roofline tier answers today for a profile without efficiency
 * slopes (every shipped one). A host profile's `efficiency_slope` keys
 * (latency-profile) are not applied here: its fit is latency-profile's
 * own, and --fit-roofline is for the GPU tables.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/roofline_fit.h"

#include "cm_error.h"
#include "gemm_tiles.h"
#include "roofline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A group while its samples are collected. */
typedef struct {
  CmRooflineGroup group;
  CmRooflineSample *samples; /* training first... in arrival order       */
  bool *heldOut;             /* ...with this flag per sample             */
  size_t count, capacity;
} Builder;

typedef struct {
  CmProfile profile;
  const CmRooflineSplit *split;
  Builder *builders;
  size_t numBuilders, capacity;
  bool outOfMemory;
} Collector;

/* splitmix64's finaliser: every bit of `z` moves every bit of the result. */
static uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint64_t hashText(uint64_t h, const char *text) {
  for (; *text; text++)
    h = (h ^ (unsigned char)*text) * 0x100000001b3ull; /* FNV-1a */
  return (h ^ '|') * 0x100000001b3ull;
}

bool cmRooflineIsHeldOut(const CmPoint *point, double fraction, uint64_t seed) {
  uint64_t h = hashText(0xcbf29ce484222325ull, point->kernel);
  for (int r = 0; r < point->numRegime; r++)
    h = hashText(h, point->regimeValues[r]);
  for (int a = 0; a < point->numAxes; a++) {
    char text[32];
    snprintf(text, sizeof text, "%.17g", point->axes[a]);
    h = hashText(h, text);
  }
  double u =
      (double)(mix(h ^ mix(seed + 0x9e3779b97f4a7c15ull)) >> 11) * 0x1.0p-53;
  return u < fraction;
}

static const char *regimeOf(const CmPoint *p, const char *name) {
  for (int r = 0; r < p->numRegime; r++)
    if (!strcmp(p->regimeNames[r], name))
      return p->regimeValues[r];
  return NULL;
}

/* An axis or numeric regime value of the point, for the work formulas. */
static double pointValue(const void *context, const char *name) {
  const CmPoint *p = context;
  for (int a = 0; a < p->numAxes; a++)
    if (!strcmp(p->axisNames[a], name))
      return p->axes[a];
  const char *text = regimeOf(p, name);
  char *end;
  double v = text ? strtod(text, &end) : NAN;
  return text && end != text && !*end ? v : NAN;
}

static CmRooflineParams paramsOf(CmProfile profile, const char *kernel,
                                 const char *dtype) {
  return (CmRooflineParams){
      cmRooflineDeviceNumber(profile, "compute_efficiency", kernel, dtype, 1),
      cmRooflineDeviceNumber(profile, "memory_efficiency", kernel, dtype, 1),
      cmRooflineDeviceNumber(profile, "launch_us", kernel, dtype, 0),
      cmRooflineDeviceNumber(profile, "wave_us", kernel, dtype, 0),
      cmRooflineDeviceNumber(profile, "tile_bandwidth", kernel, dtype, 0),
      cmRooflineDeviceNumber(profile, "split_k_us", kernel, dtype, 0)};
}

static Builder *builderFor(Collector *c, const char *kernel,
                           const char *dtype) {
  for (size_t i = 0; i < c->numBuilders; i++)
    if (!strcmp(c->builders[i].group.kernel, kernel) &&
        !strcmp(c->builders[i].group.dtype, dtype))
      return &c->builders[i];
  if (c->numBuilders == c->capacity) {
    size_t capacity = c->capacity ? 2 * c->capacity : 8;
    Builder *more = realloc(c->builders, capacity * sizeof *more);
    if (!more)
      return NULL;
    c->builders = more;
    c->capacity = capacity;
  }
  Builder *b = &c->builders[c->numBuilders++];
  memset(b, 0, sizeof *b);
  snprintf(b->group.kernel, sizeof b->group.kernel, "%s", kernel);
  snprintf(b->group.dtype, sizeof b->group.dtype, "%s", dtype);
  b->group.before = paramsOf(c->profile, kernel, *dtype ? dtype : NULL);
  return b;
}

static bool append(Builder *b, CmRooflineSample sample, bool heldOut) {
  if (b->count == b->capacity) {
    size_t capacity = b->capacity ? 2 * b->capacity : 256;
    CmRooflineSample *samples = realloc(b->samples, capacity * sizeof *samples);
    if (samples)
      b->samples = samples;
    bool *flags = realloc(b->heldOut, capacity * sizeof *flags);
    if (flags)
      b->heldOut = flags;
    if (!samples || !flags)
      return false;
    b->capacity = capacity;
  }
  b->samples[b->count] = sample;
  b->heldOut[b->count++] = heldOut;
  return true;
}

static void collect(void *context, const CmPoint *p) {
  Collector *c = context;
  if (c->outOfMemory ||
      (c->split->keep && !c->split->keep(c->split->context, p)))
    return;
  const char *dtype = regimeOf(p, "dtype");
  double flops = -1, bytes = -1;
  cmBuiltinWork(p->kernel, pointValue, p, dtype, regimeOf(p, "kv_dtype"),
                &flops, &bytes);
  double peak = cmRooflinePeak(c->profile, dtype);
  double bandwidth = cmProfileGetDeviceNumber(c->profile, "mem_bw", NAN);
  double sms = cmProfileGetDeviceNumber(c->profile, "sm_count", NAN);
  double tiles = cmBuiltinTiles(p->kernel, pointValue, p);
  CmRooflineSample s = {
      .computeUs = flops >= 0 && peak > 0 ? flops / peak * 1e6 : 0,
      .memoryUs = bytes >= 0 && bandwidth > 0 ? bytes / bandwidth * 1e6 : 0,
      .waves = sms >= 1 && tiles > 0 ? ceil(tiles / sms) : 0,
      .measuredUs = p->latencyUs};
  cmGemmTilesShape(c->profile, p->kernel, dtype, pointValue, p, &s.gemm);
  if (s.computeUs <= 0 && s.memoryUs <= 0)
    return; /* no work formula: the roofline cannot answer it anyway */
  Builder *b = builderFor(c, p->kernel, dtype ? dtype : "");
  bool held = cmRooflineIsHeldOut(p, c->split->holdout, c->split->seed);
  if (!b || !append(b, s, held))
    c->outOfMemory = true;
}

/* `x` as device.csv will hold it (4 significant digits), so the held-out
 * figures after the fit are those of the written profile. */
static double writtenDigits(double x) {
  char text[32];
  snprintf(text, sizeof text, "%.4g", x);
  return strtod(text, NULL);
}

/* Splits the builder's samples, fits, and fills the held-out arrays. */
static bool finish(Builder *b, bool fit) {
  CmRooflineGroup *g = &b->group;
  CmRooflineSample *train = malloc((b->count + 1) * sizeof *train);
  CmRooflineSample *held = malloc((b->count + 1) * sizeof *held);
  g->measuredUs = malloc((b->count + 1) * sizeof *g->measuredUs);
  g->beforeUs = malloc((b->count + 1) * sizeof *g->beforeUs);
  g->afterUs = malloc((b->count + 1) * sizeof *g->afterUs);
  bool ok = train && held && g->measuredUs && g->beforeUs && g->afterUs;
  for (size_t i = 0; ok && i < b->count; i++)
    if (b->heldOut[i])
      held[g->numHeldOut++] = b->samples[i];
    else
      train[g->numTrain++] = b->samples[i];
  g->after = g->before;
  if (ok && fit && g->numTrain > 0) {
    g->after = cmRooflineFit(train, g->numTrain, g->before, &g->fitted);
    g->after.computeEfficiency = writtenDigits(g->after.computeEfficiency);
    g->after.memoryEfficiency = writtenDigits(g->after.memoryEfficiency);
    g->after.launchUs = writtenDigits(g->after.launchUs);
    g->after.waveUs = writtenDigits(g->after.waveUs);
    g->after.tileBandwidth = writtenDigits(g->after.tileBandwidth);
    g->after.splitUs = writtenDigits(g->after.splitUs);
  }
  for (size_t i = 0; ok && i < g->numHeldOut; i++) {
    g->measuredUs[i] = held[i].measuredUs;
    g->beforeUs[i] = cmRooflinePredict(&g->before, &held[i]);
    g->afterUs[i] = cmRooflinePredict(&g->after, &held[i]);
  }
  free(train);
  free(held);
  return ok;
}

static void freeArrays(CmRooflineGroup *g) {
  free(g->measuredUs);
  free(g->beforeUs);
  free(g->afterUs);
}

void cmRooflineGroupsDestroy(CmRooflineGroup *groups, size_t numGroups) {
  for (size_t i = 0; groups && i < numGroups; i++)
    freeArrays(&groups[i]);
  free(groups);
}

CmStatus cmRooflineGroupsCreate(CmProfile profile, const CmRooflineSplit *split,
                                CmRooflineGroup **groups, size_t *numGroups,
                                CmError *err) {
  Collector c = {profile, split, NULL, 0, 0, false};
  bool ok = cmProfileForEachPoint(profile, collect, &c) && !c.outOfMemory;
  *groups = calloc(c.numBuilders + 1, sizeof **groups);
  ok = ok && *groups;
  for (size_t i = 0; i < c.numBuilders; i++) {
    ok = ok && finish(&c.builders[i], split->fit);
    if (*groups)
      (*groups)[i] = c.builders[i].group;
    else
      freeArrays(&c.builders[i].group);
    free(c.builders[i].samples);
    free(c.builders[i].heldOut);
  }
  free(c.builders);
  *numGroups = *groups ? c.numBuilders : 0;
  if (ok)
    return CM_OK;
  cmRooflineGroupsDestroy(*groups, *numGroups);
  *groups = NULL;
  *numGroups = 0;
  return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
}
