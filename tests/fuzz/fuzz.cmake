# The libFuzzer drivers of the core, in the sanitizer build (clang): one per kernel set, since
# both define the same attn:: symbols. Each links the core library the Catch2 suite of its kernel set
# uses, which this build compiles with libFuzzer's coverage feedback (CMakeLists.txt): compiling the
# core a second time for the drivers alone made half of the build. The decoding of inputs is
# instrumented too; the oracle and the float64 reference are not: comparison tracing in their loops
# took 60% of the time. ctest runs each driver as two tests labelled "fuzz": the corpus of past
# failures replayed once, then a fuzzing run bounded by the environment's ATTN_FUZZ_SECONDS when
# ctest runs (10 s unless set; ATTN_FUZZ_SECONDS=60 for the longer runs), or by ATTN_FUZZ_RUNS inputs
# (scripts/test.sh asks for 6,000: see run.sh).
set_source_files_properties(tests/fuzz/fuzz_case.cpp PROPERTIES COMPILE_OPTIONS -fsanitize=fuzzer-no-link)
# The drivers' own code names no kernel set: compiled once, linked into both (as the Catch2 suites'
# shared files, CMakeLists.txt). The float64 reference is the suites' object (attn_tests_shared_reference,
# the same flags), not compiled a second time.
add_library(attn_fuzz_shared OBJECT tests/fuzz/fuzz_attention.cpp tests/fuzz/fuzz_case.cpp)
target_include_directories(attn_fuzz_shared PRIVATE cpp tests/cpp tests/fuzz)
target_compile_definitions(attn_fuzz_shared PRIVATE ATTN_KERNEL_SET_AGNOSTIC)
foreach(variant native_simde native_scalar)
  set(core attn_core_${variant})

  set(target fuzz_attention_${variant})
  add_executable(${target} $<TARGET_OBJECTS:attn_fuzz_shared> $<TARGET_OBJECTS:attn_tests_shared_reference>)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${target} PRIVATE ${core})
  add_test(NAME fuzz-corpus:${variant}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh replay $<TARGET_FILE:${target}> ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus)
  add_test(NAME fuzz:${variant}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh fuzz $<TARGET_FILE:${target}> ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus
                   ${CMAKE_BINARY_DIR}/fuzz-${variant})
  set_tests_properties(fuzz-corpus:${variant} fuzz:${variant} PROPERTIES LABELS fuzz)
  set_tests_properties(fuzz:${variant} PROPERTIES DEPENDS fuzz-corpus:${variant})  # the corpus first, even with -j
endforeach()
