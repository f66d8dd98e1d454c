# lit configuration for mlir-latency: tests run Debian's mlir-opt with the
# built plugin loaded, and the project's own command-line tools.
import os

import lit.formats

config.name = "mlir-latency"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.latency_obj_root, "test", "lit")

bin_dir = os.path.join(config.latency_obj_root, "bin")
mlir_opt = config.mlir_opt
if config.asan_runtime:
    # The plugin is built with ASan; Debian's mlir-opt is not, so the runtime
    # must be loaded first. LLVM's own allocations at exit are not our leaks.
    mlir_opt = "env LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0 %s" % (
        config.asan_runtime, mlir_opt)
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("asan")

config.substitutions += [
    ("%mlir_opt", mlir_opt),
    ("%plugin", os.path.join(config.latency_obj_root, "lib", "LatencyPlugin.so")),
    ("%latency_opt", os.path.join(bin_dir, "latency-opt")),
    ("%latency_query", os.path.join(bin_dir, "latency-query")),
    ("%latency_eval", os.path.join(bin_dir, "latency-eval")),
    ("%models", os.path.join(config.latency_src_root, "test", "models")),
    ("%profiles", os.path.join(config.latency_src_root, "profiles")),
    ("%scripts", os.path.join(config.latency_src_root, "scripts")),
    ("%inputs", os.path.join(config.test_source_root, "Inputs")),
    ("%python", config.python),
]
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, bin_dir, config.environment.get("PATH", "")])
# Tests must not pick up a developer's default-profile override.
config.environment.pop("MLIR_LATENCY_PROFILE", None)
# Nor write a triangulation cache under $HOME (latency-query-cache.test
# points it at its own directory).
config.environment["MLIR_LATENCY_CACHE"] = "off"
