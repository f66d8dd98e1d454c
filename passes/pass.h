/*===- pass.h - one run of a pass: the state it owns (internal) ------------===*
 *
 * Both passes (passes.c) hold one LatPass on their stack: the profile, the
 * functions of the module with their graphs, and the cost-model options.
 * Stages take it in data-flow order: latPassLoadProfile, latPassDetect
 * (classify + detect), latGraphDescribe per function, latPassLoadTables,
 * latEstimateFunctions (estimate.c), latAnnotateFunction (annotate.c), then
 * the reports; latPassFree at the end, whatever happened.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PASS_H
#define LATENCY_PASS_H

#include "fusion.h"
#include "report.h"

typedef struct {
  MlirOperation module;    /* the module the pass runs on (borrowed)  */
  CmProfile profile;       /* owned                                   */
  CmOptions options;       /* interpolation on/off                    */
  LatFunctionReport *fns;  /* owned: functions with a body, in order  */
  long count;              /* of fns                                  */
  LatFusionContext fusion; /* prices fusion edges (profile, rules)    */
  bool gains;              /* price every fusion edge (latency.fusion) */
  bool freshMemory;        /* whole runs map every large buffer anew   */
  unsigned char *progress; /* estimate.c: per function, owned          */
  char folding[64];        /* dialects that fold constant work anyway  */
} LatPass;

/// Starts `pass` on `module`: loads the profile `name` (or the default)
/// without its measured tables, with the fusion rules of the file `rules`
/// instead of its own when given. False with an error at the module.
bool latPassLoadProfile(LatPass *pass, MlirOperation module, const char *name,
                        const char *rules);

/// Builds the graph of every function with a body, classifies its ops and
/// detects its kernels (fusion rules of the profile when `fusion`, else one
/// op per kernel); `inputs` (may be NULL) gets what the profile's compiler
/// folds (device.csv fold_constants). False with an error at the module when
/// out of memory.
bool latPassDetect(LatPass *pass, bool fusion, const LatInputs *inputs);

/// Loads the profile tables that could answer the described kernels of
/// every function. False with an error at the module.
bool latPassLoadTables(LatPass *pass);

/// Loads every table of the profile. False with an error at the module.
bool latPassLoadAllTables(LatPass *pass);

/// Estimates every function (estimate.c): callees before their callers,
/// then counts, fusion edges (when `gains`) and totals. False when out of
/// memory.
bool latEstimateFunctions(LatPass *pass);

/// Releases what `pass` owns; safe on a pass that failed to start.
void latPassFree(LatPass *pass);

#endif /* LATENCY_PASS_H */
