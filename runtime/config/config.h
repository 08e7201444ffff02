// The training config: a DeepSpeed-style JSON (plus zerolab's own `model`, `data`
// and `run` sections) resolved into one struct with every default filled in.
// No MPI, no Qt: the runtime, the planner and the GUI all validate through here.
#pragma once

#include "runtime/config/config_monitors.h"
#include "runtime/model/model_shape.h"
#include "runtime/model/recompute.h"
#include "runtime/text/message.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

enum class OptimizerType { Adam, AdamW };
enum class SchedulerType { None, WarmupLR, WarmupDecayLR, WarmupCosineLR };
enum class WarmupType { Log, Linear };
enum class Precision { Fp32, Bf16Mixed };
enum class DataType { Synthetic, Text, Llmc };
enum class Device { Cpu, Cuda };
// What rank 0 does when a collective passes run.collective_timeout_s (docs/engine.md).
enum class OnStall { Kill, Flag };

// run.on_checkpoint_error: what a run does when writing a checkpoint fails (a full
// disk): continue (warn, try again at the next interval) or stop (status failed).
enum class CheckpointErrorPolicy { Continue, Stop };

// train_batch_size = micro_batch * grad_accum * world (DeepSpeed's rule), always
// consistent after parsing.
struct BatchConfig {
    int train_batch_size = 0; // "train_batch_size": samples per optimizer step, all ranks
    int micro_batch = 0;      // "train_micro_batch_size_per_gpu": samples per rank per micro-step
    int grad_accum = 1;       // "gradient_accumulation_steps"
    int world = 1;            // data-parallel ranks (--world, or decided by the three above)

    bool operator==(const BatchConfig&) const = default;
};

// "optimizer": {"type", "params": {lr, betas: [beta1, beta2], eps, weight_decay, adam_w_mode}}.
struct OptimizerConfig {
    OptimizerType type = OptimizerType::AdamW;
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    double weight_decay = 0.0;
    // Weight decay applied to the weights directly (AdamW) rather than added to the
    // gradient (L2). Always true for AdamW; for Adam it is DeepSpeed's `adam_w_mode`,
    // which defaults to true.
    bool decoupled_weight_decay = true;

    bool operator==(const OptimizerConfig&) const = default;
};

// "scheduler": {"type", "params": {...}} with DeepSpeed's parameter names. Which
// fields matter depends on type (see lrAt and docs/config.md).
struct SchedulerConfig {
    SchedulerType type = SchedulerType::None;
    double warmup_min_lr = 0.0;  // WarmupLR, WarmupDecayLR
    double warmup_max_lr = 1e-3; // WarmupLR, WarmupDecayLR
    int warmup_num_steps = 1000; // all three
    WarmupType warmup_type = WarmupType::Log;
    int total_num_steps = 0;       // WarmupDecayLR, WarmupCosineLR
    double warmup_min_ratio = 0.0; // WarmupCosineLR, a fraction of optimizer.lr
    double cos_min_ratio = 1e-4;   // WarmupCosineLR, a fraction of optimizer.lr

    bool operator==(const SchedulerConfig&) const = default;
};

// "zero_optimization". Bucket sizes are in elements, as DeepSpeed counts them.
struct ZeroConfig {
    int stage = 0;
    bool allgather_partitions = true;
    bool reduce_scatter = true;
    bool overlap_comm = false; // DeepSpeed's default is true for stage 3
    bool contiguous_gradients = true;
    std::int64_t reduce_bucket_size = 500'000'000;
    std::int64_t allgather_bucket_size = 500'000'000;
    OffloadConfig offload; // offload_optimizer, offload_param (config_monitors.h)
    // ZeRO++ (DeepSpeed's keys; stage 3 only, docs/config.md): int8 parameter all-gathers
    // (qwZ), a secondary parameter shard over groups of hpz_partition_size consecutive ranks
    // (hpZ; 1 is off), int4 gradients in a two-hop all-to-all (qgZ).
    bool quantized_weights = false;
    int hpz_partition_size = 1;
    bool quantized_gradients = false;

    bool operator==(const ZeroConfig&) const = default;
};

// "model": a preset, a custom shape, or the shape of an llm.c model file.
struct ModelConfig {
    std::string preset; // a modelPresets() name (model_shape.h), or empty for a custom shape
    ModelShape shape;   // shape.seq_len is the maximum context (llm.c's maxT)
    int seq_len = 0;    // T used for training, 1..shape.seq_len
    // Weights to start from, or empty: an llm.c fp32 model file, or Hugging Face
    // safetensors (".safetensors", or a sharded checkpoint's ".json" index) with its
    // config.json beside it; either decides the shape.
    std::string init_from;
    std::string hf_config; // a Hugging Face config.json that decides the shape, or empty
    // Activation recomputation (recompute.h): "none", "selective" or "full"; DeepSpeed's
    // activation_checkpointing section maps to "full" when this key is absent.
    Recompute recompute = Recompute::None;

    bool operator==(const ModelConfig&) const = default;
};

// "data".
struct DataConfig {
    DataType type = DataType::Synthetic;
    std::string path; // required for text and llmc; read in llm.c's order, never shuffled

    bool operator==(const DataConfig&) const = default;
};

// "run".
struct RunConfig {
    int steps = 100; // optimizer steps
    std::uint64_t seed = 1337;
    Device device = Device::Cpu;
    int log_every = 1;        // a metric line and a store row every this many steps
    int checkpoint_every = 0; // 0: no periodic checkpoints
    std::string checkpoint_dir = "checkpoints";
    CheckpointErrorPolicy on_checkpoint_error = CheckpointErrorPolicy::Continue;
    int threads = 0; // compute threads per rank; 0: the runtime decides
    // The step timeline (storage/timeline.h) of every this-many-th logged step
    // (step % (log_every * timeline_every) == 0) and of each segment's first steady
    // step; 0: none (docs/metrics.md, Step timeline).
    int timeline_every = 10;
    // A collective that has not completed after this many seconds is a stall; 0: the
    // default, max(10 x the median step time, 120 s) (docs/engine.md, Liveness).
    double collective_timeout_s = 0;
    // Kill: record the stall, then end the job (failed, exit 1); Flag: record it and
    // keep waiting (status stalled until the collective completes or the job is ended).
    OnStall on_stall = OnStall::Kill;
    // Ranks per host for counting traffic by link class (within a host / across hosts):
    // hosts are groups of this many consecutive ranks. 0: zero_hpz_partition_size when it
    // is above 1, else every rank on one host (planner/zeropp_plan.h, linkHostSize).
    int ranks_per_host = 0;

    bool operator==(const RunConfig&) const = default;
};

// The resolved config: every default filled in, every value validated.
struct TrainConfig {
    BatchConfig batch;
    OptimizerConfig optimizer;
    SchedulerConfig scheduler;
    double gradient_clipping = 0.0; // global L2 norm; 0 disables clipping
    Precision precision = Precision::Fp32;
    // data_types.grad_accum_dtype "fp32" under bf16: gradients are accumulated, reduced
    // and stepped in fp32 (18 bytes per parameter at stage 0, the chapter's gradient
    // precision) while params stay bf16. Always false under fp32 training.
    bool grad_accum_fp32 = false;
    ZeroConfig zero;
    int steps_per_print = 10; // a human progress line on stderr every this many steps
    // DeepSpeed's timer lines every steps_per_print, and elapsed_time_ms_* in the monitors
    bool wall_clock_breakdown = false;
    MonitorsConfig monitors; // tensorboard, csv_monitor, comms_logger, flops_profiler
    ModelConfig model;
    DataConfig data;
    RunConfig run;

    bool operator==(const TrainConfig&) const = default;
};

enum class Severity { Error, Warning };

// One finding about a config. path is a JSON path ("zero_optimization.stage",
// "optimizer.params.betas[1]"), empty for the document as a whole. text is the finding
// as a Message (context "ConfigCheck"), for a reader that translates it; message is
// its English rendering, what the command-line tools print. Make one with
// makeDiagnostic, which keeps the two together.
struct ConfigDiagnostic {
    Severity severity = Severity::Error;
    std::string path;
    std::string message;
    Message text;

    bool operator==(const ConfigDiagnostic&) const = default;
};

// A diagnostic with message = renderEnglish(text); path and message are cut to a
// bounded size (1 KiB, 8 KiB).
ConfigDiagnostic makeDiagnostic(Severity severity, std::string path, Message text);

// config is set exactly when no diagnostic is an Error. Every error is reported at
// once (parsing never stops at the first), grouped by section.
struct ConfigResult {
    std::optional<TrainConfig> config;
    std::vector<ConfigDiagnostic> diagnostics;

    bool ok() const { return config.has_value(); }
};

// "SOURCE: path: message" for an error, "SOURCE: warning: path: message" for a
// warning (the path part is left out when empty): the form every executable
// prints on stderr.
std::string formatDiagnostic(const std::string& source_name, const ConfigDiagnostic& d);

// The library's one exception type, thrown only by loadConfigOrThrow: carries
// every error, what() is all of them formatted, one per line.
class ConfigError : public std::runtime_error {
public:
    ConfigError(const std::string& source_name, std::vector<ConfigDiagnostic> diagnostics);
    const std::vector<ConfigDiagnostic>& diagnostics() const { return m_diagnostics; }

private:
    std::vector<ConfigDiagnostic> m_diagnostics;
};

// Resolves a parsed JSON document. world: the data-parallel size if known (the
// launcher's -np); without it the world is what the three batch numbers decide,
// else 1. source_name only labels diagnostics. Never throws.
ConfigResult parseConfig(const nlohmann::json& doc, std::optional<int> world,
                         const std::string& source_name);

// Reads and resolves a file. A missing file or a JSON syntax error is an error
// naming the file (and line:column for syntax errors). Never throws.
ConfigResult loadConfigFile(const std::string& path, std::optional<int> world);

// loadConfigFile for callers that only proceed on success (the training main):
// returns the config, throws ConfigError with every error otherwise. Warnings are
// written to `warnings` when given.
TrainConfig loadConfigOrThrow(const std::string& path, std::optional<int> world,
                              std::vector<ConfigDiagnostic>* warnings = nullptr);

// The resolved config as DeepSpeed-shaped JSON with every default written out;
// parseConfig(toJson(c), c.batch.world, ...) yields c again. The scheduler key is
// absent when the type is None, as in DeepSpeed.
nlohmann::json toJson(const TrainConfig& config);

// Learning rate of optimizer step `step` (0-based: the first update uses lrAt(c, 0)),
// with DeepSpeed's formulas (lr_schedules.py): WarmupLR, WarmupDecayLR and
// WarmupCosineLR; optimizer.lr when the scheduler type is None.
double lrAt(const TrainConfig& config, int step);

// Names as they appear in the JSON ("AdamW", "WarmupCosineLR", "log", "bf16", ...).
std::string_view toString(OptimizerType t);
std::string_view toString(SchedulerType t);
std::string_view toString(WarmupType t);
std::string_view toString(Precision p);
std::string_view toString(DataType t);
std::string_view toString(Device d);
std::string_view toString(OnStall s);
std::string_view toString(CheckpointErrorPolicy p);

} // namespace zerolab
