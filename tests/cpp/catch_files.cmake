# One ctest entry per test file (not per test case) for a Catch2 program whose start is the cost:
# the wasm suites run under Node, and each start compiles the whole module again (~0.35 s, 220 times
# made two thirds of that stage). Each entry runs the cases of one source file through Catch2's
# filename tags (-# "[#test_train]"), so a failure still prints Catch2's own report of what differs.
# scripts/test.sh counts the test cases from Catch2's summaries, not the entries.
#
# attn_add_catch_file_tests(TARGET PREFIX SOURCES...): entries PREFIX:<file stem> labelled PREFIX,
# plus PREFIX:every case in a file entry, which fails when the program holds a case that no entry
# runs (a TEST_CASE written in a header, say), so no case can be skipped silently.
function(attn_add_catch_file_tests target prefix)
  set(tags "")
  foreach(source ${ARGN})
    # Files without test cases (main.cpp, the float64 reference) get no entry: --warn NoTests would fail it.
    file(STRINGS ${CMAKE_SOURCE_DIR}/${source} cases REGEX "^[ \t]*TEST_CASE")
    if(NOT cases)
      continue()
    endif()
    get_filename_component(stem ${source} NAME_WE)
    add_test(NAME ${prefix}:${stem} COMMAND ${target} "-#" "[#${stem}]" --warn NoTests --use-colour no)
    set_tests_properties(${prefix}:${stem} PROPERTIES LABELS ${prefix})
    if(NOT tags)
      # The first file is the slowest (ATTN_TEST_SOURCES lists test_train.cpp first): a high cost makes
      # ctest -j start it before the others of every program, even on a first run without timings.
      set_tests_properties(${prefix}:${stem} PROPERTIES COST 1000)
    endif()
    list(APPEND tags "[#${stem}]")
  endforeach()
  # Catch2 reads "a,b" as "a or b": every case of every file entry, to be compared with all cases.
  string(REPLACE ";" "," any_file "${tags}")
  add_test(NAME "${prefix}:every case in a file entry"
           COMMAND ${CMAKE_COMMAND} -DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR} -DPROGRAM=$<TARGET_FILE:${target}>
                   -DFILTER=${any_file} -P ${CMAKE_SOURCE_DIR}/tests/cpp/check_file_entries.cmake)
  set_tests_properties("${prefix}:every case in a file entry" PROPERTIES LABELS ${prefix})
endfunction()
