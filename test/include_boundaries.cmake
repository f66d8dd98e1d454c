# Fails when a file outside costmodel/ includes one of the cost model's
# internal headers (those in costmodel/ itself; the public ones are under
# costmodel/include/latency/ and are included as "latency/NAME.h").
#   cmake -DSOURCE_DIR=<repo> -P include_boundaries.cmake
cmake_minimum_required(VERSION 3.20)
file(GLOB internal RELATIVE ${SOURCE_DIR}/costmodel ${SOURCE_DIR}/costmodel/*.h)
file(GLOB_RECURSE sources
  ${SOURCE_DIR}/passes/*.[ch] ${SOURCE_DIR}/passes/*.cpp
  ${SOURCE_DIR}/plugin/*.cpp ${SOURCE_DIR}/plugin/*.h
  ${SOURCE_DIR}/tools/*.[ch] ${SOURCE_DIR}/tools/*.cpp
  ${SOURCE_DIR}/test/*.[ch])
set(violations "")
foreach(file IN LISTS sources)
  file(STRINGS ${file} includes REGEX "^#include \"[^\"]+\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" header "${line}")
    if(header IN_LIST internal)
      get_filename_component(dir ${file} DIRECTORY)
      # A same-named header of the including file's own folder is its own.
      if(NOT EXISTS ${dir}/${header})
        string(APPEND violations "  ${file}: ${line}\n")
      endif()
    endif()
  endforeach()
endforeach()
list(LENGTH internal count)
if(violations)
  message(FATAL_ERROR "costmodel-internal headers included from outside "
    "costmodel/ (use latency/costmodel.h or latency/costmodel_util.h):\n"
    "${violations}")
endif()
message(STATUS "include_boundaries: ${count} internal headers, none included from outside")
