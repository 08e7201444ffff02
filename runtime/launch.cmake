# The launch part of runtime/: LaunchSpec -> argv/env and the parser of mpirun/srun
# failure messages. In zerolab_core (no MPI, no Qt) so that the GUI links it.
target_sources(zerolab_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/launch_spec.cpp
  ${CMAKE_CURRENT_LIST_DIR}/launch_failure.cpp)
