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

/* Loads a profile whose table is `table`; returns the status and copies the
 * message. */
static CmStatus loadTable(const char *name, const char *table, char *message,
                          size_t size) {
  char dir[4200];
  snprintf(dir, sizeof dir, "%s/%s", scratch, name);
  testMakeProfile(dir, NULL, table);
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
  strcpy(table, "kernel,dtype,m,n,k,latency_us\nmatmul,");
  size_t used = strlen(table);
  memset(table + used, 'b', n);
  strcpy(table + used + n, ",1,1,1,2\n");
  char msg[600];
  /* A 1 MB regime value is odd but valid: it loads. */
  CHECK(loadTable("bigfield", table, msg, sizeof msg) == CM_OK);
  free(table);
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

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  snprintf(scratch, sizeof scratch, "%s", argv[2]);
  return RUN_TESTS(T(missing_required_column_names_file_and_line),
                   T(unparsable_number_names_file_and_line),
                   T(unterminated_quote_is_a_format_error),
                   T(quoted_fields_are_read_as_values),
                   T(ragged_rows_are_errors),
                   T(no_header_is_reported_as_missing_columns),
                   T(one_megabyte_field_does_not_crash),
                   T(unknown_kernel_without_policy_is_explained),
                   T(missing_device_file_is_io_error));
}
