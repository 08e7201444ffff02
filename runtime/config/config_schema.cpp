// Known keys per config section and the edit-distance "did you mean". The ignored
// lists name DeepSpeed settings that zerolab accepts but does not implement, so
// that a real DeepSpeed config loads with warnings instead of failing.
#include "runtime/config/config_schema.h"

#include <algorithm>
#include <array>
#include <vector>

namespace zerolab {

namespace {

constexpr std::array<std::string_view, 23> kTopLevelKeys = {
    "activation_checkpointing",
    "train_batch_size",
    "train_micro_batch_size_per_gpu",
    "gradient_accumulation_steps",
    "optimizer",
    "scheduler",
    "gradient_clipping",
    "bf16",
    "bfloat16",
    "fp16",
    "data_types",
    "zero_optimization",
    "steps_per_print",
    "wall_clock_breakdown",
    // DeepSpeed's monitors (config_monitors.cpp; wandb and comet warn what to use instead)
    "tensorboard",
    "csv_monitor",
    "comms_logger",
    "flops_profiler",
    "wandb",
    "comet",
    "model",
    "data",
    "run",
};
constexpr std::array<std::string_view, 35> kTopLevelIgnored = {
    "amp",
    "aio",
    "autotuning",
    "checkpoint",
    "communication_data_type",
    "compile",
    "compression_training",
    "curriculum_learning",
    "data_efficiency",
    "disable_allgather",
    "dump_state",
    "eigenvalue",
    "elasticity",
    "gradient_predivide_factor",
    "graph_harvesting",
    "hybrid_engine",
    "load_universal_checkpoint",
    "memory_breakdown",
    "monitor_config",
    "nebula",
    "pipeline",
    "prescale_gradients",
    "progressive_layer_drop",
    "quantize_training",
    "seq_parallel_communication_data_type",
    "sparse_attention",
    "sparse_gradients",
    "tensor_parallel",
    "timers",
    "torch_autocast",
    "use_data_before_expert_parallelism",
    "use_node_local_storage",
    "weight_quantization",
    "zero_allow_untested_optimizer",
    "zero_force_ds_cpu_optimizer",
};

constexpr std::array<std::string_view, 2> kOptimizerKeys = {"type", "params"};
constexpr std::array<std::string_view, 1> kOptimizerIgnored = {"legacy_fusion"};
constexpr std::array<std::string_view, 7> kOptimizerParamsKeys = {
    "lr", "betas", "eps", "weight_decay", "adam_w_mode", "bias_correction", "amsgrad",
};
constexpr std::array<std::string_view, 5> kOptimizerParamsIgnored = {
    "torch_adam", "fused", "foreach", "capturable", "set_grad_none",
};

constexpr std::array<std::string_view, 2> kSchedulerKeys = {"type", "params"};

constexpr std::array<std::string_view, 1> kEnabledKey = {"enabled"};
constexpr std::array<std::string_view, 4> kBf16Ignored = {
    "immediate_grad_update",
    "check_grad_overflow",
    "auto_cast",
    "bf16_master_weights_and_grads",
};
constexpr std::array<std::string_view, 9> kFp16Ignored = {
    "auto_cast",
    "loss_scale",
    "initial_scale_power",
    "loss_scale_window",
    "hysteresis",
    "consecutive_hysteresis",
    "min_loss_scale",
    "fp16_master_weights_and_grads",
    "type",
};

constexpr std::array<std::string_view, 1> kDataTypesKeys = {"grad_accum_dtype"};

constexpr std::array<std::string_view, 12> kZeroKeys = {
    "stage",
    "allgather_partitions",
    "reduce_scatter",
    "overlap_comm",
    "contiguous_gradients",
    "reduce_bucket_size",
    "allgather_bucket_size",
    "zero_quantized_weights",
    "zero_hpz_partition_size",
    "zero_quantized_gradients",
    "offload_optimizer", // forecast (config_monitors.cpp)
    "offload_param",
};
constexpr std::array<std::string_view, 34> kZeroIgnored = {
    "cpu_offload",
    "cpu_offload_params",
    "cpu_offload_use_pin_memory",
    "sub_group_size",
    "stage3_max_live_parameters",
    "stage3_max_reuse_distance",
    "stage3_prefetch_bucket_size",
    "stage3_param_persistence_threshold",
    "stage3_model_persistence_threshold",
    "stage3_gather_16bit_weights_on_model_save",
    "stage3_gather_fp16_weights_on_model_save",
    "stage3_module_granularity_threshold",
    "max_live_parameters",
    "max_reuse_distance",
    "prefetch_bucket_size",
    "param_persistence_threshold",
    "model_persistence_threshold",
    "gather_16bit_weights_on_model_save",
    "round_robin_gradients",
    "elastic_checkpoint",
    "load_from_fp32_weights",
    "ignore_unused_parameters",
    "legacy_stage1",
    "zero_quantized_nontrainable_weights",
    "zeropp_loco_param",
    "mics_shard_size",
    "mics_hierarchical_params_gather",
    "memory_efficient_linear",
    "pipeline_loading_checkpoint",
    "override_module_apply",
    "use_all_reduce_for_fetch_params",
    "use_multi_rank_bucket_allreduce",
    "log_trace_cache_warnings",
    "module_granularity_threshold",
};

constexpr std::array<std::string_view, 19> kModelKeys = {
    "preset",
    "n_layer",
    "n_head",
    "n_embd",
    "seq_len",
    "vocab_size",
    "padded_vocab_size",
    "init_from",
    "recompute",
    "attention",
    "family",
    "hf_config",
    // the Llama family's (config_model.cpp), refused for a GPT-2 shape
    "n_kv_head",
    "head_dim",
    "intermediate_size",
    "tie_word_embeddings",
    "qkv_bias",
    "rope_theta",
    "rms_norm_eps",
};
// DeepSpeed's activation_checkpointing keys (config_deepspeed.cpp maps or warns each).
constexpr std::array<std::string_view, 6> kActivationCheckpointingKeys = {
    "partition_activations",           "cpu_checkpointing",
    "contiguous_memory_optimization",  "number_checkpoints",
    "synchronize_checkpoint_boundary", "profile",
};
constexpr std::array<std::string_view, 2> kDataKeys = {"type", "path"};
constexpr std::array<std::string_view, 12> kRunKeys = {
    "steps",
    "seed",
    "device",
    "log_every",
    "checkpoint_every",
    "checkpoint_dir",
    "threads",
    "timeline_every",
    "collective_timeout_s",
    "on_stall",
    "on_checkpoint_error",
    "ranks_per_host",
};

} // namespace

const SectionSchema kTopLevelSchema{kTopLevelKeys, kTopLevelIgnored};
const SectionSchema kOptimizerSchema{kOptimizerKeys, kOptimizerIgnored};
const SectionSchema kOptimizerParamsSchema{kOptimizerParamsKeys, kOptimizerParamsIgnored};
const SectionSchema kSchedulerSchema{kSchedulerKeys, {}};
const SectionSchema kBf16Schema{kEnabledKey, kBf16Ignored};
const SectionSchema kFp16Schema{kEnabledKey, kFp16Ignored};
const SectionSchema kDataTypesSchema{kDataTypesKeys, {}};
const SectionSchema kZeroSchema{kZeroKeys, kZeroIgnored};
const SectionSchema kModelSchema{kModelKeys, {}};
const SectionSchema kActivationCheckpointingSchema{kActivationCheckpointingKeys, {}};
const SectionSchema kDataSchema{kDataKeys, {}};
const SectionSchema kRunSchema{kRunKeys, {}};

int editDistance(std::string_view a, std::string_view b) {
    std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = static_cast<int>(j);
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = static_cast<int>(i);
        for (std::size_t j = 1; j <= b.size(); ++j) {
            int substitute = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, substitute});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::optional<std::string_view> closestName(std::string_view word,
                                            std::span<const std::string_view> names) {
    const int limit = word.size() < 4 ? 1 : word.size() < 12 ? 2 : 3;
    std::optional<std::string_view> best;
    int best_distance = limit + 1;
    for (std::string_view name : names) {
        // The distance is at least the difference in length: a long key (a hostile
        // config's megabyte) is far from every name without comparing.
        const std::size_t gap =
            word.size() > name.size() ? word.size() - name.size() : name.size() - word.size();
        if (gap > static_cast<std::size_t>(limit))
            continue;
        int d = editDistance(word, name);
        if (d < best_distance) {
            best_distance = d;
            best = name;
        }
    }
    return best;
}

Message didYouMean(std::string_view word, std::span<const std::string_view> names) {
    auto name = closestName(word, names);
    if (!name)
        return Message();
    return Message(ZEROLAB_TR("ConfigCheck", " (did you mean \"%1\"?)"), {std::string(*name)});
}

void checkKeys(const nlohmann::json& obj, const std::string& path, const SectionSchema& schema,
               UnknownKeyPolicy policy, Diagnostics& diags) {
    auto contains = [](std::span<const std::string_view> list, const std::string& key) {
        return std::find(list.begin(), list.end(), key) != list.end();
    };
    for (const auto& [key, value] : obj.items()) {
        if (contains(schema.implemented, key))
            continue;
        std::string key_path = joinPath(path, key);
        if (contains(schema.ignored, key)) {
            diags.warning(key_path, Message(ZEROLAB_TR(
                                        "ConfigCheck",
                                        "DeepSpeed setting not implemented by zerolab; ignored")));
            continue;
        }
        if (policy == UnknownKeyPolicy::Error || closestName(key, schema.implemented))
            diags.error(key_path, Message(ZEROLAB_TR("ConfigCheck", "unknown key%1"),
                                          {didYouMean(key, schema.implemented)}));
        else
            diags.warning(key_path, Message(ZEROLAB_TR("ConfigCheck", "unknown key, not a setting "
                                                                      "zerolab knows; ignored")));
    }
}

} // namespace zerolab
