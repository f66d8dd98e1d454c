/*===- profile_find.c - from a profile name to its directory ---------------===*
 *
 * Shipped profiles live in the source tree's profiles/ (used from a build
 * tree) and in <prefix>/share/mlir-latency/profiles after `cmake --install`;
 * both paths are compiled in by costmodel/CMakeLists.txt.
 *
 *===----------------------------------------------------------------------===*/
#include "latency/costmodel.h"

#include "cm_error.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char kDefaultProfile[] = "h100-sxm";

static bool isDirectory(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cmProfileFindDir(const char *nameOrPath, char *out, size_t size,
                      CmError *err) {
  const char *name = nameOrPath;
  if (!name || !*name)
    name = getenv("MLIR_LATENCY_PROFILE");
  if (!name || !*name)
    name = kDefaultProfile;
  if (strchr(name, '/') || isDirectory(name)) {
    if (isDirectory(name)) {
      snprintf(out, size, "%s", name);
      return true;
    }
    cmErrorSet(err, CM_ERR_IO, "profile directory '%s' does not exist", name);
    return false;
  }
  const char *roots[] = {LATENCY_SOURCE_PROFILES, LATENCY_INSTALLED_PROFILES};
  for (size_t i = 0; i < 2; i++) {
    snprintf(out, size, "%s/%s", roots[i], name);
    if (isDirectory(out))
      return true;
  }
  cmErrorSet(err, CM_ERR_IO,
             "no profile named '%s' (looked in %s and %s); give a directory "
             "path or a shipped name",
             name, roots[0], roots[1]);
  return false;
}
