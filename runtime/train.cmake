# zerolab-train: one process per rank (mpirun -np N zerolab-train ...). It links no
# CUDA: its CUDA backend is the module in cuda.cmake, loaded for run.device "cuda".
add_executable(zerolab-train ${CMAKE_CURRENT_LIST_DIR}/train_main.cpp
                             ${CMAKE_CURRENT_LIST_DIR}/train_backend.cpp)
target_link_libraries(zerolab-train PRIVATE zerolab_runtime CLI11::CLI11 ${CMAKE_DL_LIBS})
