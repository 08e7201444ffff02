# The GPT-2 model part of runtime/: layouts in zerolab_core (the planner and the
# GUI size memory with them, no MPI) and the llm.c model files (the config reads their
# header), the model itself in zerolab_runtime.
target_sources(zerolab_core PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/param_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/activation_layout.cpp
  ${CMAKE_CURRENT_LIST_DIR}/llmc_model_file.cpp)
target_sources(zerolab_runtime PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/gpt2.cpp
  ${CMAKE_CURRENT_LIST_DIR}/gpt2_init.cpp)
