# Runs the libFuzzer binary FUZZER for SECONDS (at most 10^6 inputs) with
# seed 1 and the dictionary DICT over a fresh copy of the seed corpus SEEDS
# in WORK/corpus; new inputs, scratch profiles, triangulation cache entries
# and any crashing input stay in WORK, never in the source tree or $HOME.
# Fails when the fuzzer finds anything.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/tmp ${WORK}/triangulation-cache)
file(COPY ${SEEDS}/ DESTINATION ${WORK}/corpus)
set(ENV{TMPDIR} ${WORK}/tmp)
set(ENV{MLIR_LATENCY_CACHE} ${WORK}/triangulation-cache) # not $HOME's
execute_process(
  COMMAND ${FUZZER} -seed=1 -max_total_time=${SECONDS} -runs=1000000
          -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 -dict=${DICT}
          -artifact_prefix=${WORK}/ ${WORK}/corpus
  RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${FUZZER} found a problem (exit ${status}); the input "
                      "is in ${WORK}/ (crash-*, leak-*, timeout-*)")
endif()
