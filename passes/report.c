/*===- report.c - JSON / Markdown / CSV reports and Chrome traces ----------===*
 *
 * The JSON shape is the contract of docs/attributes.md: profile, device, and
 * per function its total, coverage by source and one row per kernel. Numbers
 * use %.17g so readers get back exactly the attribute values.
 *
 *===----------------------------------------------------------------------===*/
#include "report.h"
#include "describe.h"

#include "ir_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Op names of a kernel joined with ','. */
static void kernelOps(const LatGraph *g, const LatKernel *k, char *out,
                      size_t size) {
  size_t used = 0;
  out[0] = '\0';
  for (int i = k->root; i >= 0 && used + 1 < size;
       i = g->nodes[i].nextInKernel) {
    char name[96];
    latOpName(g->nodes[i].op, name, sizeof name);
    int n = snprintf(out + used, size - used, "%s%s", used ? "," : "", name);
    used += n > 0 ? (size_t)n : 0;
  }
  if (used >= size)
    out[size - 1] = '\0';
}

/* Roofline time of one kernel class at one element type, for one reason. */
typedef struct {
  char cls[64];
  const char *dtype;
  LatTableMiss miss;
  double us;
} MissGroup;

static int compareMissGroups(const void *a, const void *b) {
  double x = ((const MissGroup *)a)->us, y = ((const MissGroup *)b)->us;
  return (x < y) - (x > y);
}

/* Adds kernel `k`'s roofline time to its group; false when `groups` (of
 * `max`) is full and it has none. */
static bool addMiss(MissGroup *groups, size_t *n, size_t max,
                    const LatKernel *k) {
  char cls[64];
  snprintf(cls, sizeof cls, "%.*s", (int)strcspn(k->type, "+"), k->type);
  for (size_t i = 0; i < *n; i++)
    if (!strcmp(groups[i].cls, cls) && !strcmp(groups[i].dtype, k->costDtype) &&
        groups[i].miss == k->miss) {
      groups[i].us += k->us * k->count;
      return true;
    }
  if (*n == max)
    return false;
  MissGroup *g = &groups[(*n)++];
  snprintf(g->cls, sizeof g->cls, "%s", cls);
  g->dtype = k->costDtype;
  g->miss = k->miss;
  g->us = k->us * k->count;
  return true;
}

/* One line saying why the tables answer little of `fn` (under half of its
 * time): the kernel classes the roofline answered, costliest first, each
 * with its element type and what the profile lacks. "" otherwise. */
static void tableMissLine(const LatFunctionReport *fn, char *out, size_t size) {
  enum { kMaxGroups = 64, kShown = 4 };
  double tables = fn->measuredUs + fn->interpolatedUs + fn->transferredUs;
  out[0] = '\0';
  if (fn->totalUs <= 0 || tables >= 0.5 * fn->totalUs)
    return;
  MissGroup groups[kMaxGroups];
  size_t n = 0;
  double other = 0, calls = 0;
  for (size_t k = 0; k < fn->graph.numKernels; k++) {
    const LatKernel *kk = &fn->graph.kernels[k];
    if (kk->isCall) /* its callee's own line says why */
      calls += kk->us * kk->count;
    else if (kk->miss != LAT_MISS_NONE && !addMiss(groups, &n, kMaxGroups, kk))
      other += kk->us * kk->count;
  }
  qsort(groups, n, sizeof groups[0], compareMissGroups);
  /* a table's rows are cut by the policy's regime keys, dtype among them
     (a conv's window, attention's head_dim) */
  static const char *const what[] = {"", "no table",
                                     "no rows for its dtype or regime",
                                     "outside the measured range"};
  size_t used =
      (size_t)snprintf(out, size, "little from the tables; roofline:");
  for (size_t i = 0; i < n && i < kShown && used < size; i++)
    used += (size_t)snprintf(
        out + used, size - used, "%s %s at %s: %s (%.1f us)", i ? ";" : "",
        groups[i].cls, groups[i].dtype[0] ? groups[i].dtype : "?",
        what[groups[i].miss], groups[i].us);
  for (size_t i = kShown; i < n; i++)
    other += groups[i].us;
  if (other > 0 && used < size)
    used += (size_t)snprintf(out + used, size - used, "; other kernels %.1f us",
                             other);
  if (calls > 0 && used < size)
    snprintf(out + used, size - used,
             "%s calls %.1f us, their callees' lines say why",
             n || other > 0 ? ";" : "", calls);
}

static int compareGains(const void *a, const void *b) {
  double x = ((const LatFusionEdge *)a)->gainUs,
         y = ((const LatFusionEdge *)b)->gainUs;
  return (x < y) - (x > y);
}

/* `fn`'s fusion edges sorted by gain, largest first (a copy the caller
 * frees); NULL when it has none or out of memory. */
static LatFusionEdge *edgesByGain(const LatFunctionReport *fn) {
  size_t n = fn->graph.numEdges;
  LatFusionEdge *edges = n ? malloc(n * sizeof *edges) : NULL;
  if (edges) {
    memcpy(edges, fn->graph.edges, n * sizeof *edges);
    qsort(edges, n, sizeof *edges, compareGains);
  }
  return edges;
}

static void writeJsonFusion(FILE *f, const LatFunctionReport *fn) {
  LatFusionEdge *edges = edgesByGain(fn);
  fputs(",\"fusion\":[", f);
  for (size_t i = 0; edges && i < fn->graph.numEdges; i++) {
    const LatFusionEdge *e = &edges[i];
    fprintf(f,
            "%s\n {\"consumer\":%d,\"producer\":%d,\"fused_us\":%.17g,"
            "\"unfused_us\":%.17g,\"gain_us\":%.17g,\"why\":\"%s\","
            "\"at\":",
            i ? "," : "", e->consumer, e->producer, e->fusedUs, e->unfusedUs,
            e->gainUs, e->why);
    cmJsonPrintString(f, e->at);
    fputc('}', f);
  }
  fputc(']', f);
  free(edges);
}

/* The ten fusions not made that would gain most, largest first. */
static void writeMarkdownFusion(FILE *f, const LatFunctionReport *fn) {
  LatFusionEdge *edges = edgesByGain(fn);
  int shown = 0;
  for (size_t i = 0; edges && i < fn->graph.numEdges && shown < 10; i++) {
    const LatFusionEdge *e = &edges[i];
    if (!strcmp(e->why, "fused") || e->gainUs <= 0)
      continue;
    if (!shown++)
      fputs("\nFusion opportunities (not fused; largest gain first):\n\n"
            "| producer | consumer | fused_us | unfused_us | gain_us | why "
            "|\n|---:|---:|---:|---:|---:|---|\n",
            f);
    fprintf(f, "| %d %s | %d %s | %.3f | %.3f | %.3f | %s |\n", e->producer,
            fn->graph.kernels[e->producer].type, e->consumer,
            fn->graph.kernels[e->consumer].type, e->fusedUs, e->unfusedUs,
            e->gainUs, e->why);
  }
  free(edges);
}

static void writeJson(FILE *f, const char *profile, const char *device,
                      const LatFunctionReport *fns, size_t count) {
  fputs("{\"profile\":", f);
  cmJsonPrintString(f, profile);
  fputs(",\"device\":", f);
  cmJsonPrintString(f, device);
  fputs(",\"functions\":[", f);
  for (size_t i = 0; i < count; i++) {
    const LatFunctionReport *fn = &fns[i];
    fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
    cmJsonPrintString(f, fn->name);
    char why[512];
    tableMissLine(fn, why, sizeof why);
    fprintf(f,
            ",\"total_us\":%.17g,\"coverage\":{\"measured_us\":%.17g,"
            "\"interpolated_us\":%.17g,\"transferred_us\":%.17g,"
            "\"roofline_us\":%.17g,\"why\":",
            fn->totalUs, fn->measuredUs, fn->interpolatedUs, fn->transferredUs,
            fn->rooflineUs);
    cmJsonPrintString(f, why);
    fprintf(f, "},\"folded_ops\":%zu,\"kernels\":[", fn->graph.foldedOps);
    for (size_t k = 0; k < fn->graph.numKernels; k++) {
      const LatKernel *kk = &fn->graph.kernels[k];
      char ops[1024];
      kernelOps(&fn->graph, kk, ops, sizeof ops);
      fprintf(f, "%s\n {\"id\":%zu,\"type\":", k ? "," : "", k);
      cmJsonPrintString(f, kk->type);
      fputs(",\"ops\":[", f);
      for (char *s = ops, *comma; *s; s = comma ? comma + 1 : s + strlen(s)) {
        comma = strchr(s, ',');
        if (comma)
          *comma = '\0';
        fputs(s == ops ? "\"" : ",\"", f);
        fputs(s, f);
        fputc('"', f);
        if (!comma)
          break;
      }
      fputs("],\"loc\":", f);
      cmJsonPrintString(f, kk->loc);
      fprintf(f,
              ",\"latency_us\":%.17g,\"source\":\"%s\",\"confidence\":%.17g,"
              "\"method\":\"%s\",\"axes\":",
              kk->us, cmSourceGetName(kk->source), kk->confidence,
              latKernelMethodName(kk));
      cmJsonPrintString(f, kk->axes);
      fprintf(f,
              ",\"dtype\":\"%s\",\"costed_dtype\":\"%s\",\"flops\":%.17g,"
              "\"bytes\":%.17g,\"bound\":\"%s\"",
              kk->dtype, kk->costDtype, kk->flops, kk->bytes,
              cmBoundGetName(kk->bound));
      if (kk->count != 1) /* loop trips; 0: a branch not counted */
        fprintf(f, ",\"count\":%.17g", kk->count);
      if (kk->scratchBytes > 0) /* its own buffers of 128 KiB or more */
        fprintf(f, ",\"scratch_bytes\":%.17g", kk->scratchBytes);
      if (kk->warmScratchBytes > 0) /* of those, carved from the warm heap */
        fprintf(f, ",\"warm_scratch_bytes\":%.17g", kk->warmScratchBytes);
      if (kk->epiloguePasses > 0) /* loop nests besides its root's */
        fprintf(f, ",\"epilogue_passes\":%d,\"epilogue_elements\":%.17g",
                kk->epiloguePasses, kk->epilogueElements);
      if (kk->padElements > 0) /* copied into padded buffers */
        fprintf(f, ",\"pad_elements\":%.17g", kk->padElements);
      if (kk->accBits > 0) /* the float its products sum in */
        fprintf(f, ",\"acc_bits\":%d", kk->accBits);
      if (kk->resultPagesUs > 0) /* part of latency_us: its results' pages */
        fprintf(f, ",\"result_pages_us\":%.17g,\"fresh_result_bytes\":%.17g",
                kk->resultPagesUs, kk->freshResultBytes);
      if (kk->coldUs > 0) /* part of latency_us: weights read from memory */
        fprintf(f, ",\"cold_weights_us\":%.17g,\"resident_bytes\":%.17g",
                kk->coldUs, kk->residentBytes);
      if (kk->coldWriteUs > 0) /* part of latency_us: a cold written column */
        fprintf(f, ",\"cold_writes_us\":%.17g,\"cold_write_bytes\":%.17g",
                kk->coldWriteUs, kk->coldWriteBytes);
      fputc('}', f);
    }
    fputc(']', f);
    writeJsonFusion(f, fn);
    fputc('}', f);
  }
  fputs("]}\n", f);
}

static void writeMarkdown(FILE *f, const char *profile, const char *device,
                          const LatFunctionReport *fns, size_t count) {
  fprintf(f, "# Latency estimates: %s (profile %s)\n", device, profile);
  for (size_t i = 0; i < count; i++) {
    const LatFunctionReport *fn = &fns[i];
    double total = fn->totalUs > 0 ? fn->totalUs : 1;
    char transferredUs[64] = "", transferred[64] = ""; /* transferred
                                                           profiles only */
    if (fn->transferredUs > 0) {
      snprintf(transferredUs, sizeof transferredUs, ", transferred %.3f",
               fn->transferredUs);
      snprintf(transferred, sizeof transferred, ", transferred %.0f%%",
               100 * fn->transferredUs / total);
    }
    fprintf(f,
            "\n## @%s: %.3f us in %zu kernels (measured %.3f, interpolated "
            "%.3f%s, roofline %.3f us)\n\n",
            fn->name, fn->totalUs, fn->graph.numKernels, fn->measuredUs,
            fn->interpolatedUs, transferredUs, fn->rooflineUs);
    char why[512];
    tableMissLine(fn, why, sizeof why);
    fprintf(f,
            "Coverage: %.0f%% from tables (measured %.0f%%, interpolated "
            "%.0f%%%s), %.0f%% roofline.%s%s\n\n",
            100 * (fn->measuredUs + fn->interpolatedUs + fn->transferredUs) /
                total,
            100 * fn->measuredUs / total, 100 * fn->interpolatedUs / total,
            transferred, 100 * fn->rooflineUs / total, why[0] ? " " : "", why);
    fputs("| id | kernel | ops | axes | dtype | latency_us | source | "
          "confidence | method | bound |\n"
          "|---:|---|---:|---|---|---:|---|---:|---|---|\n",
          f);
    for (size_t k = 0; k < fn->graph.numKernels; k++) {
      const LatKernel *kk = &fn->graph.kernels[k];
      char count[40] = ""; /* runs per call, when not once */
      if (kk->count != 1)
        snprintf(count, sizeof count, " x%g", kk->count);
      char dtype[64]; /* the graph's type, and the costed one if other */
      bool retyped = strcmp(kk->dtype, kk->costDtype) != 0;
      snprintf(dtype, sizeof dtype, "%s%s%s", kk->dtype, retyped ? "->" : "",
               retyped ? kk->costDtype : "");
      fprintf(f, "| %zu | %s | %d | %s | %s | %.3f%s | %s | %.2f | %s | %s |\n",
              k, kk->type, kk->numOps, kk->axes, dtype, kk->us, count,
              cmSourceGetName(kk->source), kk->confidence,
              latKernelMethodName(kk), cmBoundGetName(kk->bound));
    }
    writeMarkdownFusion(f, fn);
  }
}

/* Writes `text` as one quoted CSV cell, quotes doubled: names, locations
 * and axes may hold commas, quotes and newlines. */
static void writeCsvCell(FILE *f, const char *text) {
  fputc('"', f);
  for (const char *p = text; *p; p++) {
    if (*p == '"')
      fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

static void writeCsv(FILE *f, const LatFunctionReport *fns, size_t count) {
  fputs("function,id,type,ops,loc,latency_us,source,confidence,method,axes,"
        "dtype,flops,bytes,bound\n",
        f);
  for (size_t i = 0; i < count; i++)
    for (size_t k = 0; k < fns[i].graph.numKernels; k++) {
      const LatKernel *kk = &fns[i].graph.kernels[k];
      char ops[1024];
      kernelOps(&fns[i].graph, kk, ops, sizeof ops);
      writeCsvCell(f, fns[i].name);
      fprintf(f, ",%zu,", k);
      writeCsvCell(f, kk->type);
      fputc(',', f);
      writeCsvCell(f, ops);
      fputc(',', f);
      writeCsvCell(f, kk->loc);
      fprintf(f, ",%.17g,%s,%.17g,%s,", kk->us, cmSourceGetName(kk->source),
              kk->confidence, latKernelMethodName(kk));
      writeCsvCell(f, kk->axes);
      fprintf(f, ",%s,%.17g,%.17g,%s\n", kk->dtype, kk->flops, kk->bytes,
              cmBoundGetName(kk->bound));
    }
}

static bool endsWith(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

bool latWriteReport(const char *path, const char *profile, const char *device,
                    const LatFunctionReport *fns, size_t count, char *error,
                    size_t errorSize) {
  bool toStdout = !strcmp(path, "-");
  if (!toStdout && !endsWith(path, ".json") && !endsWith(path, ".md") &&
      !endsWith(path, ".csv")) {
    snprintf(error, errorSize,
             "report path '%s' must end in .json, .md or .csv (or be '-')",
             path);
    return false;
  }
  FILE *f = toStdout ? stdout : fopen(path, "w");
  if (!f) {
    snprintf(error, errorSize, "cannot write report '%s': %s", path,
             strerror(errno));
    return false;
  }
  if (toStdout || endsWith(path, ".md"))
    writeMarkdown(f, profile, device, fns, count);
  else if (endsWith(path, ".json"))
    writeJson(f, profile, device, fns, count);
  else
    writeCsv(f, fns, count);
  if (toStdout)
    fflush(f);
  else
    fclose(f);
  return true;
}

bool latWriteTrace(const char *path, const LatFunctionReport *fns, size_t count,
                   char *error, size_t errorSize) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(error, errorSize, "cannot write trace '%s': %s", path,
             strerror(errno));
    return false;
  }
  fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
  bool first = true;
  for (size_t i = 0; i < count; i++) {
    fprintf(f,
            "%s\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,"
            "\"tid\":%zu,\"args\":{\"name\":",
            first ? "" : ",", i + 1);
    cmJsonPrintString(f, fns[i].name);
    fputs("}}", f);
    first = false;
    double t = 0;
    for (size_t k = 0; k < fns[i].graph.numKernels; k++) {
      const LatKernel *kk = &fns[i].graph.kernels[k];
      fputs(",\n{\"name\":", f);
      cmJsonPrintString(f, kk->type);
      fprintf(f,
              ",\"cat\":\"kernel\",\"ph\":\"X\",\"pid\":1,\"tid\":%zu,"
              "\"ts\":%.17g,\"dur\":%.17g,\"args\":{\"id\":%zu,"
              "\"source\":\"%s\",\"confidence\":%.17g,\"method\":\"%s\","
              "\"axes\":",
              i + 1, t, kk->us * kk->count, k, cmSourceGetName(kk->source),
              kk->confidence, latKernelMethodName(kk));
      cmJsonPrintString(f, kk->axes);
      fputs("}}", f);
      t += kk->us * kk->count; /* all runs of a loop body, end to end */
    }
  }
  fputs("\n]}\n", f);
  fclose(f);
  return true;
}
