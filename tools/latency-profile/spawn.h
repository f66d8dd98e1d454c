/*===- spawn.h - run a measuring child with a deadline --------------------===*/
#ifndef LATENCY_PROFILE_SPAWN_H
#define LATENCY_PROFILE_SPAWN_H

#include <stdbool.h>
#include <stddef.h>

/// How a child ended and the first line it printed.
typedef struct {
  int exitStatus; /* exit code, or -1 when killed by a signal */
  int signal;     /* the signal that ended it, or 0             */
  bool timedOut;  /* killed at the deadline                     */
  char line[1600];
} LpChild;

/// Runs the program at `path` with `argv` (NULL ends the list), its stdout
/// captured and its stderr written to `logPath` (NULL: discarded); kills it
/// after `timeoutSeconds`. False with the reason in `err` only when it
/// could not be started.
bool lpSpawn(const char *path, char *const argv[], const char *logPath,
             double timeoutSeconds, LpChild *out, char *err, size_t size);

/// Runs this program again (its hidden `--run` mode) as lpSpawn does.
bool lpSpawnSelf(char *const argv[], const char *logPath, double timeoutSeconds,
                 LpChild *out, char *err, size_t size);

/// Fills `out` with what went wrong with `child` ("crashed: signal 11
/// (Segmentation fault)", "crashed: exited with status 1 without a result",
/// "timed out after 60 s", the child's error line);
/// returns true when it printed an `ok` line and exited normally.
bool lpChildSucceeded(const LpChild *child, double timeoutSeconds, char *out,
                      size_t size);

#endif /* LATENCY_PROFILE_SPAWN_H */
