# Convenience targets that build zerolab-train and run the scripted benchmarks (never
# part of `all` or of the test run): `ninja runtime_bench` (against the PyTorch peer),
# `ninja stage_bench` (ZeRO stages, N = 2 and 4, with and without overlap_comm),
# `ninja recompute_bench` (each recompute mode's step time against none),
# `ninja timeline_bench` (the step timeline's recording cost on nano) and `ninja sweep_bench`
# (issue 15: a guided sweep on micro).
foreach(script runtime_bench stage_bench recompute_bench timeline_bench sweep_bench)
  add_custom_target(${script}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/${script} --bin $<TARGET_FILE_DIR:zerolab-train>
    DEPENDS zerolab-train zerolab-sweep
    USES_TERMINAL
    COMMENT "bench/${script}")
endforeach()
