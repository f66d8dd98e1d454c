/*===- validate_fusion.h - does the pass's sign of gain_us hold on the host
 * -===*/
#ifndef LATENCY_PROFILE_VALIDATE_FUSION_H
#define LATENCY_PROFILE_VALIDATE_FUSION_H

#include "unit_set.h"

#include <stdbool.h>
#include <stddef.h>

/// One fusion edge of the pass's `latency.fusion`, measured on the host.
typedef struct {
  char model[256];         /* the model file's name                 */
  char function[128];      /* the function it is in                 */
  int consumer, producer;  /* kernel ids (equal: a cut inside one)  */
  char producerType[192];  /* kernel types as the pass named them   */
  char consumerType[192];  /* (inside a kernel: that kernel's type) */
  char why[16];            /* fused, rule, second user, no rule     */
  char at[48];             /* inside a kernel: the class cut before */
  double predictedGainUs;  /* the pass's gain_us                    */
  double predictedFusedUs; /* its fused_us and unfused_us           */
  double predictedUnfusedUs;
  LpEdgeUnits units;   /* the cut-outs                          */
  int count;           /* edges with these cut-outs and reason  */
  int rank;            /* its place among its model's edges     */
  bool tried;          /* measurement attempted (budget left)   */
  LpEdgeTiming timing; /* what the host measured                */
} LpFusionEdge;

/// The agreement of the pass's signs with the measured ones.
typedef struct {
  size_t edges;                /* edges measured                  */
  size_t agreeing;             /* with the same sign              */
  double agreementPct;         /* agreeing / edges                */
  double weightedAgreementPct; /* weighted by |measured gain|     */
  size_t resolved;             /* edges whose |gain| beats noise  */
  double resolvedAgreementPct; /* agreement among those           */
} LpFusionAgreement;

/// Returns the gain the host measured for `edge`: the sides apart minus
/// fused, paired repetition by repetition (median), in us.
double lpMeasuredGainUs(const LpFusionEdge *edge);

/// Returns true when the pass's sign of gain_us (pays: > 0) is the
/// measured one.
bool lpFusionSignsAgree(const LpFusionEdge *edge);

/// Computes the agreement over the measured edges of `edges`.
LpFusionAgreement lpFusionAgreement(const LpFusionEdge *edges, size_t count);

/// Prints one line per edge and the agreement to stdout.
void lpPrintFusionValidation(const LpFusionEdge *edges, size_t count);

/// Writes `{"profile", "pipeline", "edges", "agreeing", "agreement_pct",
/// "weighted_agreement_pct", "resolved_edges", "resolved_agreement_pct",
/// "pairs": [...], "failed": [...]}` to `path`; false when it cannot.
bool lpWriteFusionValidationJson(const char *path, const char *profile,
                                 const char *pipeline,
                                 const LpFusionEdge *edges, size_t count);

#endif /* LATENCY_PROFILE_VALIDATE_FUSION_H */
