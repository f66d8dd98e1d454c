//===- LatencyPlugin.cpp - entry point for mlir-opt --load-pass-plugin ----===//
//
// Stock mlir-opt builds its per-pass flags before it loads plugins, so
// `--annotate-latency` would be an unknown flag. Loading this library also
// registers an llvm::cl option of that name (the command line is still being
// parsed when the plugin loads, so later arguments see it); its callback
// turns `--annotate-latency[=OPTIONS]` into
// `--pass-pipeline=builtin.module(annotate-latency{OPTIONS})`.
//
//===----------------------------------------------------------------------===//
#include "PassWrappers.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace {

/// Hands `options` to mlir-opt's `--pass-pipeline` as one annotate-latency
/// pass on the module; reports failure when mlir-opt has no such option.
void requestAnnotateLatency(const std::string &options) {
  auto &registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("pass-pipeline");
  if (it == registered.end()) {
    llvm::errs() << "--annotate-latency: this tool has no --pass-pipeline "
                    "option; use --pass-pipeline or latency-opt\n";
    return;
  }
  std::string pipeline = "builtin.module(annotate-latency";
  if (!options.empty())
    pipeline += "{" + options + "}";
  pipeline += ")";
  it->second->addOccurrence(/*pos=*/0, "pass-pipeline", pipeline);
}

// Registered when the plugin is loaded by --load-pass-plugin, which happens
// while mlir-opt is still parsing its command line.
llvm::cl::opt<std::string> annotateLatencyFlag(
    "annotate-latency", llvm::cl::ValueOptional,
    llvm::cl::value_desc("pass options"),
    llvm::cl::desc("Run the annotate-latency pass on the module (options as "
                   "in annotate-latency{...}, e.g. "
                   "--annotate-latency='report=out.json fusion=false')"),
    llvm::cl::callback([](const std::string &options) {
      requestAnnotateLatency(options);
    }));

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LatencyPlugin", LLVM_VERSION_STRING,
          latency::registerLatencyPasses};
}
