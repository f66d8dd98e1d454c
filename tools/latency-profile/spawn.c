/*===- spawn.c - run a measuring child with a deadline --------------------===*
 *
 * Children are spawned from /proc/self/exe (the same binary, in its hidden
 * `--run` mode) one at a time: measurements must not overlap. A child that
 * outlives its deadline gets SIGKILL; one that crashes is reported by its
 * signal. Nothing a child does can take the driver down, and what it
 * leaves of its JIT's perf dumps is removed.
 *
 *===----------------------------------------------------------------------===*/
#include "spawn.h"

#include "files.h"
#include "timing.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Reads the child's stdout until EOF or the deadline; keeps the first
 * line. Returns false at the deadline. */
static bool readOutput(int fd, double deadline, LpChild *out) {
  size_t used = 0;
  char chunk[512];
  for (;;) {
    double left = deadline - lpNow();
    if (left <= 0)
      return false;
    struct pollfd p = {fd, POLLIN, 0};
    int ready = poll(&p, 1, (int)(left * 1000) + 1);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue; /* the deadline check above ends it */
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return true;
    for (ssize_t i = 0; i < n && used + 1 < sizeof out->line; i++)
      out->line[used++] = chunk[i];
    out->line[used] = '\0';
  }
}

/* Waits for `pid` until the deadline, then kills it. */
static void reap(pid_t pid, double deadline, LpChild *out) {
  int status = 0;
  for (;;) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR)
      return;
    if (lpNow() >= deadline) {
      out->timedOut = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    nanosleep(&(struct timespec){0, 5000000}, NULL);
  }
  out->exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

bool lpSpawn(const char *path, char *const argv[], const char *logPath,
             double timeoutSeconds, LpChild *out, char *err, size_t size) {
  memset(out, 0, sizeof *out);
  int fds[2];
  if (pipe(fds) != 0) {
    snprintf(err, size, "cannot create a pipe: %s", strerror(errno));
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO,
                                   logPath ? logPath : "/dev/null",
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int rc = posix_spawn(&pid, path, &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    snprintf(err, size, "cannot start a child: %s", strerror(rc));
    return false;
  }
  double deadline = lpNow() + timeoutSeconds;
  if (!readOutput(fds[0], deadline, out))
    deadline = lpNow(); /* kill it now */
  close(fds[0]);
  reap(pid, deadline, out);
  /* the perf dumps of a child killed or crashed before it removed them
     (runner.c) */
  char dumps[600];
  if (lpJitDumpDir((long)pid, dumps, sizeof dumps))
    lpRemoveTree(dumps);
  char *newline = strchr(out->line, '\n');
  if (newline)
    *newline = '\0';
  return true;
}

bool lpSpawnSelf(char *const argv[], const char *logPath, double timeoutSeconds,
                 LpChild *out, char *err, size_t size) {
  return lpSpawn("/proc/self/exe", argv, logPath, timeoutSeconds, out, err,
                 size);
}

bool lpChildSucceeded(const LpChild *child, double timeoutSeconds, char *out,
                      size_t size) {
  if (child->timedOut)
    snprintf(out, size, "timed out after %.0f s", timeoutSeconds);
  else if (child->signal)
    snprintf(out, size, "crashed: signal %d (%s)", child->signal,
             strsignal(child->signal));
  else if (!strncmp(child->line, "error ", 6))
    snprintf(out, size, "%s", child->line + 6);
  else if (child->exitStatus != 0 || strncmp(child->line, "ok ", 3))
    snprintf(out, size, "crashed: exited with status %d without a result",
             child->exitStatus);
  else
    return true;
  return false;
}
