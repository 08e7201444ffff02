# Data loaders (issue 3): synthetic grammar, text bytes, llm.c shards. No MPI.
target_sources(zerolab_runtime PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/data_loader.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_mapped_file.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_text.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_llmc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_synthetic_grammar.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_synthetic_english.cpp
  ${CMAKE_CURRENT_LIST_DIR}/data_synthetic.cpp)
