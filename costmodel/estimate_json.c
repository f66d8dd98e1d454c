/*===- estimate_json.c - names of enums and the JSON form of an answer -----===*
 *
 * Numbers are printed with %.17g so a reader gets back the exact double.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include <math.h>
#include <string.h>

const char *cmSourceGetName(CmSource source) {
  static const char *const names[] = {"measured", "interpolated", "transferred",
                                      "roofline", "unknown"};
  return (unsigned)source < 5 ? names[source] : "unknown";
}

const char *cmMethodGetName(CmMethod method) {
  static const char *const names[] = {
      "none",        "exact",       "linear-1d", "weighted-1d",
      "delaunay-2d", "delaunay-3d", "roofline"};
  return (unsigned)method < 7 ? names[method] : "none";
}

const char *cmBoundGetName(CmBound bound) {
  static const char *const names[] = {"none", "compute", "memory"};
  return (unsigned)bound < 3 ? names[bound] : "none";
}

void cmJsonPrintString(FILE *out, const char *text) {
  fputc('"', out);
  for (const unsigned char *s = (const unsigned char *)(text ? text : ""); *s;
       s++) {
    if (*s == '"' || *s == '\\')
      fprintf(out, "\\%c", *s);
    else if (*s < 0x20)
      fprintf(out, "\\u%04x", *s);
    else
      fputc(*s, out);
  }
  fputc('"', out);
}

/* JSON has no NaN or infinity: those print as null. */
static void printNumber(FILE *out, double value) {
  if (isfinite(value))
    fprintf(out, "%.17g", value);
  else
    fputs("null", out);
}

static void printCorners(FILE *out, const CmEstimate *e) {
  fputs(",\"corners\":[", out);
  for (int i = 0; i < e->numCorners; i++) {
    fputs(i ? ",{" : "{", out);
    for (int a = 0; a < e->numAxes; a++) {
      cmJsonPrintString(out, e->axisNames[a]);
      fputc(':', out);
      printNumber(out, e->corners[i].axes[a]);
      fputc(',', out);
    }
    fputs("\"latency_us\":", out);
    printNumber(out, e->corners[i].latencyUs);
    fputs(",\"weight\":", out);
    printNumber(out, e->corners[i].weight);
    fputc('}', out);
  }
  fputc(']', out);
}

static void printLines(FILE *out, const CmEstimate *e) {
  fputs(",\"lines\":[", out);
  for (int i = 0; i < e->numLines; i++) {
    const CmLine *l = &e->lines[i];
    fputs(i ? ",{\"axis\":" : "{\"axis\":", out);
    cmJsonPrintString(out, e->axisNames[l->axis]);
    fputs(",\"lo\":", out);
    printNumber(out, l->lo);
    fputs(",\"hi\":", out);
    printNumber(out, l->hi);
    fputs(",\"value_us\":", out);
    printNumber(out, l->value);
    fputs(",\"check_error\":", out);
    l->checkErr >= 0 ? printNumber(out, l->checkErr) : (void)fputs("null", out);
    fputs(",\"weight\":", out);
    printNumber(out, l->weight);
    fputc('}', out);
  }
  fputc(']', out);
}

void cmEstimatePrintJson(const CmEstimate *e, FILE *out) {
  fputs("{\"latency_us\":", out);
  printNumber(out, e->source == CM_SOURCE_UNKNOWN ? NAN : e->latencyUs);
  fputs(",\"source\":", out);
  cmJsonPrintString(out, cmSourceGetName(e->source));
  fputs(",\"confidence\":", out);
  printNumber(out, e->confidence);
  fputs(",\"method\":", out);
  cmJsonPrintString(out, cmMethodGetName(e->method));
  fprintf(out, ",\"dim\":%d,\"kernel\":", e->dim);
  cmJsonPrintString(out, e->kernel);
  fputs(",\"table_kernel\":", out);
  e->tableKernel ? cmJsonPrintString(out, e->tableKernel)
                 : (void)fputs("null", out);
  fprintf(out, ",\"via_anchor\":%s,\"axes\":{",
          e->viaAnchor ? "true" : "false");
  for (int a = 0; a < e->numAxes; a++) {
    if (a)
      fputc(',', out);
    cmJsonPrintString(out, e->axisNames[a]);
    fputc(':', out);
    printNumber(out, e->axisValues[a]);
  }
  fputs("},\"boundary\":{", out);
  for (int k = 0; k < e->dim; k++) {
    if (k)
      fputc(',', out);
    cmJsonPrintString(out, e->axisNames[e->interpAxes[k]]);
    fputs(":[", out);
    printNumber(out, e->lo[k]);
    fputc(',', out);
    printNumber(out, e->hi[k]);
    fputc(']', out);
  }
  fputc('}', out);
  printCorners(out, e);
  printLines(out, e);
  fprintf(out,
          ",\"candidates\":{\"raw\":%zu,\"filtered\":%zu,\"aggregated\":%zu,"
          "\"dropped\":%zu,\"points\":%zu}",
          e->counts.raw, e->counts.filtered, e->counts.aggregated,
          e->counts.dropped, e->counts.points);
  fputs(",\"error_estimate\":", out);
  e->errorEstimate >= 0 ? printNumber(out, e->errorEstimate)
                        : (void)fputs("null", out);
  fputs(",\"bound\":", out);
  cmJsonPrintString(out, cmBoundGetName(e->bound));
  fputs(",\"flops\":", out);
  e->flops >= 0 ? printNumber(out, e->flops) : (void)fputs("null", out);
  fputs(",\"bytes\":", out);
  e->bytes >= 0 ? printNumber(out, e->bytes) : (void)fputs("null", out);
  fputs(",\"compute_us\":", out);
  printNumber(out, e->computeUs);
  fputs(",\"memory_us\":", out);
  printNumber(out, e->memoryUs);
  fputs(",\"launch_us\":", out);
  printNumber(out, e->launchUs);
  fputs(",\"reason\":", out);
  cmJsonPrintString(out, e->reason);
  fputs(",\"mapping\":", out);
  e->mapping ? cmJsonPrintString(out, e->mapping) : (void)fputs("null", out);
  if (e->transferredFrom) {
    fputs(",\"transferred_from\":", out);
    cmJsonPrintString(out, e->transferredFrom);
    fprintf(out, ",\"transfer_points\":%d", e->transferPoints);
  }
  fputs("}\n", out);
}
