/*===- profile_find.c - from a profile name to its directory ---------------===*
 *
 * Shipped profiles live in <prefix>/share/mlir-latency/profiles after
 * `cmake --install`, found relative to the binary or plugin this code is
 * loaded from (dladdr), wherever the prefix is; from a build tree, in the
 * source tree's profiles/ (path compiled in by costmodel/CMakeLists.txt).
 * A bare name is looked up in that order: installed first, so an installed
 * plugin never reads a source tree that happens to still exist.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* dladdr */
#include "latency/costmodel.h"
#include "latency/costmodel_util.h"

#include "cm_error.h"

#include <dlfcn.h>
#include <libgen.h>

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
      if (strlen(name) < size) {
        snprintf(out, size, "%s", name);
        return true;
      }
      cmErrorSet(err, CM_ERR_IO, "profile directory path too long: %.200s...",
                 name);
      return false;
    }
    cmErrorSet(err, CM_ERR_IO, "profile directory '%s' does not exist", name);
    return false;
  }
  /* <dir of this binary or plugin>/../share/mlir-latency/profiles */
  char installed[4096] = "";
  Dl_info info;
  if (dladdr((void *)cmProfileFindDir, &info) && info.dli_fname &&
      strlen(info.dli_fname) < sizeof installed - 40) {
    char module[4096];
    snprintf(module, sizeof module, "%s", info.dli_fname);
    snprintf(installed, sizeof installed, "%s/../share/mlir-latency/profiles",
             dirname(module));
  }
  const char *roots[] = {installed, LATENCY_SOURCE_PROFILES};
  for (size_t i = 0; i < 2; i++)
    if (roots[i][0] && cmPathJoin(out, size, roots[i], name, NULL) == CM_OK &&
        isDirectory(out))
      return true;
  cmErrorSet(err, CM_ERR_IO,
             "no profile named '%s' (looked in %.200s and %.200s); give a "
             "directory path or a shipped name",
             name, roots[0], roots[1]);
  return false;
}
