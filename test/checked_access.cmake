# Fails when a file in passes/ other than ir_util.c reads an operand, a
# result or a value's uses through the raw MLIR C API: those reads go
# through latOperand / latResult / latFirstUse, which return null past the
# end instead of reading out of bounds (issue 11; docs/passes.md).
file(GLOB sources ${SOURCE_DIR}/passes/*.c)
set(bad "")
foreach(source ${sources})
  get_filename_component(name ${source} NAME)
  if(name STREQUAL "ir_util.c")
    continue()
  endif()
  file(STRINGS ${source} lines REGEX
       "mlirOperationGetOperand\\(|mlirOperationGetResult\\(|mlirValueGetFirstUse\\(")
  if(lines)
    string(APPEND bad "${name}: ${lines}\n")
  endif()
endforeach()
if(bad)
  message(FATAL_ERROR "unchecked operand/result access:\n${bad}")
endif()
message(STATUS "passes/: every operand, result and use read is checked")
