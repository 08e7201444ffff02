// Parsers of the config's sections, each filling its part of TrainConfig and
// recording diagnostics with JSON paths. parseConfig (config_parse.cpp) calls them
// in dependency order: run and model first, since "auto" values in the DeepSpeed
// sections are resolved from them. Internal to the config library.
#pragma once

#include "runtime/config/config.h"
#include "runtime/config/config_reader.h"

#include <nlohmann/json.hpp>

namespace zerolab {

// doc[key] when it is an object; nullptr when absent; an error when it is present
// but not an object.
const nlohmann::json* sectionOf(const nlohmann::json& doc, const char* key, Diagnostics& diags);

// zerolab's sections (config_model.cpp, config_data_run.cpp).
void parseModel(const nlohmann::json* section, Diagnostics& diags, ModelConfig& out);
void parseData(const nlohmann::json* section, Diagnostics& diags, DataConfig& out);
void parseRun(const nlohmann::json* section, Diagnostics& diags, RunConfig& out);

// DeepSpeed's sections (config_deepspeed.cpp). parseScheduler resolves "auto" in
// warmup_max_lr from optimizer.lr and in total_num_steps from run.steps;
// parseZero resolves "auto" bucket sizes to n_embd^2 (as Hugging Face's Trainer).
void parseOptimizer(const nlohmann::json* section, Diagnostics& diags, OptimizerConfig& out);
void parseScheduler(const nlohmann::json* section, const OptimizerConfig& optimizer,
                    const RunConfig& run, Diagnostics& diags, SchedulerConfig& out);
// Reads "bf16" (or its alias "bfloat16") and "fp16" from the top-level document.
Precision parsePrecision(const nlohmann::json& doc, Diagnostics& diags);
// "data_types": DeepSpeed's grad_accum_dtype. True when bf16 training accumulates and
// reduces its gradients in fp32 ("fp32"); "bf16" (the default under bf16) is false, and
// so is "fp32" under fp32 training, whose gradients are fp32 anyway.
bool parseGradAccumFp32(const nlohmann::json* section, Precision precision, Diagnostics& diags);
void parseZero(const nlohmann::json* section, const ModelConfig& model, Diagnostics& diags,
               ZeroConfig& out);
// ZeRO++ against the rest of the config: its groups (and run.ranks_per_host) must divide the
// world when it is known, and its quantization runs on host memory only (run.device "cpu").
void checkZeroPlusPlus(const TrainConfig& c, std::optional<int> world, Diagnostics& diags);
// DeepSpeed's activation_checkpointing: a checkpoint around every transformer block,
// i.e. model.recompute "full", unless model.recompute is given (recompute_given),
// which wins. Keys without a zerolab meaning are warned about, each by its path.
void parseActivationCheckpointing(const nlohmann::json* section, bool recompute_given,
                                  Diagnostics& diags, ModelConfig& model);

} // namespace zerolab
