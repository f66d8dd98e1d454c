/*===- test_hostile_csv.c - malformed and hostile profiles fail clearly ----===*
 *
 * Every malformed file must give CM_ERR_FORMAT (or CM_ERR_IO) with the file
 * and line in the message, never a crash; a file the loader accepts must
 * still answer queries.
 *
 *===----------------------------------------------------------------------===*/
#include "harness.h"
#include "test_profiles.h"

#include <stdlib.h>
#include <string.h>

static char scratch[4096];

/* Loads a profile with `policy` (NULL: none) whose table is the `length`
 * bytes at `table`; returns the status and copies the message. */
static CmStatus loadBytes(const char *name, const char *policy,
                          const char *table, size_t length, char *message,
                          size_t size) {
  char dir[4200], path[4300];
  snprintf(dir, sizeof dir, "%s/%s", scratch, name);
  testMakeProfile(dir, policy, "");
  snprintf(path, sizeof path, "%s/tables/t.csv", dir);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(table, 1, length, f) == length);
  if (f)
    fclose(f);
  CmProfile p;
  CmError err = {""};
  CmStatus status = cmProfileCreateFromDir(dir, &p, &err);
  snprintf(message, size, "%s", err.message);
  if (status == CM_OK)
    cmProfileDestroy(p);
  else
    CHECK(cmProfileIsNull(p));
  return status;
}

/* Loads a profile whose table is `table`; returns the status and copies the
 * message. */
static CmStatus loadTable(const char *name, const char *table, char *message,
                          size_t size) {
  return loadBytes(name, NULL, table, strlen(table), message, size);
}

#define EXPECT_ERROR(name, table, needle)                                      \
  do {                                                                         \
    char msg_[600];                                                            \
    CHECK(loadTable(name, table, msg_, sizeof msg_) == CM_ERR_FORMAT);         \
    if (!strstr(msg_, needle))                                                 \
      fprintf(stderr, "message was: %s\n", msg_);                              \
    CHECK(strstr(msg_, needle) != NULL);                                       \
  } while (0)

TEST(missing_required_column_names_file_and_line) {
  EXPECT_ERROR("nolatency", "kernel,dtype,m,n,k\nmatmul,bf16,1,1,1\n",
               "tables/t.csv:1: missing required column 'latency_us'");
  EXPECT_ERROR("noaxis", "kernel,dtype,m,n,latency_us\nmatmul,bf16,1,1,1\n",
               "tables/t.csv:2: missing required column 'k'");
}

TEST(unparsable_number_names_file_and_line) {
  EXPECT_ERROR("badnum",
               "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,1,1,2\n"
               "matmul,bf16,x12,1,1,2\n",
               "tables/t.csv:3: column 'm': 'x12' is not a finite number");
  EXPECT_ERROR("empty", "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,,1,2\n",
               "tables/t.csv:2: column 'n'");
  EXPECT_ERROR("huge",
               "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1e999,1,1,2\n",
               "tables/t.csv:2: column 'm'");
}

TEST(unterminated_quote_is_a_format_error) {
  EXPECT_ERROR("quote",
               "kernel,dtype,m,n,k,latency_us\nmatmul,\"bf16,1,1,1,2\n",
               "malformed CSV");
}

TEST(quoted_fields_are_read_as_values) {
  char msg[600];
  CHECK(loadTable("quoted",
                  "kernel,dtype,m,n,k,latency_us\n\"matmul\",\"bf16\",\"1\","
                  "1,1,\"2.5\"\n",
                  msg, sizeof msg) == CM_OK);
}

TEST(ragged_rows_are_errors) {
  EXPECT_ERROR("ragged", "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,1\n",
               "tables/t.csv:2: 4 fields, header has 6");
}

TEST(no_header_is_reported_as_missing_columns) {
  EXPECT_ERROR("noheader", "matmul,bf16,1,1,1,2\nmatmul,bf16,2,1,1,3\n",
               "tables/t.csv:1: missing required column");
  EXPECT_ERROR("emptyfile", "", "empty table");
}

TEST(one_megabyte_field_does_not_crash) {
  size_t n = 1 << 20;
  char *table = malloc(n + 128);
  strcpy(table, "kernel,dtype,m,n,k,latency_us,note\nmatmul,bf16,1,1,1,2,");
  size_t used = strlen(table);
  memset(table + used, 'b', n);
  strcpy(table + used + n, "\n");
  char msg[600];
  /* A 1 MB metadata cell is odd but valid: it loads. */
  CHECK(loadTable("bigfield", table, msg, sizeof msg) == CM_OK);
  /* As a regime value it is too long (see the next test). */
  strcpy(table, "kernel,dtype,m,n,k,latency_us,note\nmatmul,");
  used = strlen(table);
  memset(table + used, 'b', n);
  strcpy(table + used + n, ",1,1,1,2,x\n");
  CHECK(loadTable("bigregime", table, msg, sizeof msg) == CM_ERR_FORMAT);
  CHECK(strstr(msg, "tables/t.csv:2: regime values longer than") != NULL);
  free(table);
}

/* Found by fuzz_profile_load: a regime value was cut to 127 bytes inside
 * the group key, so values agreeing on those merged and a point's value
 * (here all digits once cut) no longer named its group. */
TEST(regime_values_longer_than_127_bytes_are_errors) {
  char table[512], value[200];
  memset(value, '2', 130);
  strcpy(value + 130, "bf16");
  snprintf(table, sizeof table,
           "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,32,32,2.58\n"
           "matmul,%s,1,64,32,2.65\n",
           value);
  EXPECT_ERROR("longregime", table,
               "tables/t.csv:3: regime values longer than 127 bytes (or 511 "
               "together)");
  value[127] = '\0'; /* 127 bytes are fine */
  snprintf(table, sizeof table,
           "kernel,dtype,m,n,k,latency_us\nmatmul,%sx,1,64,32,2.65\n",
           value + 1);
  char msg[600];
  CHECK(loadTable("longregimeok", table, msg, sizeof msg) == CM_OK);
}

/* Found while fixing the above: rows whose raw regime cells did not fit the
 * last-row cache (600-digit spellings of 1 and 2) joined the previous row's
 * group. */
TEST(long_regime_spellings_keep_their_own_group) {
  char table[2048] = "kernel,dtype,m,n,k,latency_us\n", zeros[601];
  memset(zeros, '0', 600);
  zeros[600] = '\0';
  for (int d = 1; d <= 2; d++)
    snprintf(table + strlen(table), sizeof table - strlen(table),
             "matmul,%d.%s,1,1,1,%d\n", d, zeros, d + 1);
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/longspelling", scratch);
  CHECK(testMakeProfile(dir, NULL, table));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  for (int d = 1; d <= 2; d++) {
    char dtype[4];
    snprintf(dtype, sizeof dtype, "%d", d);
    CmField fields[] = {{"dtype", dtype}, {"m", "1"}, {"n", "1"}, {"k", "1"}};
    CmQuery q = {"matmul", fields, 4, -1, -1};
    CmEstimate e;
    CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
    CHECK(e.source == CM_SOURCE_MEASURED && e.latencyUs == d + 1);
  }
  cmProfileDestroy(p);
}

/* Found by fuzz_profile_load: 0x1f joins a group's regime values, so a cell
 * holding it made cmProfileForEachPoint split the value wrongly and could
 * merge two regimes into one group. */
TEST(regime_value_with_key_separator_is_an_error) {
  EXPECT_ERROR("separator",
               "kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,32,32,2.58\n"
               "matmul,bf\x1f"
               "16,2,32,32,2.64\n",
               "tables/t.csv:3: column 'dtype': a regime value may not hold "
               "the byte 0x1f");
}

/* Found by fuzz_profile_load: a NUL byte cut a field short as a C string,
 * so the row joined a group the table's bytes do not name (and loading by
 * query skipped the table the whole load read). */
TEST(nul_byte_in_a_field_is_an_error) {
  static const char table[] = "kernel,dtype,m,n,k,latency_us\n"
                              "matmul,\0bf16,1,32,32,2.58\n";
  char msg[600];
  CHECK(loadBytes("nul", NULL, table, sizeof table - 1, msg, sizeof msg) ==
        CM_ERR_FORMAT);
  CHECK(strstr(msg, "tables/t.csv:2: a field holds a NUL byte") != NULL);
}

/* Found by fuzz_profile_load: m = 0 under m:log gave an interpolated NaN. */
TEST(axis_outside_its_transform_domain_is_an_error) {
  static const char policy[] = "kernel,axes,regime,transform\n"
                               "matmul,m n k,dtype,m:log k:sqrt\n";
  static const char *const tables[2][2] = {
      {"kernel,dtype,m,n,k,latency_us\nmatmul,bf16,0,32,32,2.58\n",
       "tables/t.csv:2: column 'm': '0' is outside the domain of its "
       "transform"},
      {"kernel,dtype,m,n,k,latency_us\nmatmul,bf16,1,32,32,2.58\n"
       "matmul,bf16,4,32,-1,2.65\n",
       "tables/t.csv:3: column 'k': '-1' is outside the domain of its "
       "transform"}};
  for (int i = 0; i < 2; i++) {
    char msg[600];
    CHECK(loadBytes("domain", policy, tables[i][0], strlen(tables[i][0]), msg,
                    sizeof msg) == CM_ERR_FORMAT);
    if (!strstr(msg, tables[i][1]))
      fprintf(stderr, "message was: %s\n", msg);
    CHECK(strstr(msg, tables[i][1]) != NULL);
  }
}

/* Found while fuzzing (by reading interpolate_1d.c): log maps m = 9e14 + 2
 * and 9e14 + 4 to one double, and the 1D rule divided by their difference,
 * answering NaN "interpolated". The raw values place the query instead. */
TEST(transform_collapsing_two_points_still_interpolates) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/collapse", scratch);
  CHECK(testMakeProfile(dir,
                        "kernel,axes,regime,transform\n"
                        "matmul,m n k,dtype,m:log\n",
                        "kernel,dtype,m,n,k,latency_us\n"
                        "matmul,bf16,900000000000002,32,32,2\n"
                        "matmul,bf16,900000000000004,32,32,3\n"));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  CmField fields[] = {
      {"dtype", "bf16"}, {"m", "900000000000003"}, {"n", "32"}, {"k", "32"}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(e.source == CM_SOURCE_INTERPOLATED && e.method == CM_METHOD_LINEAR_1D);
  CHECK(e.latencyUs == 2.5);
  cmProfileDestroy(p);
}

/* Found by fuzz_profile_load: a latency of 1e-320 us made a check error
 * |ln(pred / measured)| overflow to infinity, every 1D weight 0, and the
 * weighted answer 0 / 0 (and the confidence NaN). */
TEST(denormal_latency_keeps_1d_weights_finite) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/denormal", scratch);
  CHECK(testMakeProfile(dir, NULL,
                        "kernel,dtype,m,n,k,latency_us\n"
                        "matmul,bf16,1,64,64,1\n"
                        "matmul,bf16,2,64,64,1e-320\n"
                        "matmul,bf16,4,64,64,1\n"
                        "matmul,bf16,3,32,64,1\n"
                        "matmul,bf16,3,128,64,1\n"));
  CmProfile p;
  CHECK(testLoadProfile(dir, &p));
  CmField fields[] = {{"dtype", "bf16"}, {"m", "3"}, {"n", "64"}, {"k", "64"}};
  CmQuery q = {"matmul", fields, 4, -1, -1};
  CmEstimate e;
  CHECK(cmProfileEstimate(p, &q, NULL, &e, NULL) == CM_OK);
  CHECK(e.method == CM_METHOD_WEIGHTED_1D);
  CHECK_NEAR(e.latencyUs, 0.75, 1e-12); /* lines m (0.5) and n (1), equal */
  CHECK(e.confidence >= 0 && e.confidence <= 1 && isfinite(e.errorEstimate));
  cmProfileDestroy(p);
}

/* Loading by query must read every table a whole load answers from, however
 * the table spells the row (found by fuzz_profile_load and by reading
 * table_scan.c): cells padded with spaces (libcsv trims them), an empty
 * element type, a number, an escaped quote, one longer than a need holds. */
TEST(odd_spellings_load_by_query_as_a_whole_load) {
  static const char *const cases[][2] = {
      {"matmul, bf16 ,1,32,32,2.58\n", "bf16"},
      {" matmul\t,bf16,1,32,32,2.58\n", "bf16"},
      {"matmul,,1,32,32,2.58\n", ""},
      {"matmul,8.0,1,32,32,2.58\n", "8"},
      {"matmul,\"b\"\"f\",1,32,32,2.58\n", "b\"f"},
      {"matmul,a_very_long_element_type_name,1,32,32,2.58\n",
       "a_very_long_element_type_name"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char dir[4200], table[256];
    snprintf(dir, sizeof dir, "%s/spelling%zu", scratch, i);
    snprintf(table, sizeof table, "kernel,dtype,m,n,k,latency_us\n%s",
             cases[i][0]);
    CHECK(testMakeProfile(dir, NULL, table));
    CmField fields[] = {
        {"dtype", cases[i][1]}, {"m", "1"}, {"n", "32"}, {"k", "32"}};
    CmQuery q = {"matmul", fields, 4, -1, -1};
    CmProfile whole, lazy;
    CmEstimate a, b;
    CHECK(testLoadProfile(dir, &whole));
    CHECK(cmProfileCreateFromDirWithoutTables(dir, &lazy, NULL) == CM_OK);
    CHECK(cmProfileLoadTablesFor(lazy, &q, 1, NULL) == CM_OK);
    CHECK(cmProfileEstimate(whole, &q, NULL, &a, NULL) == CM_OK);
    CHECK(cmProfileEstimate(lazy, &q, NULL, &b, NULL) == CM_OK);
    if (b.source != CM_SOURCE_MEASURED)
      fprintf(stderr, "case %zu: %s\n", i, b.reason);
    CHECK(a.source == CM_SOURCE_MEASURED && a.latencyUs == 2.58);
    CHECK(b.source == CM_SOURCE_MEASURED && b.latencyUs == 2.58);
    cmProfileDestroy(whole);
    cmProfileDestroy(lazy);
  }
}

TEST(unknown_kernel_without_policy_is_explained) {
  EXPECT_ERROR("nopolicy", "kernel,x,latency_us\nfoo,1,2\n",
               "kernel 'foo' has no policy");
}

TEST(missing_device_file_is_io_error) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/does-not-exist", scratch);
  CmProfile p;
  CmError err;
  CHECK(cmProfileCreateFromDir(dir, &p, &err) == CM_ERR_IO);
  CHECK(strstr(err.message, "device.csv: cannot open") != NULL);
}

/* A profile path longer than the loader's buffers is refused by name, not
 * cut to a shorter path that might exist (issue 12: no silent caps). */
TEST(profile_path_too_long_is_an_error) {
  static char dir[6000];
  memset(dir, 'a', sizeof dir - 1);
  dir[0] = '/';
  dir[sizeof dir - 1] = '\0';
  CmProfile p;
  CmError err;
  CHECK(cmProfileCreateFromDir(dir, &p, &err) == CM_ERR_IO);
  CHECK(strstr(err.message, "path too long") != NULL);
  CHECK(cmProfileIsNull(p));
  char out[64];
  CHECK(!cmProfileFindDir(dir, out, sizeof out, &err));
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  snprintf(scratch, sizeof scratch, "%s", argv[2]);
  return RUN_TESTS(
      T(missing_required_column_names_file_and_line),
      T(unparsable_number_names_file_and_line),
      T(unterminated_quote_is_a_format_error),
      T(quoted_fields_are_read_as_values), T(ragged_rows_are_errors),
      T(no_header_is_reported_as_missing_columns),
      T(one_megabyte_field_does_not_crash),
      T(regime_values_longer_than_127_bytes_are_errors),
      T(long_regime_spellings_keep_their_own_group),
      T(regime_value_with_key_separator_is_an_error),
      T(nul_byte_in_a_field_is_an_error),
      T(axis_outside_its_transform_domain_is_an_error),
      T(odd_spellings_load_by_query_as_a_whole_load),
      T(transform_collapsing_two_points_still_interpolates),
      T(denormal_latency_keeps_1d_weights_finite),
      T(unknown_kernel_without_policy_is_explained),
      T(missing_device_file_is_io_error), T(profile_path_too_long_is_an_error));
}
