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
  const CmDeviceEntry **deviceByKey; /* the rows by key, file order within
                                        a key: looked up by bisection */
  CmFusionRule *rules; /* fusion.csv rows                        */
  size_t numRules;     /* entries in rules                       */
  CmFusionMeasurement *fusionMeasured; /* fusion.csv's measured pairs */
  size_t numFusionMeasured;
  CmPolicySet policies; /* built-in defaults + policy.csv         */
  CmGroupSet groups;    /* measured points by kernel and regime   */
  size_t numRows;       /* valid table rows                       */
  size_t numDropped;    /* rows dropped for a bad latency         */
  bool tablesLoaded;    /* tables read (all, or by kernel)        */
};

/// Returns the text of device.csv's first row with `key` (borrowed), or
/// NULL.
const char *cmProfileDeviceText(const struct CmProfileImpl *p, const char *key);

/// Reads the fusion.csv at `path` once, into its rules (`*rules` /
/// `*numRules`: rows whose `decision`, when the column is there, is `yes`)
/// and its measured pairs (`*measured` / `*numMeasured`: rows with a
/// `gain_pct`, none when the file lacks the column); the caller frees them
/// with cmFusionRulesFree and cmFusionMeasurementsFree. `name` prefixes
/// messages. A gain that is not a number below 100 is an error; an empty
/// one skips the row. On error nothing is returned.
CmStatus cmFusionFileLoad(const char *path, const char *name,
                          CmFusionRule **rules, size_t *numRules,
                          CmFusionMeasurement **measured, size_t *numMeasured,
                          CmError *err);

/// Reads fusion.csv's measured pairs row by row (fusion_measured.c), for
/// the reader of the whole file (cmFusionFileLoad).
typedef struct {
  const char *name;
  int position[3]; /* producer, consumer, gain_pct: column, -1 absent */
  bool sawHeader;
  CmFusionMeasurement *items;
  size_t count, capacity;
} CmFusionMeasurementReader;

/// Takes one row (the first is the header) into `reader`; a CmCsvRecordFn.
CmStatus cmFusionMeasurementReadRow(void *reader, char **fields, size_t n,
                                    size_t line, CmError *err);

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
