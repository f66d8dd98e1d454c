/*===- validate_fusion_report.c - sign agreement of fusion gains ----------===*
 *
 * An edge agrees when the pass and the host say the same thing about the
 * fusion: both that it pays (gain > 0) or both that it does not. The
 * weighted figure weighs each edge by the size of the measured gain or
 * loss, so an edge the host cannot tell apart from noise counts little.
 * Only measured edges count; the others are listed apart, with the reason.
 * Edges whose measured gain beats its noise margin are also counted apart:
 * there the host's sign is not a coin toss.
 *
 *===----------------------------------------------------------------------===*/
#include "validate_fusion.h"

#include "latency/costmodel_util.h"

#include "latency/costmodel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double lpMeasuredGainUs(const LpFusionEdge *e) { return e->timing.gainUs; }

bool lpFusionSignsAgree(const LpFusionEdge *e) {
  return (e->predictedGainUs > 0) == (lpMeasuredGainUs(e) > 0);
}

LpFusionAgreement lpFusionAgreement(const LpFusionEdge *edges, size_t count) {
  LpFusionAgreement a = {0, 0, 0, 0, 0, 0};
  double weight = 0, agreeingWeight = 0;
  size_t resolvedAgreeing = 0;
  for (size_t i = 0; i < count; i++) {
    if (!edges[i].timing.ok)
      continue;
    double w = fabs(lpMeasuredGainUs(&edges[i]));
    bool agree = lpFusionSignsAgree(&edges[i]);
    a.edges++;
    a.agreeing += agree;
    weight += w;
    agreeingWeight += agree ? w : 0;
    if (w > edges[i].timing.noiseUs) {
      a.resolved++;
      resolvedAgreeing += agree;
    }
  }
  a.resolvedAgreementPct =
      a.resolved ? 100.0 * (double)resolvedAgreeing / (double)a.resolved : 0;
  a.agreementPct = a.edges ? 100.0 * (double)a.agreeing / (double)a.edges : 0;
  a.weightedAgreementPct = weight > 0 ? 100 * agreeingWeight / weight : 0;
  return a;
}

static void printEdge(const LpFusionEdge *e) {
  printf("%s @%s %d <- %d %s -> %s (%s%s%s) x%d: ", e->model, e->function,
         e->consumer, e->producer, e->producerType,
         e->at[0] ? e->at : e->consumerType, e->why, e->at[0] ? " at " : "",
         e->at, e->count);
  if (!e->timing.ok) {
    printf("%s\n", e->tried ? e->timing.error : "not measured: budget spent");
    return;
  }
  printf("predicted gain %.3f us, measured %.3f us (%.3f + %.3f apart, "
         "%.3f fused, noise %.3f) %s\n",
         e->predictedGainUs, lpMeasuredGainUs(e), e->timing.producerUs,
         e->timing.consumerUs, e->timing.fusedUs, e->timing.noiseUs,
         lpFusionSignsAgree(e) ? "agree" : "DISAGREE");
}

void lpPrintFusionValidation(const LpFusionEdge *edges, size_t count) {
  for (size_t i = 0; i < count; i++)
    printEdge(&edges[i]);
  LpFusionAgreement a = lpFusionAgreement(edges, count);
  printf("fusion edges: %zu measured, %zu not; sign agreement %.1f%% (%zu of "
         "%zu), weighted by measured difference %.1f%%; %zu edges beyond the "
         "noise: %.1f%%\n",
         a.edges, count - a.edges, a.agreementPct, a.agreeing, a.edges,
         a.weightedAgreementPct, a.resolved, a.resolvedAgreementPct);
}

static void jsonEdgeHead(FILE *out, const LpFusionEdge *e) {
  fputs("{\"model\": ", out);
  cmJsonPrintString(out, e->model);
  fputs(", \"function\": ", out);
  cmJsonPrintString(out, e->function);
  fprintf(out, ", \"consumer\": %d, \"producer\": %d, \"producer_type\": ",
          e->consumer, e->producer);
  cmJsonPrintString(out, e->producerType);
  fputs(", \"consumer_type\": ", out);
  cmJsonPrintString(out, e->consumerType);
  fputs(", \"why\": ", out);
  cmJsonPrintString(out, e->why);
  fputs(", \"at\": ", out);
  cmJsonPrintString(out, e->at);
  fprintf(out,
          ", \"count\": %d, \"predicted_gain_us\": %.17g, "
          "\"predicted_fused_us\": %.17g, \"predicted_unfused_us\": %.17g",
          e->count, e->predictedGainUs, e->predictedFusedUs,
          e->predictedUnfusedUs);
}

static void jsonEdge(FILE *out, const LpFusionEdge *e) {
  jsonEdgeHead(out, e);
  if (e->timing.ok) {
    fprintf(out,
            ", \"measured_producer_us\": %.17g, \"measured_consumer_us\": "
            "%.17g, \"measured_fused_us\": %.17g, \"measured_gain_us\": "
            "%.17g, \"noise_us\": %.17g, \"agree\": %s}",
            e->timing.producerUs, e->timing.consumerUs, e->timing.fusedUs,
            lpMeasuredGainUs(e), e->timing.noiseUs,
            lpFusionSignsAgree(e) ? "true" : "false");
    return;
  }
  fputs(", \"error\": ", out);
  cmJsonPrintString(out,
                    e->tried ? e->timing.error : "not measured: budget spent");
  fputc('}', out);
}

/* Writes the edges measured (`ok`) or not as a JSON list. */
static void jsonEdges(FILE *out, const LpFusionEdge *edges, size_t count,
                      bool ok) {
  bool first = true;
  fputc('[', out);
  for (size_t i = 0; i < count; i++) {
    if (edges[i].timing.ok != ok)
      continue;
    fputs(first ? "\n  " : ",\n  ", out);
    jsonEdge(out, &edges[i]);
    first = false;
  }
  fputc(']', out);
}

bool lpWriteFusionValidationJson(const char *path, const char *profile,
                                 const char *pipeline,
                                 const LpFusionEdge *edges, size_t count) {
  FILE *out = fopen(path, "w");
  if (!out)
    return false;
  LpFusionAgreement a = lpFusionAgreement(edges, count);
  fputs("{\"profile\": ", out);
  cmJsonPrintString(out, profile);
  fputs(", \"pipeline\": ", out);
  cmJsonPrintString(out, pipeline);
  fprintf(out,
          ", \"edges\": %zu, \"agreeing\": %zu, \"agreement_pct\": %.4g, "
          "\"weighted_agreement_pct\": %.4g, \"resolved_edges\": %zu, "
          "\"resolved_agreement_pct\": %.4g, \"pairs\": ",
          a.edges, a.agreeing, a.agreementPct, a.weightedAgreementPct,
          a.resolved, a.resolvedAgreementPct);
  jsonEdges(out, edges, count, true);
  fputs(", \"failed\": ", out);
  jsonEdges(out, edges, count, false);
  fputs("}\n", out);
  return fclose(out) == 0;
}
