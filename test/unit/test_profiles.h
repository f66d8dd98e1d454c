/*===- test_profiles.h - real profile directories for the unit tests -------===*
 *
 * Tests build their profiles as real directories of real CSV files under the
 * build tree and load them through the public API, libcsv and all.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_TEST_PROFILES_H
#define LATENCY_TEST_PROFILES_H

#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

/// Writes `text` to `dir`/`name`, creating `dir` (and tables/) as needed;
/// returns false and prints why on failure.
bool testWriteFile(const char *dir, const char *name, const char *text);

/// Creates profile directory `dir` with a small device.csv and fusion.csv,
/// `policy` as policy.csv unless NULL, and `table` as tables/t.csv unless
/// NULL.
bool testMakeProfile(const char *dir, const char *policy, const char *table);

/// Loads `dir` as a profile into `*out`; prints the error and returns false
/// on failure.
bool testLoadProfile(const char *dir, CmProfile *out);

/// Builds and loads `buildDir`/test-profiles/h100-minus-golden: the shipped
/// H100 bf16 GEMM table without the (m, n, k) rows of `goldenPath`.
bool testProfileWithoutGolden(const char *buildDir, const char *goldenPath,
                              CmProfile *out);

/// Returns the source tree's profiles directory (compiled in).
const char *testShippedProfilesDir(void);

#endif /* LATENCY_TEST_PROFILES_H */
