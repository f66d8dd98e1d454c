# Installs the build into PREFIX and checks that the installed latency-eval
# loads the default profile from PREFIX/share/mlir-latency/profiles.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX}
  RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${rc}")
endif()
execute_process(
  COMMAND ${PREFIX}/bin/latency-eval --kernel matmul dtype=bf16 --holdout 20 --seed 1 --summary-only
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET)
if(NOT rc EQUAL 0 OR NOT out MATCHES "profile ${PREFIX}/bin/../share/mlir-latency/profiles/h100-sxm")
  message(FATAL_ERROR "installed latency-eval did not use the installed default profile:\n${out}")
endif()
# The installed plugin in Debian's mlir-opt, no profile option.
set(preload)
if(PRELOAD)
  set(preload env LD_PRELOAD=${PRELOAD} ASAN_OPTIONS=detect_leaks=0)
endif()
execute_process(
  COMMAND ${preload} ${MLIR_OPT} --load-pass-plugin=${PREFIX}/lib/LatencyPlugin.so
          --annotate-latency=report=- ${MODEL} -o /dev/null
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "profile ${PREFIX}/lib/../share/mlir-latency/profiles/h100-sxm")
  message(FATAL_ERROR "installed plugin did not use the installed default profile:\n${out}\n${err}")
endif()
message(STATUS "installed default profile found: 2 passed, 0 failed")
