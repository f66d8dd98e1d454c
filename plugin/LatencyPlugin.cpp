//===- LatencyPlugin.cpp - entry point for mlir-opt --load-pass-plugin ----===//
//
// Stock mlir-opt builds its per-pass flags before it loads plugins, so
// `--annotate-latency` would be an unknown flag. Loading this library also
// registers llvm::cl options named after our passes (the command line is
// still being parsed when the plugin loads, so later arguments see them);
// their callbacks turn `--annotate-latency[=OPTIONS]` and
// `--detect-fusion-kernels[=OPTIONS]` into one
// `--pass-pipeline=builtin.module(PASS{OPTIONS},...)`, in command-line order.
//
//===----------------------------------------------------------------------===//
#include "PassWrappers.h"

#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace {

/// Appends `pass{options}` to the module pipeline handed to mlir-opt's
/// `--pass-pipeline` (a cl::opt takes its last occurrence, so each flag
/// re-sends the whole pipeline so far); reports failure when the tool has no
/// such option.
void requestModulePass(llvm::StringRef pass, const std::string &options) {
  static std::string passes;
  auto &registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("pass-pipeline");
  if (it == registered.end()) {
    llvm::errs() << "--" << pass
                 << ": this tool has no --pass-pipeline option; use "
                    "--pass-pipeline or latency-opt\n";
    return;
  }
  if (!passes.empty())
    passes += ",";
  passes += pass.str();
  if (!options.empty())
    passes += "{" + options + "}";
  it->second->addOccurrence(/*pos=*/0, "pass-pipeline",
                            "builtin.module(" + passes + ")");
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
      requestModulePass("annotate-latency", options);
    }));

llvm::cl::opt<std::string> detectFusionKernelsFlag(
    "detect-fusion-kernels", llvm::cl::ValueOptional,
    llvm::cl::value_desc("pass options"),
    llvm::cl::desc("Run the detect-fusion-kernels pass on the module "
                   "(options as in detect-fusion-kernels{...}, e.g. "
                   "--detect-fusion-kernels='rules=my-fusion.csv')"),
    llvm::cl::callback([](const std::string &options) {
      requestModulePass("detect-fusion-kernels", options);
    }));

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "LatencyPlugin", LLVM_VERSION_STRING,
          latency::registerLatencyPasses};
}
