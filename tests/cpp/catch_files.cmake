# Three ctest entries per Catch2 program, not one per test case or per file: a start is the cost. The wasm
# suites run under Node, where each start parses the 3.6 MB program and compiles its wasm again (~0.33
# CPU-s; 44 per-file entries made a third of that stage), and a start under ASan costs ~0.04 CPU-s (287
# per-case entries, 11 CPU-s). The entries run the cases of the slowest file (test_train.cpp, through
# Catch2's filename tags: -# "[#test_train]"), of the next slowest files together, and every other case
# ("~[#test_train]~[#test_mha]..."): between them they run every case the program holds, by construction
# (a TEST_CASE written in a header, too). Three, not two: with two, ctest -j2 ended the sanitizer suites on
# one 33 s entry with the other core idle (a clean run's last stage before fuzz); the slow files measured
# under ASan, one file at a time (s, scalar / SIMD kernels): test_train 0.9 / 12.9 (its [long] cases only
# in the SIMD suite there), test_attention 5.9 / 3.2, test_mha 5.2 / 2.4, test_gqa 4.0 / 1.5, test_errors
# 2.7 / 0.8, every other file together 8 / 7. A failure prints Catch2's own report, which names the file
# and line of the assertion and what differs. scripts/test.sh counts the test cases from Catch2's
# summaries, not the entries.
#
# attn_add_catch_tests(TARGET PREFIX [EXCLUDE SPEC] FIRST first_source NEXT sources...): entries
# PREFIX:<stem of FIRST>, PREFIX:<stems of NEXT joined by +> and "PREFIX:every other file", labelled
# PREFIX; SPEC (e.g. "~[long]") is left out of all three.
function(attn_add_catch_tests target prefix)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "EXCLUDE;FIRST" "NEXT")
  # --warn NoTests: an entry whose filter matches no test case fails instead of passing empty.
  set(options "-#" --warn NoTests --use-colour no)
  get_filename_component(first ${arg_FIRST} NAME_WE)
  set(next_names "")
  set(next_spec "")   # "[#a]SPEC,[#b]SPEC": Catch2 reads "," as "or", so the exclusion goes with each
  set(rest_spec "~[#${first}]")
  foreach(source ${arg_NEXT})
    get_filename_component(stem ${source} NAME_WE)
    list(APPEND next_names ${stem})
    list(APPEND next_spec "[#${stem}]${arg_EXCLUDE}")
    string(APPEND rest_spec "~[#${stem}]")
  endforeach()
  string(REPLACE ";" "+" next_name "${next_names}")
  string(REPLACE ";" "," next_spec "${next_spec}")
  add_test(NAME ${prefix}:${first} COMMAND ${target} "[#${first}]${arg_EXCLUDE}" ${options})
  add_test(NAME ${prefix}:${next_name} COMMAND ${target} "${next_spec}" ${options})
  add_test(NAME "${prefix}:every other file" COMMAND ${target} "${rest_spec}${arg_EXCLUDE}" ${options})
  set_tests_properties(${prefix}:${first} ${prefix}:${next_name} "${prefix}:every other file" PROPERTIES LABELS ${prefix})
  # The slow entries get high costs: ctest -j starts them first (the training run to 99 % first) instead
  # of ending on one of them with a core idle, even on a first run without timings.
  set_tests_properties(${prefix}:${first} PROPERTIES COST 1000)
  set_tests_properties(${prefix}:${next_name} PROPERTIES COST 900)
endfunction()
