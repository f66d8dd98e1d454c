# Every dependency comes from a Debian 12 package; scripts/setup installs them.
# Each failure names the package to install.
set(LATENCY_LLVM_PREFIX /usr/lib/llvm-22 CACHE PATH "Prefix of LLVM/MLIR 22")

# The cost-model-only builds (TSan, fuzzing; cmake/Sanitizers.cmake) need no
# MLIR.
if(NOT LATENCY_COSTMODEL_ONLY)
  find_package(MLIR 22.1 CONFIG
    HINTS ${LATENCY_LLVM_PREFIX}/lib/cmake/mlir)
  if(NOT MLIR_FOUND)
    message(FATAL_ERROR "MLIR 22 not found: apt-get install libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools")
  endif()
  message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")
endif()

find_package(Qhull CONFIG)
if(NOT TARGET Qhull::qhull_r)
  message(FATAL_ERROR "Qhull (reentrant) not found: apt-get install libqhull-dev")
endif()

find_path(CSV_INCLUDE_DIR csv.h)
find_library(CSV_LIBRARY csv)
if(NOT CSV_INCLUDE_DIR OR NOT CSV_LIBRARY)
  message(FATAL_ERROR "libcsv not found: apt-get install libcsv-dev")
endif()
add_library(csv::csv UNKNOWN IMPORTED)
set_target_properties(csv::csv PROPERTIES
  IMPORTED_LOCATION ${CSV_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${CSV_INCLUDE_DIR})

find_package(Threads REQUIRED)

# SciPy cross-checks run on Debian's python3 (python3-scipy), not a pyenv one.
find_program(LATENCY_PYTHON python3 HINTS /usr/bin NO_DEFAULT_PATH)

# Test tools from llvm-22-tools and mlir-22-tools (the lit suite).
if(NOT LATENCY_COSTMODEL_ONLY)
  find_program(LATENCY_MLIR_OPT mlir-opt HINTS ${LATENCY_LLVM_PREFIX}/bin NO_DEFAULT_PATH)
  find_program(LATENCY_LIT lit HINTS ${LATENCY_LLVM_PREFIX}/bin NO_DEFAULT_PATH)
  find_program(LATENCY_FILECHECK FileCheck HINTS ${LATENCY_LLVM_PREFIX}/bin NO_DEFAULT_PATH)
  foreach(tool LATENCY_MLIR_OPT LATENCY_LIT LATENCY_FILECHECK)
    if(NOT ${tool})
      message(FATAL_ERROR "${tool} not found: apt-get install mlir-22-tools llvm-22-tools")
    endif()
  endforeach()
endif()
