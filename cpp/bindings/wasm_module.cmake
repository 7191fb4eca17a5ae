# add_attn_module(NAME CORE): the Embind module attention_NAME.mjs + .wasm, linked against one
# variant of the core; add_attn_labs_module(NAME LABS): the labs' module attention_labs_NAME.mjs +
# .wasm, linked against that variant's labs library (and, through it, the core), which the page loads
# only for a chapter or panel that uses a lab (engine/labs.js). Output lands in
# ${CMAKE_BINARY_DIR}/wasm; scripts/build.sh copies it.
# The record reader runs once per call: optimised for size, as the other bindings' code
# (ATTN_WASM_COLD_SOURCES in CMakeLists.txt).
set_source_files_properties(${PROJECT_SOURCE_DIR}/cpp/bindings/record.cpp PROPERTIES COMPILE_OPTIONS "-Oz;-flto")
set(ATTN_BINDINGS_SHARED call.cpp heap_count.cpp layers.cpp)
list(TRANSFORM ATTN_BINDINGS_SHARED PREPEND ${PROJECT_SOURCE_DIR}/cpp/bindings/)
# The shared bindings that are cold (-Oz -flto) and name no kernel set: compiled once, without -msimd128,
# as the core's cold files are (attn_simd128_copies in CMakeLists.txt gives the SIMD modules their copies).
set(ATTN_BINDINGS_COLD cpp/bindings/convert.cpp cpp/bindings/json.cpp cpp/bindings/record.cpp)
add_library(attn_bindings_cold OBJECT ${ATTN_BINDINGS_COLD})
target_include_directories(attn_bindings_cold PRIVATE ${PROJECT_SOURCE_DIR}/cpp)
target_compile_definitions(attn_bindings_cold PRIVATE ATTN_KERNEL_SET_AGNOSTIC)
attn_simd128_copies(ATTN_BINDINGS_COLD_SIMD128 attn_bindings_cold ${ATTN_BINDINGS_COLD})
# The labs module's own bindings (cold: -Oz -flto, ATTN_WASM_COLD_SOURCES) name no kernel set: compiled once
# for both variants without -msimd128, as the labs' cold files are (attn_labs_agnostic, CMakeLists.txt).
add_library(attn_labs_bindings OBJECT ${PROJECT_SOURCE_DIR}/cpp/bindings/training.cpp
  ${PROJECT_SOURCE_DIR}/cpp/bindings/kv_cache.cpp ${PROJECT_SOURCE_DIR}/cpp/bindings/efficient.cpp
  ${PROJECT_SOURCE_DIR}/cpp/bindings/lesson_examples.cpp)
target_include_directories(attn_labs_bindings PRIVATE ${PROJECT_SOURCE_DIR}/cpp)
target_compile_definitions(attn_labs_bindings PRIVATE ATTN_KERNEL_SET_AGNOSTIC)
function(add_attn_module name core)
  add_attn_wasm(attention_${name} createAttentionModule ${name} ${core} ${PROJECT_SOURCE_DIR}/cpp/bindings/embind.cpp)
endfunction()
function(add_attn_labs_module name labs)
  add_attn_wasm(attention_labs_${name} createAttentionLabsModule ${name} ${labs} $<TARGET_OBJECTS:attn_labs_bindings>)
endfunction()

# add_attn_wasm(TARGET EXPORT_NAME VARIANT LIBRARY BINDINGS...): one Embind module of BINDINGS and the
# shared ones. The shared ones are compiled once per VARIANT (attn_bindings_VARIANT, with the core's
# flags), for both of its modules: compiled per module they were twelve compiles too many; the objects
# and their place on the link line are the same, and so are the modules. The cold ones are compiled once
# for both variants (attn_bindings_cold) and follow them on the link line.
function(add_attn_wasm target export_name variant library)
  if(NOT TARGET attn_bindings_${variant})
    add_library(attn_bindings_${variant} OBJECT ${ATTN_BINDINGS_SHARED})
    target_link_libraries(attn_bindings_${variant} PRIVATE attn_core_wasm_${variant})
  endif()
  set(cold $<TARGET_OBJECTS:attn_bindings_cold>)
  if(variant STREQUAL "simd")
    set(cold ${ATTN_BINDINGS_COLD_SIMD128})
  endif()
  add_executable(${target} ${ARGN} $<TARGET_OBJECTS:attn_bindings_${variant}> ${cold})
  target_link_libraries(${target} PRIVATE ${library})
  set_target_properties(${target} PROPERTIES SUFFIX ".mjs" RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/wasm)
  target_link_options(${target} PRIVATE
    # emmalloc: the smaller allocator (the engine allocates few, large blocks; measured no
    # slower here). stackSave/stackRestore: native.js restores the stack after every call.
    # DYNAMIC_EXECUTION=0: Embind's glue builds no functions from strings, so course pages whose
    # Content-Security-Policy has no 'unsafe-eval' can run the engine, and a first load compiles less.
    # -flto: link-time optimisation of the cold sources' bitcode (CMakeLists.txt, ATTN_WASM_COLD_SOURCES).
    --bind ${ATTN_EH_FLAG} -O3 -flto -sMALLOC=emmalloc -sEXPORTED_RUNTIME_METHODS=stackSave,stackRestore
    -sMODULARIZE=1 -sEXPORT_ES6=1 -sEXPORT_NAME=${export_name}
    # No Node environment in the loader: in Node the engine hands it the compiled module (engine/load.js's
    # instantiateWasm) and node_pre.js reads the wasm for a direct import, so the loader's own Node code
    # (reading files, quitting the process) was never used, and it added uncaughtException and
    # unhandledRejection listeners that re-throw: an application's own handler could no longer keep its
    # process alive (tests/js/node_host.test.mjs). 347 B gzipped less of the first view's loader.
    -sENVIRONMENT=web,worker -sFILESYSTEM=0 -sDYNAMIC_EXECUTION=0
    -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0
    # A smaller loader (486 B gzipped less): it reads only the options engine/attention.js and
    # node_pre.js give it, and decodes strings with TextDecoder alone (every target has it).
    -sINCOMING_MODULE_JS_API=locateFile,instantiateWasm,wasmBinary -sTEXTDECODER=2
    # 2 GB, not 4: emmalloc (3.1.6) checks whether a block fits by adding its size to the region's
    # address, which wraps past 4 GiB, so with the memory full near 4 GiB it handed out a block
    # reaching past the end (a 576 MB call then trapped "memory access out of bounds" and left its
    # bytes counted). Below 2 GiB every address plus every size that can fit stays below 2^32
    # (heap_count.cpp refuses larger sizes), and no pointer is ever negative in 32-bit JavaScript.
    -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=16MB -sMAXIMUM_MEMORY=2GB
    --pre-js ${PROJECT_SOURCE_DIR}/cpp/bindings/node_pre.js)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${PROJECT_SOURCE_DIR}/cpp/bindings/node_pre.js)
  # A profile of the released module names its functions only by index: this keeps their names
  # (a name section; the code itself is the same -O3 build).
  if(ATTN_WASM_PROFILING)
    target_link_options(${target} PRIVATE --profiling-funcs)
  endif()
endfunction()
