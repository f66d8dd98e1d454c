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
#include "latency/costmodel_util.h"

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

/// A (producer, consumer) pair measured on the device: fused / apart.
typedef struct {
  char *producer; /* op class of the producer          */
  char *consumer; /* op class of the consumer          */
  double ratio;   /* fused / apart: 1 - gain_pct / 100  */
} CmFusionMeasurement;

struct CmProfileImpl {
  char *dir;              /* directory loaded from                  */
  const char *deviceName; /* borrowed from the "name" entry, or ""  */
  CmDeviceEntry *device;  /* device.csv rows                        */
  size_t numDevice;       /* entries in device                      */
  CmFusionRule *rules;    /* fusion.csv rows                        */
  size_t numRules;        /* entries in rules                       */
  CmFusionMeasurement *fusionMeasured; /* fusion.csv's measured pairs */
  size_t numFusionMeasured;
  CmPolicySet policies; /* built-in defaults + policy.csv         */
  CmGroupSet groups;    /* measured points by kernel and regime   */
  size_t numRows;       /* valid table rows                       */
  size_t numDropped;    /* rows dropped for a bad latency         */
  bool tablesLoaded;    /* tables read (all, or by kernel)        */
};

/// Loads fusion rules from `path` into `*rules`/`*numRules` (caller frees
/// with cmFusionRulesFree); `name` prefixes messages.
CmStatus cmFusionRulesLoad(const char *path, const char *name,
                           CmFusionRule **rules, size_t *numRules,
                           CmError *err);

/// Loads the measured pairs of the fusion.csv at `path` (column
/// `gain_pct`; none when it lacks it) into `*out` / `*count` (caller frees
/// with cmFusionMeasurementsFree); `name` prefixes errors. A gain that is
/// not a number below 100 is an error; an empty one skips the row.
CmStatus cmFusionMeasurementsLoad(const char *path, const char *name,
                                  CmFusionMeasurement **out, size_t *count,
                                  CmError *err);

/// Frees `count` measured pairs and the array.
void cmFusionMeasurementsFree(CmFusionMeasurement *items, size_t count);

/// Frees `numRules` rules and the array.
void cmFusionRulesFree(CmFusionRule *rules, size_t numRules);

/// What a table must contain to answer some query: its table kernel as a
/// field and, for each element-type regime key the query gave, a cell that
/// canonicalises to that value.
typedef struct {
  const char *kernel;             /* table kernel (borrowed)       */
  int numDtypes;                  /* entries in dtypes, distinct   */
  char dtypes[CM_MAX_REGIME][24]; /* canonical element types       */
} CmTableNeed;

/// Loads the tables/NAME.csv of `profile->dir` into `profile->groups`: all
/// of them when `needs` is NULL, else only those whose bytes could hold a
/// row for one of the `numNeeds` needs (the others are skipped unparsed).
CmStatus cmProfileLoadTables(struct CmProfileImpl *profile,
                             const CmTableNeed *needs, size_t numNeeds,
                             CmError *err);

#endif /* LATENCY_PROFILE_H */
