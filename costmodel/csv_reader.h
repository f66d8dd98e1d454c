/*===- csv_reader.h - line-numbered CSV records through libcsv -------------===*
 *
 * libcsv does the parsing (quotes, escaped quotes, embedded newlines); this
 * wrapper feeds it one physical line at a time so every record it hands on
 * carries the line number where it ends, for "file:line" errors.
 *
 *===----------------------------------------------------------------------===*/
#ifndef LATENCY_CSV_READER_H
#define LATENCY_CSV_READER_H

#include "latency/costmodel.h"

#include <stdio.h>

enum { CM_CSV_MAX_FIELDS = 256 }; /* more columns than this is an error */

/// Receives one record: `fields[0..numFields)` are NUL-terminated and valid
/// only during the call; `line` is the 1-based line where the record ends.
/// Returning anything but CM_OK (with `err` filled) stops the reader.
typedef CmStatus (*CmCsvRecordFn)(void *context, char **fields,
                                  size_t numFields, size_t line, CmError *err);

/// Reads every record of `stream`, calling `onRecord` for each non-empty
/// one; `name` prefixes error messages. Returns CM_OK, the callback's status,
/// or CM_ERR_FORMAT for malformed CSV (e.g. an unterminated quote).
CmStatus cmCsvReadStream(FILE *stream, const char *name, CmCsvRecordFn onRecord,
                         void *context, CmError *err);

/// Opens `path` and reads it as cmCsvReadStream does; CM_ERR_IO when the file
/// cannot be opened.
CmStatus cmCsvReadFile(const char *path, const char *name,
                       CmCsvRecordFn onRecord, void *context, CmError *err);

#endif /* LATENCY_CSV_READER_H */
