/*===- fusion_rules.h - fusion rules learned from measurements ------------===*
 *
 * `latency-profile --out DIR --fusion-rules MODEL...` measures, for every
 * (producer class, consumer class) pair that occurs as a producer ->
 * consumer edge between single-op kernels of the models, a few real
 * instances (the most frequent shapes): the producer alone, the consumer
 * alone and both cut out as one kernel, through the profile's pipeline.
 * A pair becomes a rule when fused beats the two apart by more than the
 * noise; every measured pair is written with its numbers, so the decision
 * can be audited (docs/profile-format.md, "Fusion rules learned on the
 * host").
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_FUSION_RULES_H
#define LATENCY_PROFILE_FUSION_RULES_H

#include "commands.h"

/// Learns fusion rules from the models of `options` and writes them to
/// `csvPath` (`producer,consumer,decision,...`); cut-outs and the logs of
/// failed measurements go under `workDir`. Measuring stops at `deadline`
/// (lpNow() seconds; 0: none). False with a message on stderr when nothing
/// could be written.
bool lpLearnFusionRules(const LpOptions *options, const char *workDir,
                        const char *csvPath, double deadline);

#endif /* LATENCY_PROFILE_FUSION_RULES_H */
