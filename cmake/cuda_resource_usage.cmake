# Run by kernels/cuda/CMakeLists.txt's resource-usage commands (cmake -P): compiles one
# .cu file to an sm_90 cubin with ptxas' resource report (registers, spills, stack,
# shared memory per kernel) and writes that report to REPORT, for
# tests/kernels_cuda/check_resource_usage.py. Arguments: NVCC, SOURCE_DIR, CU, CUBIN,
# REPORT, ARCH.
execute_process(
  COMMAND ${NVCC} -std=c++20 -I${SOURCE_DIR} -arch=${ARCH} -cubin --resource-usage -o ${CUBIN}
          ${CU}
  OUTPUT_VARIABLE out
  ERROR_VARIABLE out
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc --resource-usage of ${CU} for ${ARCH} failed (${rc}):\n${out}")
endif()
file(WRITE ${REPORT} "${out}")
