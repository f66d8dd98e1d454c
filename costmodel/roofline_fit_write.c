/*===- roofline_fit_write.c - fitted roofline parameters into device.csv --===*
 *
 * device.csv is rewritten, never edited by hand here: every entry the
 * profile loaded is written back in its order with its text (a key the fit
 * writes gets the new value in place), then the new keys. Readers look keys
 * up by name and ignore the ones they do not know, so the added
 * fit_error.* and roofline_fit entries break none of them. The file is
 * written next to its destination and renamed over it.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/roofline_fit.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"
#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxUpdates = 256 };

typedef struct {
  char key[160];
  char value[4200];
  bool written;
} Update;

typedef struct {
  Update items[kMaxUpdates];
  size_t count;
} Updates;

static void put(Updates *u, const char *key, const char *suffix,
                const char *value) {
  if (u->count == kMaxUpdates)
    return;
  Update *item = &u->items[u->count++];
  snprintf(item->key, sizeof item->key, "%s%s", key, suffix);
  snprintf(item->value, sizeof item->value, "%s", value);
  item->written = false;
}

static void putNumber(Updates *u, const char *key, const char *suffix,
                      const char *format, double value) {
  char text[64];
  snprintf(text, sizeof text, format, value);
  put(u, key, suffix, text);
}

/* Whether `g` has the most points of its kernel (the first on ties). */
static bool isLargestOfKernel(const CmRooflineGroup *groups, size_t n,
                              const CmRooflineGroup *g) {
  size_t size = g->numTrain + g->numHeldOut;
  for (size_t i = 0; i < n; i++) {
    const CmRooflineGroup *o = &groups[i];
    size_t other = o->numTrain + o->numHeldOut;
    if (o != g && !strcmp(o->kernel, g->kernel) &&
        (other > size || (other == size && o < g)))
      return false;
  }
  return true;
}

static void putGroup(Updates *u, const CmRooflineGroup *groups, size_t n,
                     const CmRooflineGroup *g) {
  bool largest = isLargestOfKernel(groups, n, g);
  char suffix[120], dtypeSuffix[120];
  snprintf(dtypeSuffix, sizeof dtypeSuffix, ".%s%s%s", g->kernel,
           *g->dtype ? "." : "", g->dtype);
  snprintf(suffix, sizeof suffix, ".%s%s%s", g->kernel, largest ? "" : ".",
           largest ? "" : g->dtype);
  if (g->fitted.compute || !largest)
    putNumber(u, "compute_efficiency", suffix, "%.4g",
              g->after.computeEfficiency);
  if (g->fitted.memory || !largest)
    putNumber(u, "memory_efficiency", suffix, "%.4g",
              g->after.memoryEfficiency);
  putNumber(u, "launch_us", suffix, "%.4g", g->after.launchUs);
  if (g->fitted.wave || !largest)
    putNumber(u, "wave_us", suffix, "%.4g", g->after.waveUs);
  /* The tile model per dtype always: only this dtype's tables told it (an
   * f32 GEMM without a table keeps the plain roofline). */
  if (g->fitted.tiles || g->before.tileBandwidth > 0) {
    putNumber(u, "tile_bandwidth", dtypeSuffix, "%.4g", g->after.tileBandwidth);
    putNumber(u, "split_k_us", dtypeSuffix, "%.4g", g->after.splitUs);
  }
  double sum = 0;
  for (size_t i = 0; i < g->numHeldOut; i++)
    sum += fabs(g->afterUs[i] - g->measuredUs[i]) / g->measuredUs[i];
  if (g->numHeldOut)
    putNumber(u, "fit_error", suffix, "%.3g", 100 * sum / g->numHeldOut);
}

static void writePair(FILE *out, const char *key, const char *value) {
  cmCsvWriteField(out, key);
  fputc(',', out);
  cmCsvWriteField(out, value);
  fputc('\n', out);
}

static void writeEntries(FILE *out, const struct CmProfileImpl *p, Updates *u) {
  fputs("key,value\n", out);
  for (size_t i = 0; i < p->numDevice; i++) {
    const char *value = p->device[i].text;
    for (size_t j = 0; j < u->count; j++)
      if (!strcmp(u->items[j].key, p->device[i].key) && !u->items[j].written) {
        value = u->items[j].value;
        u->items[j].written = true;
      }
    writePair(out, p->device[i].key, value);
  }
  for (size_t j = 0; j < u->count; j++)
    if (!u->items[j].written)
      writePair(out, u->items[j].key, u->items[j].value);
}

CmStatus cmRooflineWriteDevice(CmProfile profile, const CmRooflineGroup *groups,
                               size_t numGroups, const char *provenance,
                               const char *path, CmError *err) {
  Updates *updates = calloc(1, sizeof *updates); /* ~1 MB: not the stack */
  if (!updates)
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  for (size_t i = 0; i < numGroups; i++)
    if (groups[i].numTrain > 0)
      putGroup(updates, groups, numGroups, &groups[i]);
  put(updates, "roofline_fit", "", provenance ? provenance : "");
  char temp[4300];
  snprintf(temp, sizeof temp, "%s.tmp.%ld", path, (long)getpid());
  FILE *out = fopen(temp, "w");
  if (!out) {
    free(updates);
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot write", temp);
  }
  writeEntries(out, profile.ptr, updates);
  free(updates);
  bool ok = !ferror(out);
  ok = fclose(out) == 0 && ok;
  if (!ok || rename(temp, path) != 0) {
    remove(temp);
    return cmErrorSet(err, CM_ERR_IO, "%s: cannot write", path);
  }
  return CM_OK;
}
