# LATENCY_SANITIZE=ON builds everything with ASan + UBSan. The plugin is then
# loaded into Debian's (uninstrumented) mlir-opt with the ASan runtime
# preloaded; test/lit.cfg.py does that through the %mlir_opt substitution.
option(LATENCY_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
if(LATENCY_SANITIZE)
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
