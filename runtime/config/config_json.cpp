// The resolved config written back as DeepSpeed-shaped JSON, every default filled
// in (what --check-config prints and the run line stores), and the enum names.
#include "runtime/config/config.h"
#include "runtime/config/config_monitors_parse.h"
#include "runtime/model/family.h"

namespace zerolab {

std::string_view toString(OptimizerType t) {
    return t == OptimizerType::Adam ? "Adam" : "AdamW";
}

std::string_view toString(SchedulerType t) {
    switch (t) {
    case SchedulerType::WarmupLR:
        return "WarmupLR";
    case SchedulerType::WarmupDecayLR:
        return "WarmupDecayLR";
    case SchedulerType::WarmupCosineLR:
        return "WarmupCosineLR";
    case SchedulerType::None:
        break;
    }
    return "None";
}

std::string_view toString(WarmupType t) {
    return t == WarmupType::Log ? "log" : "linear";
}

std::string_view toString(Precision p) {
    return p == Precision::Fp32 ? "fp32" : "bf16";
}

std::string_view toString(DataType t) {
    switch (t) {
    case DataType::Text:
        return "text";
    case DataType::Llmc:
        return "llmc";
    case DataType::Synthetic:
        break;
    }
    return "synthetic";
}

std::string_view toString(Device d) {
    return d == Device::Cpu ? "cpu" : "cuda";
}

std::string_view toString(OnStall s) {
    return s == OnStall::Kill ? "kill" : "flag";
}

std::string_view toString(CheckpointErrorPolicy p) {
    return p == CheckpointErrorPolicy::Continue ? "continue" : "stop";
}

namespace {

nlohmann::json schedulerParams(const SchedulerConfig& s) {
    nlohmann::json p;
    p["warmup_num_steps"] = s.warmup_num_steps;
    p["warmup_type"] = toString(s.warmup_type);
    if (s.type == SchedulerType::WarmupCosineLR) {
        p["warmup_min_ratio"] = s.warmup_min_ratio;
        p["cos_min_ratio"] = s.cos_min_ratio;
    } else {
        p["warmup_min_lr"] = s.warmup_min_lr;
        p["warmup_max_lr"] = s.warmup_max_lr;
    }
    if (s.type != SchedulerType::WarmupLR)
        p["total_num_steps"] = s.total_num_steps;
    return p;
}

} // namespace

nlohmann::json toJson(const TrainConfig& c) {
    nlohmann::json j;
    j["train_batch_size"] = c.batch.train_batch_size;
    j["train_micro_batch_size_per_gpu"] = c.batch.micro_batch;
    j["gradient_accumulation_steps"] = c.batch.grad_accum;

    const OptimizerConfig& o = c.optimizer;
    j["optimizer"] = {{"type", toString(o.type)},
                      {"params",
                       {{"lr", o.lr},
                        {"betas", {o.beta1, o.beta2}},
                        {"eps", o.eps},
                        {"weight_decay", o.weight_decay},
                        {"adam_w_mode", o.decoupled_weight_decay}}}};
    if (c.scheduler.type != SchedulerType::None)
        j["scheduler"] = {{"type", toString(c.scheduler.type)},
                          {"params", schedulerParams(c.scheduler)}};
    j["gradient_clipping"] = c.gradient_clipping;
    j["bf16"] = {{"enabled", c.precision == Precision::Bf16Mixed}};
    if (c.grad_accum_fp32)
        j["data_types"] = {{"grad_accum_dtype", "fp32"}};

    const ZeroConfig& z = c.zero;
    j["zero_optimization"] = {{"stage", z.stage},
                              {"allgather_partitions", z.allgather_partitions},
                              {"reduce_scatter", z.reduce_scatter},
                              {"overlap_comm", z.overlap_comm},
                              {"contiguous_gradients", z.contiguous_gradients},
                              {"reduce_bucket_size", z.reduce_bucket_size},
                              {"allgather_bucket_size", z.allgather_bucket_size}};
    if (z.quantized_weights || z.hpz_partition_size != 1 || z.quantized_gradients) {
        j["zero_optimization"]["zero_quantized_weights"] = z.quantized_weights;
        j["zero_optimization"]["zero_hpz_partition_size"] = z.hpz_partition_size;
        j["zero_optimization"]["zero_quantized_gradients"] = z.quantized_gradients;
    }
    addOffloadJson(z.offload, j["zero_optimization"]);
    j["steps_per_print"] = c.steps_per_print;
    j["wall_clock_breakdown"] = c.wall_clock_breakdown;
    j.update(monitorsJson(c.monitors));

    const ModelConfig& m = c.model;
    nlohmann::json model = {{"n_layer", m.shape.n_layer},
                            {"n_head", m.shape.n_head},
                            {"n_embd", m.shape.n_embd},
                            {"seq_len", m.seq_len},
                            {"vocab_size", m.shape.vocab_size},
                            {"padded_vocab_size", m.shape.padded_vocab_size},
                            {"recompute", recomputeName(m.recompute)},
                            {"family", familyOf(m.shape).name},
                            {"attention", attentionKernelName(m.shape.attention)}};
    if (m.shape.family == Family::Llama) {
        // Every key that decides a Llama model, as config_model.cpp reads them back (with a
        // preset or a file they repeat its values; rope_scaling comes only from those).
        model["n_kv_head"] = m.shape.kvHeads();
        model["head_dim"] = m.shape.headDim();
        model["intermediate_size"] = m.shape.ffn_dim;
        model["tie_word_embeddings"] = m.shape.tied_head;
        model["qkv_bias"] = m.shape.qkv_bias;
        model["rope_theta"] = m.shape.rope_theta;
        model["rms_norm_eps"] = m.shape.norm_eps;
    }
    if (!m.preset.empty())
        model["preset"] = m.preset;
    if (!m.init_from.empty())
        model["init_from"] = m.init_from;
    if (!m.hf_config.empty())
        model["hf_config"] = m.hf_config;
    j["model"] = model;

    j["data"] = {{"type", toString(c.data.type)}};
    if (!c.data.path.empty())
        j["data"]["path"] = c.data.path;

    const RunConfig& r = c.run;
    j["run"] = {{"steps", r.steps},
                {"seed", r.seed},
                {"device", toString(r.device)},
                {"log_every", r.log_every},
                {"checkpoint_every", r.checkpoint_every},
                {"checkpoint_dir", r.checkpoint_dir},
                {"on_checkpoint_error", toString(r.on_checkpoint_error)},
                {"threads", r.threads},
                {"timeline_every", r.timeline_every},
                {"collective_timeout_s", r.collective_timeout_s},
                {"on_stall", toString(r.on_stall)}};
    if (r.ranks_per_host > 0)
        j["run"]["ranks_per_host"] = r.ranks_per_host;
    return j;
}

} // namespace zerolab
