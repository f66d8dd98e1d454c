/*===- policy.c - kernel policies: axes, regime keys, transforms -----------===*
 *
 * Invariant: every policy has 1..CM_MAX_AXES distinct axes, and no column is
 * both an axis and a regime key.
 *
 *===----------------------------------------------------------------------===*/
#include "policy.h"

#include "dtype.h"

#include "cm_error.h"
#include "latency/costmodel_util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void policyFree(CmPolicy *policy) {
  free(policy->kernel);
  for (int i = 0; i < policy->numAxes; i++)
    free(policy->axes[i]);
  for (int i = 0; i < policy->numRegime; i++)
    free(policy->regime[i]);
  memset(policy, 0, sizeof *policy);
}

/* Splits `text` at spaces into at most `max` malloc'ed words; returns the
 * count, or -1 when there are more than `max` words or memory ran out. */
static int splitWords(const char *text, char **words, int max) {
  int n = 0;
  const char *p = text;
  while (*p) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    const char *start = p;
    while (*p && *p != ' ')
      p++;
    if (n == max)
      goto fail;
    words[n] = strndup(start, (size_t)(p - start));
    if (!words[n])
      goto fail;
    n++;
  }
  return n;
fail:
  while (n > 0)
    free(words[--n]);
  return -1;
}

static bool parseTransformName(const char *name, CmTransform *out) {
  if (!strcmp(name, "log"))
    *out = CM_TRANSFORM_LOG;
  else if (!strcmp(name, "sqrt"))
    *out = CM_TRANSFORM_SQRT;
  else if (!strcmp(name, "square"))
    *out = CM_TRANSFORM_SQUARE;
  else if (!strcmp(name, "none") || !strcmp(name, "linear"))
    *out = CM_TRANSFORM_NONE;
  else
    return false;
  return true;
}

/* Installs `policy` into `set`, replacing one for the same kernel. Takes
 * ownership of the policy's strings. */
static CmStatus policySetPut(CmPolicySet *set, CmPolicy *policy, CmError *err) {
  for (size_t i = 0; i < set->count; i++) {
    if (!strcmp(set->items[i].kernel, policy->kernel)) {
      policyFree(&set->items[i]);
      set->items[i] = *policy;
      return CM_OK;
    }
  }
  CmPolicy *items = realloc(set->items, (set->count + 1) * sizeof *items);
  if (!items) {
    policyFree(policy);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  set->items = items;
  set->items[set->count++] = *policy;
  return CM_OK;
}

CmStatus cmPolicySetInitDefaults(CmPolicySet *set, CmError *err) {
  memset(set, 0, sizeof *set);
  CmPolicy matmul = {0};
  matmul.kernel = cmStrDup("matmul");
  matmul.numAxes = splitWords("m n k", matmul.axes, CM_MAX_AXES);
  matmul.numRegime = splitWords("dtype", matmul.regime, CM_MAX_REGIME);
  if (!matmul.kernel || matmul.numAxes != 3 || matmul.numRegime != 1) {
    policyFree(&matmul);
    return cmErrorSet(err, CM_ERR_NOMEM, "out of memory");
  }
  return policySetPut(set, &matmul, err);
}

typedef struct {
  CmPolicySet *set;
  const char *name;
  int column[4]; /* kernel, axes, regime, transform; -1 = absent */
  bool sawHeader;
} PolicyReader;

static const char *const policyColumns[4] = {"kernel", "axes", "regime",
                                             "transform"};

static CmStatus readPolicyHeader(PolicyReader *r, char **fields, size_t n,
                                 size_t line, CmError *err) {
  for (int c = 0; c < 4; c++) {
    r->column[c] = -1;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(fields[i], policyColumns[c]))
        r->column[c] = (int)i;
  }
  for (int c = 0; c < 2; c++)
    if (r->column[c] < 0)
      return cmErrorSet(err, CM_ERR_FORMAT,
                        "%s:%zu: missing required column '%s'", r->name, line,
                        policyColumns[c]);
  r->sawHeader = true;
  return CM_OK;
}

static const char *policyField(const PolicyReader *r, char **fields, size_t n,
                               int c) {
  int i = r->column[c];
  return (i >= 0 && (size_t)i < n) ? fields[i] : "";
}

/* Applies "axis:fn axis:fn" to `policy`. */
static CmStatus parseTransforms(CmPolicy *policy, const char *text,
                                const char *name, size_t line, CmError *err) {
  char *words[CM_MAX_AXES];
  int n = splitWords(text, words, CM_MAX_AXES);
  if (n < 0)
    return cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: too many transforms", name,
                      line);
  CmStatus status = CM_OK;
  for (int i = 0; i < n && status == CM_OK; i++) {
    char *colon = strchr(words[i], ':');
    CmTransform transform;
    int axis = -1;
    if (colon) {
      *colon = '\0';
      axis = cmPolicyFindAxis(policy, words[i]);
    }
    if (!colon || axis < 0 || !parseTransformName(colon + 1, &transform))
      status = cmErrorSet(err, CM_ERR_FORMAT,
                          "%s:%zu: transform '%s' is not axis:log, axis:sqrt, "
                          "axis:square or axis:none over an axis of the policy",
                          name, line, words[i]);
    else
      policy->transforms[axis] = transform;
  }
  for (int i = 0; i < n; i++)
    free(words[i]);
  return status;
}

static CmStatus readPolicyRow(void *context, char **fields, size_t n,
                              size_t line, CmError *err) {
  PolicyReader *r = context;
  if (!r->sawHeader)
    return readPolicyHeader(r, fields, n, line, err);
  CmPolicy policy = {0};
  policy.kernel = cmStrDup(policyField(r, fields, n, 0));
  policy.numAxes =
      splitWords(policyField(r, fields, n, 1), policy.axes, CM_MAX_AXES);
  policy.numRegime =
      splitWords(policyField(r, fields, n, 2), policy.regime, CM_MAX_REGIME);
  CmStatus status = CM_OK;
  if (!policy.kernel || !policy.kernel[0])
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: empty kernel", r->name, line);
  else if (policy.numAxes <= 0)
    status =
        cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: kernel '%s' needs 1 to %d axes",
                   r->name, line, policy.kernel, CM_MAX_AXES);
  else if (policy.numRegime < 0)
    status = cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: more than %d regime keys",
                        r->name, line, CM_MAX_REGIME);
  for (int i = 0; status == CM_OK && i < policy.numAxes; i++)
    if (cmPolicyFindAxis(&policy, policy.axes[i]) != i ||
        cmPolicyFindRegime(&policy, policy.axes[i]) >= 0)
      status =
          cmErrorSet(err, CM_ERR_FORMAT, "%s:%zu: column '%s' is listed twice",
                     r->name, line, policy.axes[i]);
  if (status == CM_OK)
    status = parseTransforms(&policy, policyField(r, fields, n, 3), r->name,
                             line, err);
  if (status != CM_OK) {
    if (policy.numAxes < 0)
      policy.numAxes = 0;
    if (policy.numRegime < 0)
      policy.numRegime = 0;
    policyFree(&policy);
    return status;
  }
  return policySetPut(r->set, &policy, err);
}

CmStatus cmPolicySetLoad(CmPolicySet *set, const char *path, const char *name,
                         CmError *err) {
  FILE *stream = fopen(path, "r");
  if (!stream)
    return CM_OK; /* policy.csv is optional */
  PolicyReader reader = {.set = set, .name = name};
  CmStatus status = cmCsvReadStream(stream, name, readPolicyRow, &reader, err);
  fclose(stream);
  return status;
}

void cmPolicySetFree(CmPolicySet *set) {
  for (size_t i = 0; i < set->count; i++)
    policyFree(&set->items[i]);
  free(set->items);
  memset(set, 0, sizeof *set);
}

const CmPolicy *cmPolicySetFind(const CmPolicySet *set, const char *kernel) {
  for (size_t i = 0; i < set->count; i++)
    if (!strcmp(set->items[i].kernel, kernel))
      return &set->items[i];
  return NULL;
}

bool cmKernelAnchor(const char *kernel, char *out, size_t size) {
  size_t n = strcspn(kernel, "+");
  bool fits = size > 0 && n < size;
  if (size > 0) {
    memcpy(out, kernel, fits ? n : 0);
    out[fits ? n : 0] = '\0';
  }
  return fits;
}

bool cmKernelSameAnchor(const char *a, const char *b) {
  size_t n = strcspn(a, "+");
  return strcspn(b, "+") == n && !strncmp(a, b, n);
}

bool cmKernelFamily(const char *kernel, char *out, size_t size) {
  size_t n = strcspn(kernel, "+");
  bool fits = size > 0 && n + 2 < size;
  if (fits)
    snprintf(out, size, "%.*s+*", (int)n, kernel);
  else if (size > 0)
    out[0] = '\0';
  return fits;
}

const CmPolicy *cmPolicySetFindFamily(const CmPolicySet *set,
                                      const char *kernel) {
  for (size_t i = 0; i < set->count; i++)
    if (cmKernelSameAnchor(set->items[i].kernel, kernel))
      return &set->items[i];
  return NULL;
}

const CmPolicy *cmPolicySetResolve(const CmPolicySet *set, const char *kernel,
                                   bool *viaAnchor) {
  *viaAnchor = false;
  const CmPolicy *policy = cmPolicySetFind(set, kernel);
  if (policy || !strchr(kernel, '+'))
    return policy;
  /* The anchor is the root, the first component: conv2d+batchnorm+add+relu
   * is a conv, never answered from an add table. */
  char part[128];
  if (!cmKernelAnchor(kernel, part, sizeof part))
    return NULL;
  policy = cmPolicySetFind(set, part);
  *viaAnchor = policy != NULL;
  return policy;
}

double cmTransformApply(CmTransform transform, double x) {
  switch (transform) {
  case CM_TRANSFORM_LOG:
    return x > 0 ? log(x) : NAN;
  case CM_TRANSFORM_SQRT:
    return x >= 0 ? sqrt(x) : NAN;
  case CM_TRANSFORM_SQUARE: /* increasing only from 0 on */
    return x >= 0 ? x * x : NAN;
  case CM_TRANSFORM_NONE:
    break;
  }
  return x;
}

int cmPolicyFindAxis(const CmPolicy *policy, const char *name) {
  for (int i = 0; i < policy->numAxes; i++)
    if (!strcmp(policy->axes[i], name))
      return i;
  return -1;
}

int cmPolicyFindRegime(const CmPolicy *policy, const char *name) {
  for (int i = 0; i < policy->numRegime; i++)
    if (!strcmp(policy->regime[i], name))
      return i;
  return -1;
}

static bool endsWith(const char *text, const char *suffix) {
  size_t n = strlen(text), m = strlen(suffix);
  return n >= m && !strcmp(text + n - m, suffix);
}

bool cmIsDtypeKey(const char *key) { return endsWith(key, "dtype"); }

void cmCanonicalRegimeValue(const char *key, const char *value, char *out,
                            size_t size) {
  double number;
  if (cmParseNumber(value, &number) && isfinite(number)) {
    snprintf(out, size, "%.17g", number);
    return;
  }
  const char *canonical = cmIsDtypeKey(key) ? cmDtypeFromAlias(value) : NULL;
  snprintf(out, size, "%s", canonical ? canonical : value);
}
