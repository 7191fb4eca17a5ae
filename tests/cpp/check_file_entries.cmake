# cmake -DEMULATOR=... -DPROGRAM=... -DFILTER="[#a],[#b]" -P check_file_entries.cmake
# Fails, naming them, when the Catch2 program holds test cases that the filename-tag filter of the
# per-file ctest entries (catch_files.cmake) does not select: those cases would never run.
function(list_cases out)
  execute_process(COMMAND ${EMULATOR} ${PROGRAM} ${ARGN} --list-test-names-only --use-colour no
                  OUTPUT_VARIABLE text RESULT_VARIABLE status)
  # --list-test-names-only exits with the number of cases listed, so only a crash is an error.
  if(status MATCHES "[^0-9]" OR status LESS 0)
    message(FATAL_ERROR "${PROGRAM} --list-test-names-only failed: ${status}\n${text}")
  endif()
  string(REPLACE ";" "\\;" text "${text}")
  string(REGEX REPLACE "\n$" "" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()

list_cases(all)
list_cases(selected "-#" "${FILTER}")
set(missing ${all})
list(REMOVE_ITEM missing ${selected})
list(LENGTH all n_all)
list(LENGTH selected n_selected)
if(missing OR NOT n_all EQUAL n_selected OR n_all EQUAL 0)
  string(REPLACE ";" "\n  " missing_lines "${missing}")
  message(FATAL_ERROR "${n_all} test cases in ${PROGRAM}, ${n_selected} in the per-file entries; not run by any entry:\n  ${missing_lines}")
endif()
message(STATUS "all ${n_all} test cases of ${PROGRAM} run in a per-file entry")
