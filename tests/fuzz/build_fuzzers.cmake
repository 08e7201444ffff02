# cmake -P script run by the fuzz_build test: configures the fuzz sub-build (the source
# tree with ZEROLAB_FUZZ_BUILD=ON, clang) in BINARY and builds its fuzz_* executables.
# -D SOURCE=<repo> BINARY=<build/fuzz> CLANGXX=<clang++> CLANG=<clang> [LAUNCHER=ccache]
foreach(var SOURCE BINARY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "build_fuzzers.cmake: -D${var}= is required")
  endif()
endforeach()
if(NOT CLANGXX OR NOT CLANG)
  message(FATAL_ERROR "fuzz: clang/clang++ not found; scripts/install-deps installs them "
                      "(Debian 12: clang libclang-rt-14-dev)")
endif()
set(args -S ${SOURCE} -B ${BINARY} -G Ninja -DZEROLAB_FUZZ_BUILD=ON
         -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=${CLANGXX}
         -DCMAKE_C_COMPILER=${CLANG})
# libFuzzer's advice: -O1, and line tables are all a sanitizer's stack trace needs. Full
# debug information at -O2 is most of the sub-build's time (issue 39 item 15).
foreach(lang C CXX)
  list(APPEND args "-DCMAKE_${lang}_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")
endforeach()
if(LAUNCHER)
  list(APPEND args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER} -DCMAKE_C_COMPILER_LAUNCHER=${LAUNCHER})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz: configuring ${BINARY} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY} -j2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fuzz: building the fuzzers in ${BINARY} failed (${rc})")
endif()
