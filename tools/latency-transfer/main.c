/*===- main.c - latency-transfer: a new device from a known one -----------===*
 *
 *   latency-transfer --from REF --device DEV.csv [--points CSV ...]
 *                    [--fusion CSV] --out DIR
 *   latency-transfer --from REF --device DEV.csv [--points CSV ...]
 *                    --suggest N --candidates CSV [--seed S]
 *
 * The first writes a profile for the target device whose tables are the
 * reference's, mapped and corrected by the measured target points; the
 * second prints which N candidate shapes to measure next. The loop:
 * suggest -> measure -> transfer again with the points
 * (docs/profile-format.md). All the work is in costmodel/transfer*.c.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"
#include "latency/transfer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kUsage[] =
    "usage: latency-transfer --from REF --device DEV.csv [--points CSV ...]\n"
    "                        [--fusion CSV] [--kernel K] --out DIR\n"
    "       latency-transfer --from REF --device DEV.csv [--points CSV ...]\n"
    "                        --suggest N --candidates CSV [--seed S] [--kernel "
    "K]\n"
    "REF: a profile with tables (name or directory), e.g. h100-sxm.\n"
    "DEV.csv: the target's device.csv (key,value: peaks, mem_bw, ...).\n"
    "--points: measured target rows (kernel, regime keys, axes,\n"
    "  latency_us); a measured point is reproduced exactly.\n"
    "--out: writes a profile whose table answers say source=transferred.\n"
    "--suggest: prints the N candidate rows (same columns) whose\n"
    "  measurement helps most; measure them, add them with --points.\n"
    "--kernel K: the kernel of rows in files without a kernel column.\n";

enum { kMaxPointFiles = 16 };

typedef struct {
  const char *from, *device, *out, *fusion, *candidates, *kernel;
  const char *points[kMaxPointFiles];
  int numPoints;
  long suggest; /* -1: not asked */
  unsigned long long seed;
} Args;

static bool parseArgs(int argc, char **argv, Args *a) {
  *a = (Args){.suggest = -1};
  for (int i = 1; i < argc; i += 2) { /* every option takes a value */
    const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!next)
      return false;
    if (!strcmp(arg, "--from"))
      a->from = next;
    else if (!strcmp(arg, "--device"))
      a->device = next;
    else if (!strcmp(arg, "--out"))
      a->out = next;
    else if (!strcmp(arg, "--fusion"))
      a->fusion = next;
    else if (!strcmp(arg, "--candidates"))
      a->candidates = next;
    else if (!strcmp(arg, "--kernel"))
      a->kernel = next;
    else if (!strcmp(arg, "--points") && a->numPoints < kMaxPointFiles)
      a->points[a->numPoints++] = next;
    else if (!strcmp(arg, "--suggest"))
      a->suggest = strtol(next, NULL, 10);
    else if (!strcmp(arg, "--seed"))
      a->seed = strtoull(next, NULL, 10);
    else
      return false;
  }
  bool suggest = a->suggest >= 0 && a->candidates;
  return a->from && a->device && (suggest != !!a->out) &&
         (a->suggest < 0) == !a->candidates;
}

/* Loads the written profile back and says what it holds. */
static int report(const char *dir, size_t points) {
  CmProfile profile;
  CmError err;
  if (cmProfileCreateFromDir(dir, &profile, &err) != CM_OK) {
    fprintf(stderr, "latency-transfer: the written profile: %s\n", err.message);
    return 1;
  }
  fprintf(stderr,
          "latency-transfer: %s: %zu table rows for %s, %zu target points, "
          "confidence %.3g\n",
          dir, cmProfileGetNumRows(profile), cmProfileGetDeviceName(profile),
          points, cmProfileGetDeviceNumber(profile, "transfer_confidence", 0));
  cmProfileDestroy(profile);
  return 0;
}

int main(int argc, char **argv) {
  Args args;
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(kUsage, stdout);
    return 0;
  }
  if (!parseArgs(argc, argv, &args)) {
    fputs(kUsage, stderr);
    return 2;
  }
  char reference[4096];
  CmError err;
  CmTransfer transfer = {NULL};
  CmStatus status =
      cmProfileFindDir(args.from, reference, sizeof reference, &err)
          ? cmTransferCreate(reference, args.device, &transfer, &err)
          : CM_ERR_IO;
  if (status == CM_OK)
    cmTransferSetDefaultKernel(transfer, args.kernel);
  for (int i = 0; status == CM_OK && i < args.numPoints; i++)
    status = cmTransferAddPoints(transfer, args.points[i], &err);
  if (status == CM_OK && args.out)
    status = cmTransferWriteProfile(transfer, args.out, args.fusion, &err);
  if (status == CM_OK && args.candidates)
    status = cmTransferSuggest(transfer, args.candidates, (size_t)args.suggest,
                               args.seed, stdout, &err);
  int rc = status == CM_OK ? 0 : 1;
  if (status != CM_OK)
    fprintf(stderr, "latency-transfer: %s\n", err.message);
  else if (args.out)
    rc = report(args.out, cmTransferGetNumPoints(transfer));
  cmTransferDestroy(transfer);
  return rc;
}
