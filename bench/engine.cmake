# comm_bench: nccl-tests style table of the MPI communicator against raw MPI
# (mpirun -np N bin/comm_bench). Never part of the test run.
add_executable(comm_bench ${CMAKE_CURRENT_SOURCE_DIR}/comm_bench.cpp)
target_link_libraries(comm_bench PRIVATE zerolab_comm)
