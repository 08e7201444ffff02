// DeepSpeed's flops profiler printout (print_model_profile) from zerolab's own FLOP
// count (runtime/model/model_flops.h, module by module) and the step's measured
// forward, backward and step latencies: summary, aggregated profile per depth and the
// detailed module tree.
#pragma once

#include "runtime/config/config_monitors.h"
#include "runtime/model/model_shape.h"

#include <string>

namespace zerolab {

struct FlopsProfileInput {
    ModelShape shape;
    int seq_len = 0;     // T
    int micro_batch = 0; // per rank
    int grad_accum = 1;  // forward passes per optimizer step on a rank
    int world = 1;
    long long step = 0; // the profiled optimizer step
    double fwd_ms = 0;  // rank 0's latencies of that step (all its micro-steps)
    double bwd_ms = 0;
    double step_ms = 0; // the optimizer step
};

// Forward FLOPs per GPU of the profiled step: moduleForwardFlops summed, times the
// tokens a rank runs forward in one optimizer step. 3x this is modelFlopsPerToken's
// count for those tokens.
double profiledForwardFlops(const FlopsProfileInput& in);

// The printout, from "-------------------------- DeepSpeed Flops Profiler" to the
// closing rule, for the config's module_depth, top_modules and detailed.
std::string flopsProfile(const FlopsProfileInput& in, const FlopsProfilerConfig& config);

} // namespace zerolab
