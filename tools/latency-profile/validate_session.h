/*===- validate_session.h - what a validation against a profile holds ----===*
 *
 * `--validate` and `--validate-fusion` both run the pass with a profile and
 * measure through its pipeline: they find the plugin, load the profile's
 * fusion rules (for detection), take its pipeline, make a scratch directory
 * and an MLIR host, and at the end remove the directory unless something
 * failed in it.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_VALIDATE_SESSION_H
#define LATENCY_PROFILE_VALIDATE_SESSION_H

#include "commands.h"
#include "mlir_host.h"

#include "latency/costmodel.h"

#include <stdbool.h>

typedef struct {
  char pipeline[4096]; /* the profile's pipeline (name or passes)   */
  char plugin[4200];   /* LatencyPlugin.so beside this binary       */
  char work[512];      /* scratch directory                         */
  CmProfile rules;     /* the profile's fusion rules, for detection */
  LpHost host;
} LpValidateSession;

/// Opens a session for `o`'s profile (and pipeline, when given) with a
/// new scratch directory `workName`-XXXXXX under $TMPDIR (else /tmp);
/// false, with the reason on stderr and nothing held, when it cannot.
bool lpValidateSessionOpen(LpValidateSession *s, const LpOptions *o,
                           const char *workName);

/// Releases the session; removes its scratch directory unless `keepWork`
/// (something failed in it: its logs and cut-outs are kept, and named).
void lpValidateSessionClose(LpValidateSession *s, bool keepWork);

#endif /* LATENCY_PROFILE_VALIDATE_SESSION_H */
