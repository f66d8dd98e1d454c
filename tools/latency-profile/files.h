/*===- files.h - directories, copies and CSV cells ------------------------===*/
#ifndef LATENCY_PROFILE_FILES_H
#define LATENCY_PROFILE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// Creates directory `path` and its parents (like mkdir -p); false with
/// the reason in `err`.
bool lpMakeDirs(const char *path, char *err, size_t size);

/// Copies file `from` to `to`; false with the reason in `err`.
bool lpCopyFile(const char *from, const char *to, char *err, size_t size);

/// Removes directory `dir` and everything in it (symbolic links, not what
/// they point to), going on past what cannot be removed; false when
/// something could not be (or `dir` does not exist).
bool lpRemoveTree(const char *dir);

/// Removes the `*.csv` files directly in `dir` (a missing dir is fine).
void lpRemoveCsvFiles(const char *dir);

/// Writes `text` to `out` as one CSV cell, quoted when it holds a comma,
/// a quote, a line break or surrounding spaces.
void lpCsvCell(FILE *out, const char *text);

/// Copies the value of `key` in the `key,value` CSV file `path` (quoted
/// values unquoted) into `out`; false when the file or the key is missing.
bool lpReadKeyValue(const char *path, const char *key, char *out, size_t size);

/// Writes the mkdtemp / mkstemp template `name`-XXXXXX under $TMPDIR (else
/// /tmp) into `out`; false when it does not fit.
bool lpScratchTemplate(const char *name, char *out, size_t size);

/// Writes the directory a child process `pid` diverts its JIT's perf
/// dumps to into `out`: $TMPDIR/latency-jit-<pid> (tools/latency-profile/
/// runner.c); false when it does not fit.
bool lpJitDumpDir(long pid, char *out, size_t size);

/// Writes `text` to the file at `path`, replacing it; false when it cannot
/// be written whole (the probes' modules).
bool lpWriteTextFile(const char *path, const char *text);

/// Returns the last component of `path` (borrowed).
const char *lpBaseName(const char *path);

#endif /* LATENCY_PROFILE_FILES_H */
