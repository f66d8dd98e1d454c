/*===- profile_writer.c - a measured profile directory --------------------===*
 *
 * One table per kernel type, named after it (conv2d+batchnorm+relu ->
 * tables/conv2d_batchnorm_relu.csv), its columns the fields the pass
 * queries with; every field that is a number is an axis except the few the
 * pass matches exactly (stride, window, head_dim, kv_heads: regime keys,
 * with dtype). Provenance columns follow latency_us: metadata the cost
 * model keeps but never matches.
 *
 *===----------------------------------------------------------------------===*/
#include "profile_writer.h"

#include "allocator.h"
#include "files.h"
#include "pipelines.h"

#include "latency/converted_chain.h"
#include "latency/dtype.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LP_MLIR_VERSION
#define LP_MLIR_VERSION "unknown"
#endif

static const char *const provenance =
    "pipeline,lowering,cpu,threads,mlir_version,reps,cv_pct,calls,draws,"
    "model,source";

void lpHostInfoGet(LpHostInfo *info, const char *pipelineName,
                   const char *passes, int threads, bool wallClock) {
  memset(info, 0, sizeof *info);
  snprintf(info->cpu, sizeof info->cpu, "unknown CPU");
  snprintf(info->mlirVersion, sizeof info->mlirVersion, "%s", LP_MLIR_VERSION);
  info->threads = threads;
  info->pipeline = pipelineName;
  info->passes = passes;
  info->clock = wallClock ? "wall" : "thread-cpu";
  FILE *in = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (in && fgets(line, sizeof line, in))
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      const char *v = strchr(line, ':') + 1;
      while (*v == ' ' || *v == '\t')
        v++;
      snprintf(info->cpu, sizeof info->cpu, "%.*s", (int)strcspn(v, "\n"), v);
      break;
    }
  if (in)
    fclose(in);
}

static bool sameFields(const LpShape *a, const LpShape *b) {
  if (a->numFields != b->numFields)
    return false;
  for (int i = 0; i < a->numFields; i++)
    if (strcmp(a->names[i], b->names[i]))
      return false;
  return true;
}

static void tableName(const char *type, char *out, size_t size) {
  size_t n = 0;
  for (const char *c = type; *c && n + 1 < size; c++)
    out[n++] = (*c == '+' || *c == '/' || *c == ' ') ? '_' : *c;
  out[n] = '\0';
}

static void writeRow(FILE *out, const LpShape *s, const LpHostInfo *info) {
  lpCsvCell(out, s->type);
  for (int i = 0; i < s->numFields; i++) {
    fputc(',', out);
    lpCsvCell(out, s->values[i]);
  }
  fprintf(out, ",%.9g,", s->result.us);
  lpCsvCell(out, info->pipeline);
  fputc(',', out);
  lpCsvCell(out, s->result.lowering);
  fputc(',', out);
  lpCsvCell(out, info->cpu);
  fprintf(out, ",%d,%s,%d,%.3g,%ld,%d,", info->threads, info->mlirVersion,
          s->result.reps, s->result.cvPct, s->result.calls, s->result.draws);
  lpCsvCell(out, s->model);
  fputc(',', out);
  lpCsvCell(out, s->file[0] ? lpBaseName(s->file) : "");
  fputc('\n', out);
}

/* Writes the table of the type of shape `first` (every measured shape of
 * that type with the same fields) and its policy row; returns the rows. */
static size_t writeTable(const char *dir, const LpShapeSet *set, size_t first,
                         const LpHostInfo *info, FILE *policy) {
  const LpShape *head = &set->items[first];
  char name[160], path[4400];
  tableName(head->type, name, sizeof name);
  snprintf(path, sizeof path, "%s/tables/%s.csv", dir, name);
  FILE *out = fopen(path, "w");
  if (!out)
    return 0;
  fputs("kernel", out);
  for (int i = 0; i < head->numFields; i++)
    fprintf(out, ",%s", head->names[i]);
  fprintf(out, ",latency_us,%s\n", provenance);
  size_t rows = 0;
  for (size_t i = first; i < set->count; i++) {
    const LpShape *s = &set->items[i];
    if (s->result.ok && !strcmp(s->type, head->type) && sameFields(s, head)) {
      writeRow(out, s, info);
      rows++;
    }
  }
  fclose(out);
  lpCsvCell(policy, head->type);
  fputc(',', policy);
  for (int pass = 0, words = 0; pass < 2; pass++, words = 0) {
    for (int i = 0; i < head->numFields; i++)
      if (lpIsRegimeField(head->names[i], head->values[i]) == (pass == 1))
        fprintf(policy, "%s%s", words++ ? " " : "", head->names[i]);
    fputc(',', policy);
  }
  /* attention's time grows with its sequence squared: interpolated along
     seq (raw units, the 1D rule) a chord between log-spaced points 4x
     apart overshoots the middle by half */
  if (!strcmp(head->type, "attention") && lpShapeField(head, "seq"))
    fputs("seq:square", policy);
  fputc('\n', policy);
  return rows;
}

/* Writes every table and policy.csv; returns false when a file fails. */
static bool writeTables(const char *dir, const LpShapeSet *set,
                        const LpHostInfo *info, size_t *rows, char *err,
                        size_t size) {
  char path[4400];
  snprintf(path, sizeof path, "%s/policy.csv", dir);
  FILE *policy = fopen(path, "w");
  if (!policy) {
    snprintf(err, size, "cannot write %s", path);
    return false;
  }
  fputs("kernel,axes,regime,transform\n", policy);
  *rows = 0;
  for (size_t i = 0; i < set->count; i++) {
    bool seen = false; /* an earlier measured shape of this type */
    for (size_t j = 0; j < i && !seen; j++)
      seen = set->items[j].result.ok &&
             !strcmp(set->items[j].type, set->items[i].type);
    if (set->items[i].result.ok && !seen)
      *rows += writeTable(dir, set, i, info, policy);
  }
  return fclose(policy) == 0;
}

/* The fitted efficiencies, and 1 for a device-wide one not fitted. */
static void writeEfficiencies(FILE *out, const LpDeviceNumbers *d) {
  bool fitted[2] = {false, false}; /* device-wide compute, memory */
  for (int i = 0; i < d->numFitted; i++) {
    fprintf(out, "%s,%.6g\n", d->fittedKeys[i], d->fittedValues[i]);
    fitted[0] |= !strcmp(d->fittedKeys[i], "compute_efficiency");
    fitted[1] |= !strcmp(d->fittedKeys[i], "memory_efficiency");
  }
  if (!fitted[0])
    fputs("compute_efficiency,1\n", out);
  if (!fitted[1])
    fputs("memory_efficiency,1\n", out);
}

/* The measured points of the column-walk grid of `side`. */
static void writeGrid(FILE *out, CmWalkSide side,
                      const double grid[CM_WALK_GRID_SETS][CM_WALK_GRID_KS]) {
  char key[160];
  for (int i = 0; i < CM_WALK_GRID_SETS; i++)
    for (int j = 0; j < CM_WALK_GRID_KS; j++)
      if (grid[i][j] > 0) {
        cmWalkGridKey(key, sizeof key, side, LP_WALK_GRID_DTYPE, i, j);
        fprintf(out, "%s,%.6g\n", key, grid[i][j]);
      }
}

static bool writeDevice(const char *dir, const LpHostInfo *info,
                        const LpDeviceNumbers *d, char *err, size_t size) {
  char path[4400];
  snprintf(path, sizeof path, "%s/device.csv", dir);
  FILE *out = fopen(path, "w");
  if (!out) {
    snprintf(err, size, "cannot write %s", path);
    return false;
  }
  char name[256];
  snprintf(name, sizeof name, "%s, %d thread%s, MLIR %s %s pipeline", info->cpu,
           info->threads, info->threads == 1 ? "" : "s", info->mlirVersion,
           info->pipeline);
  fputs("key,value\nname,", out);
  lpCsvCell(out, name);
  fputs("\npipeline,", out);
  lpCsvCell(out, info->pipeline);
  fputs("\npipeline_passes,", out);
  const char *at = strstr(info->passes, LP_SCHEDULE_PATH);
  char passes[8192];
  snprintf(passes, sizeof passes, "%.*s%s%s",
           at ? (int)(at - info->passes) : (int)strlen(info->passes),
           info->passes, at ? "schedule.mlir" : "",
           at ? at + strlen(LP_SCHEDULE_PATH) : "");
  lpCsvCell(out, passes);
  fputs("\ncpu,", out);
  lpCsvCell(out, info->cpu);
  fprintf(out, "\nthreads,%d\nmlir_version,%s\nclock,%s\n", info->threads,
          info->mlirVersion, info->clock);
  /* every kernel was measured with --fresh-memory (allocator.h): a weight
     transposed per call pays weight_copy_ns_per_byte from this size on, as
     scratch buffers pay scratch_ns_per_byte (passes/describe.c counts them
     from LAT_FRESH_BUFFER_BYTES, the same size) */
  fprintf(out, "kernel_memory,fresh\nweight_copy_min_bytes,%d\n",
          LP_FRESH_MAPPING_BYTES);
  for (int i = 0; i < d->numDtypes; i++)
    if (d->peakFlops[i] > 0)
      fprintf(out, "peak_flops.%s,%.6g\n", d->dtypes[i], d->peakFlops[i]);
  if (d->numDtypes > 0 && d->peakFlops[0] > 0)
    fprintf(out, "peak_flops,%.6g\n", d->peakFlops[0]);
  /* a half type's multiply-adds converted one by one (converted_chain.h) */
  for (int i = 0; i < d->numDtypes; i++)
    for (int a = 0; a < LP_ACCUMULATORS; a++)
      if (d->convertedMacNs[i][a] > 0) {
        char key[96];
        cmConvertedChainKey(
            key, sizeof key, d->dtypes[i],
            a == LP_ACC_OWN ? (int)(8 * cmDtypeGetSize(d->dtypes[i])) : 32);
        fprintf(out, "%s,%.6g\n", key, d->convertedMacNs[i][a]);
      }
  /* an int8 conv's vectorized channel loop (latency/integer_mac.h) */
  for (int w = 0; w < CM_INTEGER_MAC_WINDOWS; w++)
    for (int c = 0; c < CM_INTEGER_MAC_CHANNELS; c++)
      if (d->integerMacNs[w][c] > 0) {
        char key[96];
        cmIntegerMacKey(key, sizeof key, LP_INTEGER_PROBE_DTYPE, w, c);
        fprintf(out, "%s,%.6g\n", key, d->integerMacNs[w][c]);
      }
  if (d->integerDepthwiseNs > 0) {
    char key[96];
    cmIntegerDepthwiseKey(key, sizeof key, LP_INTEGER_PROBE_DTYPE);
    fprintf(out, "%s,%.6g\n", key, d->integerDepthwiseNs);
  }
  if (d->padCopyNs > 0)
    fprintf(out, "%s,%.6g\n", CM_PAD_COPY_KEY, d->padCopyNs);
  if (d->memBw > 0)
    fprintf(out, "mem_bw,%.6g\n", d->memBw);
  if (d->launchUs > 0)
    fprintf(out, "launch_us,%.6g\n", d->launchUs);
  if (d->scratchNsPerByte > 0)
    fprintf(out, "scratch_ns_per_byte,%.6g\n", d->scratchNsPerByte);
  /* one more pass over a kernel's output, per element (epilogue_probe.c) */
  for (int i = 0; i < CM_EPILOGUE_POINTS; i++)
    if (d->epilogueNs[i] > 0) {
      char key[64];
      cmEpilogueKey(key, sizeof key, i);
      fprintf(out, "%s,%.6g\n", key, d->epilogueNs[i]);
    }
  /* what weights read from memory cost (cold_probe.c): 0 is a measured
     nothing, a negative value was not measured */
  if (d->llcBytes > 0)
    fprintf(out, "llc_bytes,%.0f\n", d->llcBytes);
  if (d->coldNsPerByte >= 0)
    fprintf(out, "cold_weight_ns_per_byte,%.6g\n", d->coldNsPerByte);
  if (d->coldMatmulNsPerByte >= 0)
    fprintf(out, "cold_weight_ns_per_byte.matmul,%.6g\n",
            d->coldMatmulNsPerByte);
  if (d->coldWeightMinBytes > 0)
    fprintf(out, "cold_weight_min_bytes,%.0f\n", d->coldWeightMinBytes);
  if (d->coldTransposeNsPerByte >= 0)
    fprintf(out, "cold_weight_ns_per_byte.transpose,%.6g\n",
            d->coldTransposeNsPerByte);
  for (int i = 0; i < CM_COLD_WRITE_POINTS; i++) /* cold_write_probe.c */
    if (d->coldWriteNs[i] >= 0) {
      char key[96];
      cmColdWriteKey(key, sizeof key, i);
      fprintf(out, "%s,%.6g\n", key, d->coldWriteNs[i]);
    }
  /* the caches a loop-lowered matmul's weight column walks through
     (latency/column_walk.h) */
  const CmCacheGeometry *c = &d->caches;
  if (c->l1Bytes > 0 && c->l1Ways > 0 && c->l2Bytes > 0 && c->l2Ways > 0 &&
      c->lineBytes > 0)
    fprintf(out,
            "l1d_bytes,%.0f\nl1d_ways,%.0f\nl2_bytes,%.0f\nl2_ways,%.0f\n"
            "cache_line_bytes,%.0f\n",
            c->l1Bytes, c->l1Ways, c->l2Bytes, c->l2Ways, c->lineBytes);
  if (d->vectorBits > 0)
    fprintf(out, "vector_bits,%.0f\n", d->vectorBits);
  char key[160];
  writeGrid(out, CM_WALK_READS, d->walkGridNs);
  writeGrid(out, CM_WALK_WRITES, d->writeWalkGridNs);
  for (int j = 0; j < CM_ACCUMULATOR_WALK_POINTS; j++)
    if (d->accumulatorWalkNs[j] > 0) {
      cmAccumulatorWalkKey(key, sizeof key, LP_WALK_GRID_DTYPE, j);
      fprintf(out, "%s,%.6g\n", key, d->accumulatorWalkNs[j]);
    }
  /* The pipelines run constant work (a transposed constant weight) on every
     call, TOSA's excepted: the pass then keeps it as kernels. */
  fputs("fold_constants,0\n", out);
  if (lpPipelineFoldsTosaConstants(info->passes))
    fputs("fold_constants.tosa,1\n", out);
  /* A few models' shapes and the sweep's lines are a sparse table: a 2D /
     3D simplex can join shapes hundreds of times apart, over which the
     latency is far from linear. Beyond 4x the calibrated roofline answers
     (costmodel/interpolate_nd.c, docs/accuracy.md). */
  fputs("max_simplex_span,4\n", out);
  writeEfficiencies(out, d);
  if (fclose(out) != 0) {
    snprintf(err, size, "cannot write %s", path);
    return false;
  }
  return true;
}

bool lpWriteProfile(const char *dir, const LpShapeSet *shapes,
                    const LpHostInfo *info, const LpDeviceNumbers *device,
                    const char *rulesPath, size_t *rows, char *err,
                    size_t size) {
  char path[4400];
  snprintf(path, sizeof path, "%s/tables", dir);
  if (!lpMakeDirs(path, err, size))
    return false;
  lpRemoveCsvFiles(path);
  snprintf(path, sizeof path, "%s/schedule.mlir", dir);
  FILE *schedule = info->schedule ? fopen(path, "w") : NULL;
  if (schedule) {
    fputs(info->schedule, schedule);
    fclose(schedule);
  }
  snprintf(path, sizeof path, "%s/fusion.csv", dir);
  LpDeviceNumbers fitted = *device;
  /* the column walk is how `loops` runs a matmul (latency/column_walk.h);
     other pipelines tile it, and their matmuls keep one efficiency law */
  if (strcmp(info->pipeline, "loops")) /* the grid is probed for it only */
    fitted.caches = (CmCacheGeometry){0};
  lpFitEfficiencies(shapes, &fitted);
  return writeDevice(dir, info, &fitted, err, size) &&
         lpCopyFile(rulesPath, path, err, size) &&
         writeTables(dir, shapes, info, rows, err, size);
}
