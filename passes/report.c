/*===- report.c - JSON / Markdown / CSV reports and Chrome traces ----------===*
 *
 * The JSON shape is the contract of docs/attributes.md: profile, device, and
 * per function its total, coverage by source and one row per kernel. Numbers
 * use %.17g so readers get back exactly the attribute values.
 *
 *===----------------------------------------------------------------------===*/
#include "report.h"

#include "ir_util.h"

#include <errno.h>
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
    fprintf(f,
            ",\"total_us\":%.17g,\"coverage\":{\"measured_us\":%.17g,"
            "\"interpolated_us\":%.17g,\"roofline_us\":%.17g},"
            "\"folded_ops\":%zu,\"kernels\":[",
            fn->totalUs, fn->measuredUs, fn->interpolatedUs, fn->rooflineUs,
            fn->graph.foldedOps);
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
              ",\"dtype\":\"%s\",\"flops\":%.17g,\"bytes\":%.17g,"
              "\"bound\":\"%s\"",
              kk->dtype, kk->flops, kk->bytes, cmBoundGetName(kk->bound));
      if (kk->count != 1) /* loop trips; 0: a branch not counted */
        fprintf(f, ",\"count\":%.17g", kk->count);
      fputc('}', f);
    }
    fputs("]}", f);
  }
  fputs("]}\n", f);
}

static void writeMarkdown(FILE *f, const char *profile, const char *device,
                          const LatFunctionReport *fns, size_t count) {
  fprintf(f, "# Latency estimates: %s (profile %s)\n", device, profile);
  for (size_t i = 0; i < count; i++) {
    const LatFunctionReport *fn = &fns[i];
    fprintf(f,
            "\n## @%s: %.3f us in %zu kernels (measured %.3f, interpolated "
            "%.3f, roofline %.3f us)\n\n",
            fn->name, fn->totalUs, fn->graph.numKernels, fn->measuredUs,
            fn->interpolatedUs, fn->rooflineUs);
    fputs("| id | kernel | ops | axes | dtype | latency_us | source | "
          "confidence | method | bound |\n"
          "|---:|---|---:|---|---|---:|---|---:|---|---|\n",
          f);
    for (size_t k = 0; k < fn->graph.numKernels; k++) {
      const LatKernel *kk = &fn->graph.kernels[k];
      char count[40] = ""; /* runs per call, when not once */
      if (kk->count != 1)
        snprintf(count, sizeof count, " x%g", kk->count);
      fprintf(f, "| %zu | %s | %d | %s | %s | %.3f%s | %s | %.2f | %s | %s |\n",
              k, kk->type, kk->numOps, kk->axes, kk->dtype, kk->us, count,
              cmSourceGetName(kk->source), kk->confidence,
              latKernelMethodName(kk), cmBoundGetName(kk->bound));
    }
  }
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
      /* loc may hold commas and quotes: quote it, doubling quotes. */
      fprintf(f, "%s,%zu,%s,\"%s\",\"", fns[i].name, k, kk->type, ops);
      for (const char *p = kk->loc; *p; p++)
        fputs(*p == '"' ? "\"\"" : (char[]){*p, 0}, f);
      fprintf(f, "\",%.17g,%s,%.17g,%s,%s,%s,%.17g,%.17g,%s\n", kk->us,
              cmSourceGetName(kk->source), kk->confidence,
              latKernelMethodName(kk), kk->axes, kk->dtype, kk->flops,
              kk->bytes, cmBoundGetName(kk->bound));
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
