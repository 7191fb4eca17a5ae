# The libFuzzer drivers of the core, in the sanitizer build (clang): one per kernel set, since
# both define the same attn:: symbols. ctest runs each as two tests labelled "fuzz": the corpus
# of past failures replayed once, then a fuzzing run bounded by ATTN_FUZZ_SECONDS.
set(ATTN_FUZZ_SECONDS 60 CACHE STRING "Seconds of each bounded fuzzing run")
foreach(variant native_simde native_scalar)
  set(target fuzz_attention_${variant})
  add_executable(${target} tests/fuzz/fuzz_attention.cpp tests/fuzz/fuzz_case.cpp tests/cpp/reference.cpp)
  target_include_directories(${target} PRIVATE tests/cpp tests/fuzz)
  target_compile_options(${target} PRIVATE -fsanitize=fuzzer)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${target} PRIVATE attn_core_${variant})
  add_test(NAME fuzz-corpus:${variant}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh replay $<TARGET_FILE:${target}> ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus)
  add_test(NAME fuzz:${variant}
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/run.sh fuzz $<TARGET_FILE:${target}> ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus
                   ${ATTN_FUZZ_SECONDS} ${CMAKE_BINARY_DIR}/fuzz-${variant})
  set_tests_properties(fuzz-corpus:${variant} fuzz:${variant} PROPERTIES LABELS fuzz)
endforeach()
