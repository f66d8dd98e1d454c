/*===- profile.h - in-memory layout of a loaded profile (internal) ---------===*
 *
 * A profile owns its device entries, fusion rules, kernel policies and one
 * CmGroup per (kernel, regime) pair found in its tables. Everything is
 * written while loading; afterwards only the lazily built indexes of a group
 * change, each published once under the group's lock.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_PROFILE_H
#define LATENCY_PROFILE_H

#include "latency/costmodel.h"

#include "group.h"
#include "policy.h"

typedef struct {
  char *key;    /* device.csv key                     */
  char *text;   /* its value as written               */
  double value; /* numeric value, NaN when not numeric */
} CmDeviceEntry;

typedef struct {
  char *producer; /* op class of the producer */
  char *consumer; /* op class of the consumer */
} CmFusionRule;

struct CmProfileImpl {
  char *dir;              /* directory loaded from                  */
  const char *deviceName; /* borrowed from the "name" entry, or ""  */
  CmDeviceEntry *device;  /* device.csv rows                        */
  size_t numDevice;       /* entries in device                      */
  CmFusionRule *rules;    /* fusion.csv rows                        */
  size_t numRules;        /* entries in rules                       */
  CmPolicySet policies;   /* built-in defaults + policy.csv         */
  CmGroupSet groups;      /* measured points by kernel and regime   */
  size_t numRows;         /* valid table rows                       */
  size_t numDropped;      /* rows dropped for a bad latency         */
  bool tablesLoaded;      /* tables read (all, or by kernel)        */
};

/// Loads fusion rules from `path` into `*rules`/`*numRules` (caller frees
/// with cmFusionRulesFree); `name` prefixes messages.
CmStatus cmFusionRulesLoad(const char *path, const char *name,
                           CmFusionRule **rules, size_t *numRules,
                           CmError *err);

/// Frees `numRules` rules and the array.
void cmFusionRulesFree(CmFusionRule *rules, size_t numRules);

/// Loads the tables/NAME.csv of `profile->dir` into `profile->groups`: all
/// of them when `kernels` is NULL, else only those whose bytes mention one of
/// the `numKernels` names.
CmStatus cmProfileLoadTables(struct CmProfileImpl *profile,
                             const char *const *kernels, size_t numKernels,
                             CmError *err);

#endif /* LATENCY_PROFILE_H */
