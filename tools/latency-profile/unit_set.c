/*===- unit_set.c - cut-outs measured once, however often they recur ------===*
 *
 * A linear scan over the texts finds a repeat: a few hundred units per run,
 * each compared only when its length matches.
 *
 *===----------------------------------------------------------------------===*/
#include "unit_set.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void lpUnitSetNextPath(const LpUnitSet *set, char *path, size_t size) {
  snprintf(path, size, "%s/unit-%04zu.mlir", set->dir, set->count);
}

/* The contents of `path` (owned by the caller), or NULL. */
static char *readAll(const char *path) {
  FILE *in = fopen(path, "rb");
  if (!in)
    return NULL;
  char *text = NULL;
  long n = fseek(in, 0, SEEK_END) == 0 ? ftell(in) : -1;
  if (n >= 0 && fseek(in, 0, SEEK_SET) == 0 &&
      (text = malloc((size_t)n + 1)) != NULL) {
    if (fread(text, 1, (size_t)n, in) != (size_t)n) {
      free(text);
      text = NULL;
    } else
      text[n] = '\0';
  }
  fclose(in);
  return text;
}

int lpUnitSetAdd(LpUnitSet *set, const char *path, const char *type) {
  char *text = readAll(path);
  if (!text)
    return -1;
  size_t length = strlen(text);
  for (size_t i = 0; i < set->count; i++)
    if (strlen(set->items[i].text) == length &&
        !strcmp(set->items[i].text, text)) {
      free(text);
      if (strcmp(set->items[i].file, path))
        unlink(path);
      return (int)i;
    }
  if (set->count == set->capacity) {
    size_t capacity = set->capacity ? 2 * set->capacity : 32;
    LpUnit *items = realloc(set->items, capacity * sizeof *items);
    if (!items) {
      free(text);
      return -1;
    }
    set->items = items;
    set->capacity = capacity;
  }
  LpUnit *u = &set->items[set->count];
  memset(u, 0, sizeof *u);
  u->text = text;
  snprintf(u->file, sizeof u->file, "%s", path);
  snprintf(u->type, sizeof u->type, "%s", type);
  return (int)set->count++;
}

bool lpUnitMeasure(LpUnitSet *set, int i, const LpMeasureConfig *config) {
  LpUnit *u = &set->items[i];
  if (!u->measured) {
    char log[1200];
    snprintf(log, sizeof log, "%s.log", u->file);
    lpMeasureFile(config, u->file, "kernel", u->type, log, &u->result);
    u->measured = true;
    if (u->result.ok)
      unlink(log);
  }
  return u->result.ok;
}

bool lpMeasureEdge(LpUnitSet *set, const LpEdgeUnits *edge,
                   const LpMeasureConfig *config, LpEdgeTiming *out) {
  static const char *const names[] = {"producer", "consumer", "fused"};
  const int units[] = {edge->producer, edge->consumer, edge->fused};
  double us[3], variance = 0;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < 3; i++) {
    if (!lpUnitMeasure(set, units[i], config)) {
      snprintf(out->error, sizeof out->error, "%s: %.600s", names[i],
               set->items[units[i]].result.error);
      return false;
    }
    const LpMeasurement *m = &set->items[units[i]].result;
    us[i] = m->us;
    variance += (m->cvPct / 100 * m->us) * (m->cvPct / 100 * m->us);
  }
  out->ok = true;
  out->producerUs = us[0];
  out->consumerUs = us[1];
  out->fusedUs = us[2];
  out->noiseUs = fmax(2 * sqrt(variance), 0.01 * (us[0] + us[1]));
  return true;
}

void lpUnitSetFree(LpUnitSet *set) {
  for (size_t i = 0; i < set->count; i++)
    free(set->items[i].text);
  free(set->items);
  set->items = NULL;
  set->count = set->capacity = 0;
}
