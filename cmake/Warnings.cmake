# Warnings are errors for our own C code; C++ glue gets the same flags but
# LLVM headers are included as system headers so their warnings stay theirs.
add_compile_options(
  "$<$<COMPILE_LANGUAGE:C>:-Wall;-Wextra;-Werror;-Wno-unused-parameter>"
  "$<$<COMPILE_LANGUAGE:CXX>:-Wall;-Wextra;-Werror;-Wno-unused-parameter>")
