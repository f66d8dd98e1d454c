/*===- validate_session.c - what a validation against a profile holds ----===*/
#include "validate_session.h"

#include "files.h"
#include "validate.h"

#include "latency/costmodel_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool lpValidateSessionOpen(LpValidateSession *s, const LpOptions *o,
                           const char *workName) {
  memset(s, 0, sizeof *s);
  CmError e;
  char dir[4096];
  if (!lpFindPlugin(s->plugin, sizeof s->plugin)) {
    fprintf(stderr, "latency-profile: LatencyPlugin.so not found at %s\n",
            s->plugin);
    return false;
  }
  if (!cmProfileFindDir(o->profileDir, dir, sizeof dir, &e) ||
      cmProfileCreateFromDirWithoutTables(dir, &s->rules, &e) != CM_OK) {
    fprintf(stderr, "latency-profile: profile: %s\n", e.message);
    return false;
  }
  if (o->pipeline)
    snprintf(s->pipeline, sizeof s->pipeline, "%s", o->pipeline);
  else
    lpProfilePipeline(dir, s->pipeline, sizeof s->pipeline);
  bool fits = lpScratchTemplate(workName, s->work, sizeof s->work);
  if (!fits || !mkdtemp(s->work)) {
    if (fits)
      fprintf(stderr, "latency-profile: cannot create %s: %s\n", s->work,
              strerror(errno));
    else
      fprintf(stderr, "latency-profile: $TMPDIR is too long for a scratch "
                      "directory\n");
    cmProfileDestroy(s->rules);
    return false;
  }
  lpHostCreate(&s->host);
  return true;
}

void lpValidateSessionClose(LpValidateSession *s, bool keepWork) {
  if (keepWork)
    printf("kept the logs and cut-outs of what failed in %s\n", s->work);
  else if (!lpRemoveTree(s->work))
    fprintf(stderr, "latency-profile: could not remove %s\n", s->work);
  lpHostDestroy(&s->host);
  cmProfileDestroy(s->rules);
}
