/*===- runner.c - lower, JIT and time one function (the child process) ----===*
 *
 * The work runs in a thread with a 1 GiB stack: the code MLIR generates for
 * large convolutions keeps big buffers on the stack, which the default 8 MiB
 * main-thread stack cannot hold. Every failure becomes the one `error` line
 * the driver reads; the process never prints anything else to stdout.
 *
 *===----------------------------------------------------------------------===*/
#include "runner.h"

#include "allocator.h"
#include "buffers.h"
#include "constants.h"
#include "files.h"
#include "mlir_host.h"
#include "pipelines.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef LP_RUNNER_UTILS
#define LP_RUNNER_UTILS "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so"
#endif

enum { kLineSize = 1536, kMaxEntries = LP_MAX_ENTRIES, kPathSize = 600 };

/* One function the child times, with its own buffers. */
typedef struct {
  char name[256];
  LpBuffer *buffers; /* inputs, then results (out-parameters) */
  intptr_t numInputs, numBuffers;
  void **descriptors, **args;
  void (*function)(void **);
} Entry;

/* One child's state: the options in, the result line out. */
typedef struct {
  const LpRunOptions *options;
  LpHost host;
  MlirModule module;
  Entry entries[kMaxEntries];
  int numEntries;
  const char *lowering;
  int status;
  char line[kLineSize];
} Run;

static void fail(Run *run, const char *stage, const char *reason) {
  /* One line: the parent reads results line by line, so newlines become spaces.
     A reason too long for the line is cut, never the stage. */
  int used = snprintf(run->line, sizeof run->line, "error %.64s: ", stage);
  size_t at = used > 0 ? (size_t)used : 0;
  for (const char *c = reason; *c && at + 1 < sizeof run->line; c++)
    run->line[at++] = (*c == '\n' || *c == '\r') ? ' ' : *c;
  run->line[at] = '\0';
  run->status = 1;
}

/* Reads the entry's signature into e->buffers (not yet allocated). */
static bool readSignature(Run *run, Entry *e, MlirOperation func) {
  MlirAttribute attr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  MlirType type = mlirTypeAttrGetValue(attr);
  intptr_t inputs = mlirFunctionTypeGetNumInputs(type);
  intptr_t results = mlirFunctionTypeGetNumResults(type);
  e->numInputs = inputs;
  e->numBuffers = inputs + results;
  e->buffers = calloc((size_t)e->numBuffers + 1, sizeof *e->buffers);
  if (!e->buffers)
    return fail(run, "signature", "out of memory"), false;
  for (intptr_t i = 0; i < e->numBuffers; i++) {
    MlirType t = i < inputs ? mlirFunctionTypeGetInput(type, i)
                            : mlirFunctionTypeGetResult(type, i - inputs);
    char why[128], text[200];
    if (!lpBufferFromType(t, &e->buffers[i], why, sizeof why)) {
      snprintf(text, sizeof text, "%s %d: %s",
               i < inputs ? "argument" : "result",
               (int)(i < inputs ? i : i - inputs), why);
      return fail(run, "signature", text), false;
    }
  }
  return true;
}

/* Finds entry `e` (`name`, or the module's entry when "") in the module,
 * reads its signature once and marks it for the C interface. */
static bool loadEntry(Run *run, Entry *e, const char *name) {
  MlirOperation func = lpFindFunction(run->module, name);
  if (mlirOperationIsNull(func))
    return fail(run, "entry", "no such function with a body"), false;
  lpFunctionName(func, e->name, sizeof e->name);
  if (!e->buffers && !readSignature(run, e, func))
    return false;
  mlirOperationSetAttributeByName(
      func, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
      mlirUnitAttrGet(run->host.ctx));
  return true;
}

/* Parses the file, finds the entries (`--entry a,b,c`: several, timed
 * interleaved), reads their signatures, marks them for the C interface
 * and gives elided weights values. */
static bool loadModule(Run *run) {
  char err[kLineSize];
  run->module =
      lpHostParseFile(&run->host, run->options->file, err, sizeof err);
  if (mlirModuleIsNull(run->module))
    return fail(run, "parse", err), false;
  const char *names = run->options->entry ? run->options->entry : "";
  run->numEntries = 0;
  do {
    char name[256];
    size_t n = strcspn(names, ",");
    snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), names);
    if (run->numEntries == kMaxEntries)
      return fail(run, "entry", "too many entries"), false;
    if (!loadEntry(run, &run->entries[run->numEntries++], name))
      return false;
    names += n + (names[n] == ',');
  } while (*names);
  uint64_t seed = 0x5eed;
  if (lpRandomizeElidedConstants(run->module, &seed, err, sizeof err) < 0)
    return fail(run, "weights", err), false;
  return true;
}

/* For the crash-containment test: a child asked to measure a kernel of
 * the type named by $LATENCY_PROFILE_TEST_CRASH dies as a crashing pass
 * would. */
static void crashHook(const Run *run) {
  const char *victim = getenv("LATENCY_PROFILE_TEST_CRASH");
  if (victim && *victim && run->options->kernelType &&
      !strcmp(victim, run->options->kernelType))
    raise(SIGSEGV);
}

/* Looks the entries up in `jit` (compiling them); false (the line says
 * why) when the engine is null or an entry has no C interface. */
static bool compileEntries(Run *run, MlirExecutionEngine jit) {
  if (mlirExecutionEngineIsNull(jit)) {
    char text[kLineSize];
    snprintf(text, sizeof text, "cannot JIT the lowered module%s%s",
             run->host.numErrors ? ": " : "", run->host.errors);
    return fail(run, "jit", text), false;
  }
  lpAllocatorServeJit(jit, run->options->freshMemory);
  for (int i = 0; i < run->numEntries; i++) {
    Entry *e = &run->entries[i];
    char symbol[300];
    snprintf(symbol, sizeof symbol, "_mlir_ciface_%s", e->name);
    e->function = (void (*)(void **))mlirExecutionEngineLookupPacked(
        jit, mlirStringRefCreateFromCString(symbol));
    if (!e->function) {
      mlirExecutionEngineDestroy(jit);
      return fail(run, "jit", "the entry has no C interface after lowering"),
             false;
    }
  }
  /* the engine lives until the process exits: the function is in it */
  return true;
}

/* MLIR's ExecutionEngine registers LLVM's perf listener, which the C API
 * cannot turn off: every JIT writes a jitdump of its code under
 * $JITDUMPDIR/.debug/jit (else the temporary directory) and never removes
 * it, 30 KB to 1 MB a process, thousands of processes a profile (454 MB in
 * /tmp/.debug on this VM before this). So, unless the user set JITDUMPDIR
 * (perf record -k1 then perf inject -j want the dumps), a child points it
 * at a directory of its own, $TMPDIR/latency-jit-<pid>, and removes it
 * once its code is compiled; the open dump lives on unlinked until the
 * process exits, and the driver removes the directory of a child killed
 * before that (spawn.c). Writes the directory to remove into `dir`, or ""
 * when there is none. */
static void divertJitDumps(char *dir, size_t size) {
  const char *user = getenv("JITDUMPDIR");
  if ((user && *user) || !lpJitDumpDir((long)getpid(), dir, size)) {
    dir[0] = '\0';
    return;
  }
  lpRemoveTree(dir); /* a dead process's of the same pid */
  if (mkdir(dir, 0700) != 0) {
    dir[0] = '\0';
    return;
  }
  if (setenv("JITDUMPDIR", dir, 1) != 0) {
    rmdir(dir);
    dir[0] = '\0';
  }
}

/* JITs the lowered module and looks its entries up, the perf dumps
 * diverted; false (the line says why) when that fails. */
static bool compile(Run *run) {
  MlirStringRef libs[1] = {mlirStringRefCreateFromCString(LP_RUNNER_UTILS)};
  int numLibs = access(LP_RUNNER_UTILS, R_OK) == 0;
  lpHostClearErrors(&run->host);
  char dumps[kPathSize];
  divertJitDumps(dumps, sizeof dumps);
  MlirExecutionEngine jit =
      mlirExecutionEngineCreate(run->module, 3, numLibs, libs, false, false);
  bool ok = compileEntries(run, jit);
  if (dumps[0] && !lpRemoveTree(dumps))
    fprintf(stderr, "latency-profile: could not remove %s\n", dumps);
  return ok;
}

/* Lowers with `passes` and JITs the result; false (the line says why) when
 * either fails. */
static bool lowerAndCompile(Run *run, const char *passes) {
  char err[kLineSize];
  if (!lpHostRunPipeline(&run->host, run->module, passes, err, sizeof err))
    return fail(run, "lowering", err), false;
  return compile(run);
}

/* Writes `schedule` to a fresh file under $TMPDIR (else /tmp); its path
 * into `path` ("" when none was made). */
static bool writeSchedule(const char *schedule, char *path, size_t size) {
  /* the path goes into a pass option's list: a $TMPDIR with a separator
     or a brace in it would break the pipeline, /tmp does not */
  bool fits = lpScratchTemplate("latency-profile-schedule", path, size);
  if (!fits || strpbrk(path, ",{}'\" \\"))
    snprintf(path, size, "/tmp/latency-profile-schedule-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) {
    path[0] = '\0'; /* nothing to unlink */
    return false;
  }
  size_t n = strlen(schedule);
  bool ok = write(fd, schedule, n) == (ssize_t)n;
  return close(fd) == 0 && ok;
}

/* Lowers and JITs with the pipeline, or with its fallback when that fails
 * (the module is parsed again: a failed pipeline leaves it half done). */
static bool build(Run *run) {
  LpPipeline pipeline = lpPipelineResolve(run->options->pipeline);
  char schedule[kPathSize] = "";
  size_t size = strlen(pipeline.passes) + sizeof schedule;
  char *passes = malloc(size);
  crashHook(run);
  run->lowering = pipeline.name;
  bool ok = passes &&
            (!pipeline.schedule ||
             writeSchedule(pipeline.schedule, schedule, sizeof schedule)) &&
            lpPipelinePasses(&pipeline, schedule, passes, size);
  if (!ok)
    fail(run, "lowering", "cannot prepare the pipeline");
  ok = ok && lowerAndCompile(run, passes);
  if (schedule[0])
    unlink(schedule);
  free(passes);
  if (ok || !pipeline.fallback)
    return ok;
  mlirModuleDestroy(run->module);
  run->module = (MlirModule){NULL};
  run->lowering = "fallback-loops";
  return loadModule(run) && lowerAndCompile(run, pipeline.fallback);
}

static bool allocateBuffers(Run *run, Entry *e) {
  uint64_t seed = 0x1234567;
  size_t n = (size_t)e->numBuffers + 1;
  e->descriptors = calloc(n, sizeof *e->descriptors);
  e->args = calloc(n, sizeof *e->args);
  if (!e->descriptors || !e->args)
    return fail(run, "buffers", "out of memory"), false;
  for (intptr_t i = 0; i < e->numBuffers; i++) {
    if (!lpBufferAllocate(&e->buffers[i], &seed))
      return fail(run, "buffers", "out of memory"), false;
    e->descriptors[i] = e->buffers[i].descriptor;
    e->args[i] = &e->descriptors[i];
  }
  return true;
}

static void callOnce(void *context) {
  Entry *e = context;
  e->function(e->args);
}

/* Times the entries (interleaved when several) and writes the result line:
 * the first entry's fields, then `us.N=` and `cv.N=` for each other, and
 * for two or three the paired difference (`diff=`, `diff_se=`): first -
 * second (a cold probe's extra time), first + second - third (a fusion
 * edge's gain, sides apart minus fused). */
static void measureEntries(Run *run) {
  LpTiming t[kMaxEntries];
  void (*calls[kMaxEntries])(void *);
  void *contexts[kMaxEntries];
  for (int i = 0; i < run->numEntries; i++) {
    calls[i] = callOnce;
    contexts[i] = &run->entries[i];
  }
  LpDifference d = {0, 0};
  lpMeasureInterleaved(calls, contexts, run->numEntries, &run->options->timing,
                       t, &d);
  int used =
      snprintf(run->line, sizeof run->line,
               "ok us=%.9g cv=%.4g reps=%d calls=%ld lowering=%s",
               t[0].medianUs, t[0].cvPct, t[0].reps, t[0].calls, run->lowering);
  for (int i = 1; i < run->numEntries && used > 0; i++)
    used += snprintf(run->line + used, sizeof run->line - (size_t)used,
                     " us.%d=%.9g cv.%d=%.4g", i, t[i].medianUs, i, t[i].cvPct);
  if (run->numEntries >= 2 && used > 0)
    snprintf(run->line + used, sizeof run->line - (size_t)used,
             " diff=%.9g diff_se=%.4g", d.medianUs, d.stderrUs);
  run->status = 0;
}

static void *runThread(void *context) {
  Run *run = context;
  lpHostCreate(&run->host);
  bool ok = loadModule(run) && build(run);
  for (int i = 0; ok && i < run->numEntries; i++)
    ok = allocateBuffers(run, &run->entries[i]);
  if (ok)
    measureEntries(run);
  return NULL;
}

int lpRunMain(const LpRunOptions *options) {
  static Run run; /* large; lives as long as the process */
  memset(&run, 0, sizeof run);
  run.options = options;
  lpAllocatorSetUp(options->freshMemory);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)1 << 30);
  pthread_t thread;
  if (pthread_create(&thread, &attr, runThread, &run) != 0)
    runThread(&run);
  else
    pthread_join(thread, NULL);
  pthread_attr_destroy(&attr);
  printf("%s\n", run.line);
  fflush(stdout);
  /* No teardown: the JIT's code and the buffers die with the process, and
   * LLVM's global destructors have nothing to add to a one-shot child. */
  _exit(run.status);
}
