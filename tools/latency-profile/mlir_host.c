/*===- mlir_host.c - one MLIR context for latency-profile -----------------===*
 *
 * Diagnostics are collected, never printed: the driver reports a kernel's
 * failure in one line, and a child's errors reach the driver through the
 * result line it prints (runner.c). Only errors are kept; warnings from the
 * passes' kernel description (dynamic dims and the like) are the pass's
 * business and are dropped here.
 *
 *===----------------------------------------------------------------------===*/
#include "mlir_host.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  char *buffer;
  size_t size, used;
} TextSink;

static void appendText(MlirStringRef text, void *userData) {
  TextSink *sink = userData;
  size_t room = sink->size - sink->used;
  if (room <= 1)
    return;
  size_t n = text.length < room - 1 ? text.length : room - 1;
  memcpy(sink->buffer + sink->used, text.data, n);
  sink->used += n;
  sink->buffer[sink->used] = '\0';
}

static MlirLogicalResult collectError(MlirDiagnostic diag, void *userData) {
  LpHost *host = userData;
  if (mlirDiagnosticGetSeverity(diag) != MlirDiagnosticError)
    return mlirLogicalResultSuccess();
  TextSink sink = {host->errors, sizeof host->errors, strlen(host->errors)};
  if (host->numErrors++)
    appendText(mlirStringRefCreateFromCString("; "), &sink);
  mlirLocationPrint(mlirDiagnosticGetLocation(diag), appendText, &sink);
  appendText(mlirStringRefCreateFromCString(": "), &sink);
  mlirDiagnosticPrint(diag, appendText, &sink);
  return mlirLogicalResultSuccess();
}

void lpHostCreate(LpHost *host) {
  static bool passesRegistered;
  if (!passesRegistered) {
    mlirRegisterAllPasses();
    passesRegistered = true;
  }
  memset(host, 0, sizeof *host);
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  host->ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(host->ctx);
  mlirContextGetOrLoadDialect(host->ctx,
                              mlirStringRefCreateFromCString("func"));
  mlirContextAttachDiagnosticHandler(host->ctx, collectError, host, NULL);
}

void lpHostDestroy(LpHost *host) {
  if (!mlirContextIsNull(host->ctx))
    mlirContextDestroy(host->ctx);
  host->ctx.ptr = NULL;
}

void lpHostClearErrors(LpHost *host) {
  host->errors[0] = '\0';
  host->numErrors = 0;
}

static void reportErrors(LpHost *host, const char *what, char *err,
                         size_t size) {
  snprintf(err, size, "%s%s%s", what, host->numErrors ? ": " : "",
           host->errors);
}

MlirModule lpHostParseFile(LpHost *host, const char *path, char *err,
                           size_t size) {
  lpHostClearErrors(host);
  FILE *probe = fopen(path, "rb");
  if (!probe) {
    snprintf(err, size, "cannot open %s", path);
    return (MlirModule){NULL};
  }
  fclose(probe);
  MlirModule module = mlirModuleCreateParseFromFile(
      host->ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(module))
    reportErrors(host, "cannot parse", err, size);
  return module;
}

MlirModule lpHostParseText(LpHost *host, const char *text, char *err,
                           size_t size) {
  lpHostClearErrors(host);
  MlirModule module =
      mlirModuleCreateParse(host->ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module))
    reportErrors(host, "cannot parse", err, size);
  return module;
}

bool lpHostRunPipeline(LpHost *host, MlirModule module, const char *pipeline,
                       char *err, size_t size) {
  lpHostClearErrors(host);
  char parseError[512] = "";
  TextSink sink = {parseError, sizeof parseError, 0};
  MlirPassManager pm = mlirPassManagerCreate(host->ctx);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  bool ok = true;
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          opm, mlirStringRefCreateFromCString(pipeline), appendText, &sink))) {
    snprintf(err, size, "bad pipeline: %s", parseError);
    ok = false;
  } else if (mlirLogicalResultIsFailure(
                 mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    reportErrors(host, "lowering failed", err, size);
    ok = false;
  }
  mlirPassManagerDestroy(pm);
  return ok;
}

static void writeText(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

bool lpWriteOperation(MlirOperation op, const char *path, bool generic,
                      char *err, size_t size) {
  FILE *out = fopen(path, "w");
  if (!out) {
    snprintf(err, size, "cannot write %s", path);
    return false;
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (generic)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(op, flags, writeText, out);
  mlirOpPrintingFlagsDestroy(flags);
  fputc('\n', out);
  if (fclose(out) != 0) {
    snprintf(err, size, "cannot write %s", path);
    return false;
  }
  return true;
}

void lpFunctionName(MlirOperation func, char *out, size_t size) {
  MlirAttribute name = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"));
  MlirStringRef s = mlirAttributeIsAString(name)
                        ? mlirStringAttrGetValue(name)
                        : mlirStringRefCreateFromCString("");
  snprintf(out, size, "%.*s", (int)s.length, s.data);
}

bool lpIsFunctionWithBody(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length == 9 && !memcmp(name.data, "func.func", 9) &&
         mlirOperationGetNumRegions(op) == 1 &&
         !mlirBlockIsNull(
             mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

static bool isPrivate(MlirOperation func) {
  MlirAttribute v = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_visibility"));
  if (mlirAttributeIsNull(v) || !mlirAttributeIsAString(v))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(v);
  return s.length == 7 && !memcmp(s.data, "private", 7);
}

MlirOperation lpFindFunction(MlirModule module, const char *name) {
  MlirOperation found = {NULL}, last = {NULL};
  MlirBlock body = mlirModuleGetBody(module);
  bool named = name && *name;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!lpIsFunctionWithBody(op))
      continue;
    char symbol[256];
    lpFunctionName(op, symbol, sizeof symbol);
    if (named && !strcmp(symbol, name))
      return op;
    last = op;
    if (!named && !isPrivate(op))
      found = op;
  }
  return named || !mlirOperationIsNull(found) ? found : last;
}
