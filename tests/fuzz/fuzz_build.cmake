# The fuzz sub-build, included by the top-level CMakeLists.txt when ZEROLAB_FUZZ_BUILD is
# ON (the fuzz_build test configures it with clang in build/fuzz). It builds the real
# reader libraries, instrumented (-fsanitize=fuzzer-no-link,address,undefined), and one
# libFuzzer executable per reader, and nothing else: no MPI, BLAS, kernels, Qt or tests.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "ZEROLAB_FUZZ_BUILD needs clang (libFuzzer), got "
                      "${CMAKE_CXX_COMPILER_ID}: configure with -DCMAKE_CXX_COMPILER=clang++")
endif()

# UBSan findings abort (a crash libFuzzer reports) instead of printing and going on.
set(sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
add_compile_options(${sanitizers} -fsanitize=fuzzer-no-link -Wall -Wextra -Wno-unused-parameter)
add_link_options(${sanitizers})

find_package(SQLite3 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED) # storage/CMakeLists.txt names zerolab-runs' CLI11 (not built)

# The libraries' own CMakeLists.txt; EXCLUDE_FROM_ALL: only what a fuzzer links is built.
foreach(dir storage runtime/text runtime/files runtime/model runtime/config runtime/data
            runtime/launch runtime/engine runtime/planner runtime/lab runtime/tune)
  add_subdirectory(${dir} EXCLUDE_FROM_ALL)
endforeach()

# zerolab_fuzz_<name>(LIBS...): fuzz_<name> from tests/fuzz/fuzz_<name>.cpp into bin/.
function(zerolab_add_fuzzer name)
  add_executable(fuzz_${name} ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_${name}.cpp)
  target_include_directories(fuzz_${name} PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(fuzz_${name} PRIVATE ${ARGN})
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  set_target_properties(fuzz_${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
endfunction()

zerolab_add_fuzzer(config zerolab_config)
zerolab_add_fuzzer(checkpoint_meta zerolab_checkpoint_files)
zerolab_add_fuzzer(checkpoint_shard zerolab_checkpoint_files)
zerolab_add_fuzzer(llmc_model zerolab_model)
zerolab_add_fuzzer(safetensors zerolab_model)
zerolab_add_fuzzer(llmc_shard zerolab_data)
zerolab_add_fuzzer(store_open zerolab_storage)
zerolab_add_fuzzer(metric_line zerolab_storage_export)
zerolab_add_fuzzer(launch_failure zerolab_launch)
zerolab_add_fuzzer(lesson zerolab_lab)
zerolab_add_fuzzer(sweep zerolab_tune)
zerolab_add_fuzzer(store_contents zerolab_storage_export)
