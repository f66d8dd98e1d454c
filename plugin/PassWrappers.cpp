//===- PassWrappers.cpp - C++ shells around the C passes --------*- C++ -*-===//
//
// The only logic here is option plumbing: MLIR parses the options, the C
// entry points in passes/ do the work and report through diagnostics.
//
//===----------------------------------------------------------------------===//
#include "PassWrappers.h"

#include "latency/passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

#include <mutex>
#include <vector>

using namespace mlir;

namespace {

// Both passes only add discardable `latency.*` attributes: no op, operand,
// block or region changes, and no registered dialect owns the `latency`
// prefix, so nothing the verifier checks can have changed. Marking all
// analyses preserved tells the pass manager so, and it then skips verifying
// the whole module again after the pass: the largest single cost of running
// it (a fifth of parse + print on 100k-op graphs; docs/performance.md).

struct AnnotateLatencyPass
    : public PassWrapper<AnnotateLatencyPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AnnotateLatencyPass)

  AnnotateLatencyPass() = default;
  AnnotateLatencyPass(const AnnotateLatencyPass &other) : PassWrapper(other) {}

  StringRef getArgument() const final { return "annotate-latency"; }
  StringRef getDescription() const final {
    return "Detect fusion kernels, estimate their latency from a device "
           "profile and attach the estimates as attributes";
  }

  Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Shipped profile name or profile directory (default: "
                     "$MLIR_LATENCY_PROFILE, else h100-sxm)")};
  Option<bool> interpolation{
      *this, "interpolation",
      llvm::cl::desc("Interpolate between measured points (false: exact "
                     "lookup, then roofline)"),
      llvm::cl::init(true)};
  Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("Partition into kernels: rules (default; true is "
                     "accepted) by the profile's fusion rules, false for "
                     "single-op kernels, greedy to merge by estimated gain"),
      llvm::cl::init("rules")};
  Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write a report: .json, .md or .csv by extension; '-' "
                     "prints the Markdown table to stdout")};
  Option<std::string> trace{
      *this, "trace", llvm::cl::desc("Write a Chrome trace event JSON file")};
  ListOption<int64_t> inputs{
      *this, "inputs",
      llvm::cl::desc("Indices of the function arguments that change per "
                     "inference (e.g. 0 or 0,1); every other tensor argument "
                     "is a weight, and work on weights only is folded "
                     "(default: every argument is an input)")};

  Option<bool> gains{
      *this, "gains",
      llvm::cl::desc("Price every fusion edge (latency.fusion, the report's "
                     "fusion list); false skips that analysis"),
      llvm::cl::init(true)};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("Precision the device computes float kernels in: as-is "
                     "(default), bf16, f16, fp8 or int8 (as TensorRT's "
                     "precision flags or autocast would)"),
      llvm::cl::init("as-is")};
  Option<bool> freshMemory{
      *this, "fresh-memory",
      llvm::cl::desc("Predict a whole run that maps every buffer of 128 KiB "
                     "or more anew on each call (latency-profile --validate "
                     "--fresh-memory): with a host profile, kernels' results "
                     "that other kernels read pay their pages too (by "
                     "default only those of 32 MiB or more)"),
      llvm::cl::init(false)};

  void runOnOperation() final {
    std::string profileText = profile, reportText = report, traceText = trace;
    std::string precisionText = precision, fusionText = fusion;
    LatAnnotateOptions options;
    options.profile = profileText.c_str();
    options.interpolation = interpolation;
    options.fusion = fusionText.c_str();
    options.report = reportText.c_str();
    options.trace = traceText.c_str();
    std::vector<int64_t> inputIndices(inputs.begin(), inputs.end());
    options.inputs = inputIndices.data();
    options.numInputs = inputIndices.size();
    options.inputsGiven = inputs.hasValue();
    options.precision = precisionText.c_str();
    options.gains = gains;
    options.freshMemory = freshMemory;
    if (mlirLogicalResultIsFailure(
            latAnnotateLatency(wrap(getOperation().getOperation()), &options)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

struct DetectFusionKernelsPass
    : public PassWrapper<DetectFusionKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(DetectFusionKernelsPass)

  DetectFusionKernelsPass() = default;
  DetectFusionKernelsPass(const DetectFusionKernelsPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "detect-fusion-kernels"; }
  StringRef getDescription() const final {
    return "Group ops into fusion kernels and tag them with latency.kernel "
           "(no cost model; for testing fusion rules)";
  }

  Option<std::string> profile{
      *this, "profile",
      llvm::cl::desc("Profile whose fusion.csv supplies the rules")};
  Option<std::string> rules{
      *this, "rules",
      llvm::cl::desc("A fusion.csv that overrides the profile's rules")};
  Option<std::string> compare{
      *this, "compare",
      llvm::cl::desc("Another fusion.csv: print both partitions' kernels "
                     "and predicted totals")};

  void runOnOperation() final {
    std::string profileText = profile, rulesText = rules, compareText = compare;
    if (mlirLogicalResultIsFailure(latDetectFusionKernels(
            wrap(getOperation().getOperation()), profileText.c_str(),
            rulesText.c_str(), compareText.c_str())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

void latency::registerLatencyPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    PassRegistration<AnnotateLatencyPass>();
    PassRegistration<DetectFusionKernelsPass>();
  });
}
