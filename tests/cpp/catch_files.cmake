# Two ctest entries per Catch2 program, not one per test case or per file: a start is the cost. The wasm
# suites run under Node, where each start parses the 3.6 MB program and compiles its wasm again (~0.33
# CPU-s; 44 per-file entries made a third of that stage), and a start under ASan costs ~0.04 CPU-s (287
# per-case entries, 11 CPU-s). The first entry runs the cases of the slowest file (test_train.cpp, through
# Catch2's filename tags: -# "[#test_train]"), the second every other case ("~[#test_train]"): between
# them they run every case the program holds, by construction (a TEST_CASE written in a header, too). A
# failure prints Catch2's own report, which names the file and line of the assertion and what differs.
# scripts/test.sh counts the test cases from Catch2's summaries, not the entries.
#
# attn_add_catch_tests(TARGET PREFIX FIRST_SOURCE [EXCLUDE SPEC]): entries PREFIX:<stem of FIRST_SOURCE>
# and "PREFIX:every other file", labelled PREFIX; SPEC (e.g. "~[long]") is left out of both.
function(attn_add_catch_tests target prefix first_source)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "EXCLUDE" "")
  get_filename_component(stem ${first_source} NAME_WE)
  # --warn NoTests: an entry whose filter matches no test case fails instead of passing empty.
  set(options "-#" --warn NoTests --use-colour no)
  add_test(NAME ${prefix}:${stem} COMMAND ${target} "[#${stem}]${arg_EXCLUDE}" ${options})
  add_test(NAME "${prefix}:every other file" COMMAND ${target} "~[#${stem}]${arg_EXCLUDE}" ${options})
  set_tests_properties(${prefix}:${stem} "${prefix}:every other file" PROPERTIES LABELS ${prefix})
  # The slowest entry of each program (a training run to 99 %) gets a high cost: ctest -j starts it first
  # instead of ending on it with one core idle, even on a first run without timings.
  set_tests_properties(${prefix}:${stem} PROPERTIES COST 1000)
endfunction()
