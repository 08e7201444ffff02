# zerolab-train: one process per rank (mpirun -np N zerolab-train ...).
add_executable(zerolab-train ${CMAKE_CURRENT_LIST_DIR}/train_main.cpp)
target_link_libraries(zerolab-train PRIVATE zerolab_runtime CLI11::CLI11)
