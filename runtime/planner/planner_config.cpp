// planInputFromConfig and predictRun (planner.h): what a training config fixes of a
// plan, so that zerolab-plan --config, the GUI's forecast and outlines, the stored
// prediction and the ledger test plan the same run.
#include "runtime/planner/planner.h"

namespace zerolab {

PlanInput planInputFromConfig(const TrainConfig& c) {
    PlanInput in;
    in.params = 0;
    in.shape = c.model.shape;
    in.seq_len = c.model.seq_len;
    in.micro_batch = c.batch.micro_batch;
    in.recompute = c.model.recompute;
    in.world = c.batch.world;
    in.stage = c.zero.stage;
    in.precision = c.precision;
    in.grad_accum_fp32 = c.grad_accum_fp32;
    in.reduce_bucket_elements = c.zero.reduce_bucket_size;
    in.allgather_bucket_elements = c.zero.allgather_bucket_size;
    in.grad_accumulation = c.batch.grad_accum;
    in.overlap_comm = c.zero.overlap_comm;
    in.reduce_scatter = c.zero.reduce_scatter;
    in.allgather_partitions = c.zero.allgather_partitions;
    in.offload_optimizer = c.zero.offload.optimizer;
    in.offload_param = c.zero.offload.param;
    in.quantized_weights = c.zero.quantized_weights;
    in.hpz_partition_size = c.zero.hpz_partition_size;
    in.quantized_gradients = c.zero.quantized_gradients;
    in.ranks_per_host = c.run.ranks_per_host;
    return in;
}

StagePlan predictRun(const TrainConfig& config) {
    const PlanInput in = planInputFromConfig(config);
    return plan(in).stages.at(static_cast<std::size_t>(in.stage));
}

} // namespace zerolab
