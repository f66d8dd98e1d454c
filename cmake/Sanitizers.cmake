# LATENCY_SANITIZE=ON builds everything with ASan + UBSan. The plugin is then
# loaded into Debian's (uninstrumented) mlir-opt with the ASan runtime
# preloaded; test/lit.cfg.py does that through the %mlir_opt substitution.
#
# LATENCY_SANITIZE=thread builds with ThreadSanitizer, and only the cost model
# and its tests: a TSan plugin cannot run inside an uninstrumented mlir-opt.
#
# LATENCY_FUZZ=ON (clang only) builds the cost model with ASan + UBSan and
# libFuzzer's coverage instrumentation, and the fuzz targets of
# test/fuzz/libfuzzer; the passes and plugin are skipped.
#
# Either of the last two sets LATENCY_COSTMODEL_ONLY.
set(LATENCY_SANITIZE OFF CACHE STRING
    "ON: ASan + UBSan; thread: TSan, cost model only; OFF: none")
set_property(CACHE LATENCY_SANITIZE PROPERTY STRINGS OFF ON thread)
option(LATENCY_FUZZ "Build the libFuzzer targets (clang; cost model only)" OFF)

string(TOUPPER "${LATENCY_SANITIZE}" latency_sanitize)
if(latency_sanitize STREQUAL "THREAD")
  set(latency_sanitize THREAD)
elseif(latency_sanitize MATCHES "^(1|ON|YES|TRUE|Y)$")
  set(latency_sanitize ADDRESS)
elseif(latency_sanitize MATCHES "^(0|OFF|NO|FALSE|N|)$")
  set(latency_sanitize NONE)
else()
  message(FATAL_ERROR
    "LATENCY_SANITIZE='${LATENCY_SANITIZE}': use ON (ASan + UBSan), thread "
    "(TSan, cost model only) or OFF")
endif()

set(LATENCY_COSTMODEL_ONLY OFF)
if(latency_sanitize STREQUAL "THREAD" OR LATENCY_FUZZ)
  set(LATENCY_COSTMODEL_ONLY ON)
endif()

if(LATENCY_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR
      "LATENCY_FUZZ=ON needs clang (libFuzzer is part of clang), but the C "
      "compiler is ${CMAKE_C_COMPILER_ID} (${CMAKE_C_COMPILER}). Configure a "
      "fresh build directory with CC=clang CXX=clang++ (Debian: apt-get "
      "install clang libclang-rt-14-dev).")
  endif()
  if(latency_sanitize STREQUAL "THREAD")
    message(FATAL_ERROR "LATENCY_FUZZ=ON uses ASan + UBSan; it cannot be "
                        "combined with LATENCY_SANITIZE=thread")
  endif()
  # Coverage for everything; only the fuzz targets link libFuzzer's main.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                      -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
elseif(latency_sanitize STREQUAL "THREAD")
  set(LATENCY_SANITIZE_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
  add_compile_options(${LATENCY_SANITIZE_FLAGS})
  add_link_options(${LATENCY_SANITIZE_FLAGS})
elseif(latency_sanitize STREQUAL "ADDRESS")
  set(LATENCY_SANITIZE_FLAGS
      -fsanitize=address,undefined -fno-sanitize-recover=undefined
      -fno-omit-frame-pointer)
  add_compile_options(${LATENCY_SANITIZE_FLAGS})
  add_link_options(${LATENCY_SANITIZE_FLAGS})
  execute_process(
    COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE LATENCY_ASAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(
    COMMAND ${CMAKE_C_COMPILER} -print-file-name=libubsan.so
    OUTPUT_VARIABLE LATENCY_UBSAN_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(LATENCY_ASAN_RUNTIME "${LATENCY_ASAN_RUNTIME}" REALPATH)
  get_filename_component(LATENCY_UBSAN_RUNTIME "${LATENCY_UBSAN_RUNTIME}" REALPATH)
endif()
