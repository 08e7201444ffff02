// The DeepSpeed sections of the config: optimizer, scheduler, bf16 / fp16 and
// zero_optimization, with DeepSpeed's key names, defaults and accepted values.
#include "runtime/config/config_choices.h"
#include "runtime/config/config_schema.h"
#include "runtime/config/config_sections.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

namespace zerolab {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Optimizers DeepSpeed offers that zerolab does not implement (lower case).
constexpr std::array<std::string_view, 11> kOtherDeepSpeedOptimizers = {
    "adagrad", "lamb",    "onebitadam", "zerooneadam", "onebitlamb", "lion",
    "muadam",  "muadamw", "musgd",      "sgd",         "cpuadam",
};
constexpr std::array<std::string_view, 2> kOptimizerNames = {"Adam", "AdamW"};

constexpr std::array<std::string_view, 3> kSchedulerNames = {"WarmupLR", "WarmupDecayLR",
                                                             "WarmupCosineLR"};
constexpr std::array<SchedulerType, 3> kSchedulerTypes = {
    SchedulerType::WarmupLR, SchedulerType::WarmupDecayLR, SchedulerType::WarmupCosineLR};
constexpr std::array<std::string_view, 2> kOtherDeepSpeedSchedulers = {"OneCycle", "LRRangeTest"};

constexpr std::array<std::string_view, 4> kWarmupLRParams = {"warmup_min_lr", "warmup_max_lr",
                                                             "warmup_num_steps", "warmup_type"};
constexpr std::array<std::string_view, 5> kWarmupDecayLRParams = {
    "warmup_min_lr", "warmup_max_lr", "warmup_num_steps", "warmup_type", "total_num_steps"};
constexpr std::array<std::string_view, 5> kWarmupCosineLRParams = {
    "total_num_steps", "warmup_min_ratio", "warmup_num_steps", "cos_min_ratio", "warmup_type"};
constexpr std::array<std::string_view, 7> kAllSchedulerParams = {
    "warmup_min_lr",   "warmup_max_lr",    "warmup_num_steps", "warmup_type",
    "total_num_steps", "warmup_min_ratio", "cos_min_ratio"};

std::span<const std::string_view> paramsOf(SchedulerType t) {
    switch (t) {
    case SchedulerType::WarmupLR:
        return kWarmupLRParams;
    case SchedulerType::WarmupDecayLR:
        return kWarmupDecayLRParams;
    case SchedulerType::WarmupCosineLR:
        return kWarmupCosineLRParams;
    case SchedulerType::None:
        break;
    }
    return {};
}

const nlohmann::json* subsection(const nlohmann::json& section, const std::string& path,
                                 const char* key, Diagnostics& diags) {
    auto it = section.find(key);
    if (it == section.end())
        return nullptr;
    if (!it->is_object()) {
        diags.error(joinPath(path, key),
                    expectedGot(Message(ZEROLAB_TR("ConfigCheck", "an object")), *it));
        return nullptr;
    }
    return &*it;
}

void parseBetas(SectionReader& p, OptimizerConfig& out) {
    const nlohmann::json* betas = p.raw("betas");
    if (betas == nullptr)
        return;
    if (p.isAuto("betas") || !betas->is_array() || betas->size() != 2) {
        p.typeError("betas",
                    Message(ZEROLAB_TR("ConfigCheck", "an array of two numbers in [0, 1)")));
        return;
    }
    double* targets[2] = {&out.beta1, &out.beta2};
    for (std::size_t i = 0; i < 2; ++i) {
        const nlohmann::json& b = (*betas)[i];
        if (!b.is_number() || b.get<double>() < 0.0 || b.get<double>() >= 1.0) {
            p.diags().error(
                p.pathOf("betas") + "[" + std::to_string(i) + "]",
                expectedGot(Message(ZEROLAB_TR("ConfigCheck", "a number in [0, 1)")), b));
            continue;
        }
        *targets[i] = b.get<double>();
    }
}

// ZeRO++'s keys. DeepSpeed reads them only when it builds its stage-3 optimizer and
// ignores them silently at stages 0-2; zerolab ignores them there too, with a warning.
void parseZeroPlusPlus(SectionReader& r, Diagnostics& diags, ZeroConfig& out) {
    if (auto v = r.getBool("zero_quantized_weights"))
        out.quantized_weights = *v;
    if (auto v = r.getInt("zero_hpz_partition_size", 0, kIntMax))
        out.hpz_partition_size = std::max(1, static_cast<int>(*v));
    if (auto v = r.getBool("zero_quantized_gradients"))
        out.quantized_gradients = *v;
    if (out.stage == 3)
        return;
    const Message onlyStage3(
        ZEROLAB_TR("ConfigCheck",
                   "ignored: ZeRO++ works on stage 3's partitions (DeepSpeed ignores it at "
                   "stage %1)"),
        {std::to_string(out.stage)});
    if (out.quantized_weights)
        diags.warning(r.pathOf("zero_quantized_weights"), onlyStage3);
    if (out.hpz_partition_size > 1)
        diags.warning(r.pathOf("zero_hpz_partition_size"), onlyStage3);
    if (out.quantized_gradients)
        diags.warning(r.pathOf("zero_quantized_gradients"), onlyStage3);
    out.quantized_weights = out.quantized_gradients = false;
    out.hpz_partition_size = 1;
}

} // namespace

void parseOptimizer(const nlohmann::json* section, Diagnostics& diags, OptimizerConfig& out) {
    if (section == nullptr)
        return;
    const std::string path = "optimizer";
    checkKeys(*section, path, kOptimizerSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    if (!r.has("type")) {
        diags.error(r.pathOf("type"),
                    Message(ZEROLAB_TR("ConfigCheck", "required when \"optimizer\" is given; "
                                                      "expected \"Adam\" or \"AdamW\"")));
    } else if (auto name = r.getString("type")) {
        const std::string l = lower(*name);
        if (l == "adam") {
            out.type = OptimizerType::Adam;
        } else if (l == "adamw") {
            out.type = OptimizerType::AdamW;
        } else if (std::find(kOtherDeepSpeedOptimizers.begin(), kOtherDeepSpeedOptimizers.end(),
                             l) != kOtherDeepSpeedOptimizers.end()) {
            diags.error(
                r.pathOf("type"),
                Message(ZEROLAB_TR("ConfigCheck", "optimizer \"%1\" is not implemented by "
                                                  "zerolab; expected \"Adam\" or \"AdamW\""),
                        {*name}));
        } else {
            diags.error(
                r.pathOf("type"),
                Message(ZEROLAB_TR("ConfigCheck",
                                   "unknown optimizer \"%1\"; expected \"Adam\" or \"AdamW\"%2"),
                        {*name, didYouMean(*name, kOptimizerNames)}));
        }
    }

    const nlohmann::json* params = subsection(*section, path, "params", diags);
    SectionReader p(params, "optimizer.params", diags);
    if (params != nullptr)
        checkKeys(*params, p.path(), kOptimizerParamsSchema, UnknownKeyPolicy::WarnUnlessTypo,
                  diags);
    if (auto v = p.getNumber(
            "lr", [](double x) { return x > 0; },
            Message(ZEROLAB_TR("ConfigCheck", "a number > 0"))))
        out.lr = *v;
    parseBetas(p, out);
    if (auto v = p.getNumber(
            "eps", [](double x) { return x > 0; },
            Message(ZEROLAB_TR("ConfigCheck", "a number > 0"))))
        out.eps = *v;
    if (auto v = p.getNumber(
            "weight_decay", [](double x) { return x >= 0; },
            Message(ZEROLAB_TR("ConfigCheck", "a number >= 0"))))
        out.weight_decay = *v;
    // DeepSpeed: effective AdamW mode = (type is AdamW) or adam_w_mode, default true.
    std::optional<bool> adam_w_mode = p.getBool("adam_w_mode");
    out.decoupled_weight_decay = out.type == OptimizerType::AdamW || adam_w_mode.value_or(true);
    if (out.type == OptimizerType::AdamW && adam_w_mode == false)
        diags.warning(
            p.pathOf("adam_w_mode"),
            Message(ZEROLAB_TR("ConfigCheck", "ignored: AdamW always decouples weight decay (as in "
                                              "DeepSpeed)")));
    if (auto v = p.getBool("bias_correction"); v == false)
        diags.error(p.pathOf("bias_correction"),
                    Message(ZEROLAB_TR("ConfigCheck", "false is not implemented: zerolab's Adam "
                                                      "always applies bias correction")));
    if (auto v = p.getBool("amsgrad"); v == true)
        diags.error(p.pathOf("amsgrad"),
                    Message(ZEROLAB_TR("ConfigCheck",
                                       "true is not implemented: AMSGrad is not supported")));
}

void parseScheduler(const nlohmann::json* section, const OptimizerConfig& optimizer,
                    const RunConfig& run, Diagnostics& diags, SchedulerConfig& out) {
    if (section == nullptr)
        return;
    const std::string path = "scheduler";
    checkKeys(*section, path, kSchedulerSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    std::optional<std::string> name;
    if (!r.has("type"))
        diags.error(r.pathOf("type"),
                    Message(ZEROLAB_TR("ConfigCheck",
                                       "required when \"scheduler\" is given; expected "
                                       "\"WarmupLR\", \"WarmupDecayLR\" or \"WarmupCosineLR\"")));
    else
        name = r.getString("type");
    if (!name)
        return;
    const auto known = std::find(kSchedulerNames.begin(), kSchedulerNames.end(), *name);
    if (known == kSchedulerNames.end()) {
        bool other = std::find(kOtherDeepSpeedSchedulers.begin(), kOtherDeepSpeedSchedulers.end(),
                               *name) != kOtherDeepSpeedSchedulers.end();
        if (other)
            diags.error(
                r.pathOf("type"),
                Message(ZEROLAB_TR("ConfigCheck", "scheduler \"%1\" is not implemented by zerolab; "
                                                  "expected \"WarmupLR\", \"WarmupDecayLR\" or "
                                                  "\"WarmupCosineLR\""),
                        {*name}));
        else
            diags.error(r.pathOf("type"),
                        Message(ZEROLAB_TR("ConfigCheck",
                                           "unknown scheduler \"%1\"; expected \"WarmupLR\", "
                                           "\"WarmupDecayLR\" or \"WarmupCosineLR\"%2"),
                                {*name, didYouMean(*name, kSchedulerNames)}));
        return;
    }
    out.type = kSchedulerTypes[static_cast<std::size_t>(known - kSchedulerNames.begin())];

    const nlohmann::json* params = subsection(*section, path, "params", diags);
    SectionReader p(params, "scheduler.params", diags);
    const auto allowed = paramsOf(out.type);
    if (params != nullptr) {
        for (const auto& [key, value] : params->items()) {
            if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
                continue;
            if (key == "last_batch_iteration")
                diags.warning(p.pathOf(key),
                              Message(ZEROLAB_TR("ConfigCheck",
                                                 "ignored: zerolab starts schedules at step 0")));
            else if (std::find(kAllSchedulerParams.begin(), kAllSchedulerParams.end(), key) !=
                     kAllSchedulerParams.end())
                diags.error(p.pathOf(key),
                            Message(ZEROLAB_TR("ConfigCheck", "not a parameter of %1"), {*name}));
            else
                diags.error(p.pathOf(key),
                            Message(ZEROLAB_TR("ConfigCheck", "unknown parameter of %1%2"),
                                    {*name, didYouMean(key, allowed)}));
        }
    }
    auto allowedHas = [&](std::string_view k) {
        return std::find(allowed.begin(), allowed.end(), k) != allowed.end();
    };
    auto nonNegative = [](double x) { return x >= 0; };
    auto ratio = [](double x) { return x >= 0 && x <= 1; };
    const Message a_number_ge_0(ZEROLAB_TR("ConfigCheck", "a number >= 0"));
    const Message a_ratio(ZEROLAB_TR("ConfigCheck", "a number in [0, 1]"));

    if (allowedHas("warmup_min_lr"))
        if (auto v = p.getNumber("warmup_min_lr", nonNegative, a_number_ge_0))
            out.warmup_min_lr = *v;
    if (allowedHas("warmup_max_lr")) {
        // DeepSpeed's WarmupLR peaks at the optimizer's lr when warmup_max_lr is not
        // given (WarmupDecayLR keeps its 0.001 default); "auto" means the same.
        const bool from_optimizer =
            p.isAuto("warmup_max_lr") ||
            (out.type == SchedulerType::WarmupLR && !p.has("warmup_max_lr"));
        if (from_optimizer)
            out.warmup_max_lr = optimizer.lr;
        else if (auto v = p.getNumber("warmup_max_lr", nonNegative, a_number_ge_0))
            out.warmup_max_lr = *v;
        if (out.warmup_max_lr < out.warmup_min_lr)
            diags.error(
                p.pathOf("warmup_max_lr"),
                Message(ZEROLAB_TR("ConfigCheck", "warmup_max_lr %1 is below warmup_min_lr %2"),
                        {std::to_string(out.warmup_max_lr), std::to_string(out.warmup_min_lr)}));
    }
    if (auto v = p.getInt("warmup_num_steps", 0, kIntMax))
        out.warmup_num_steps = static_cast<int>(*v);
    if (auto v = p.getChoice("warmup_type", {"log", "linear"}))
        out.warmup_type = *v == 0 ? WarmupType::Log : WarmupType::Linear;
    if (allowedHas("warmup_min_ratio"))
        if (auto v = p.getNumber("warmup_min_ratio", ratio, a_ratio))
            out.warmup_min_ratio = *v;
    if (allowedHas("cos_min_ratio"))
        if (auto v = p.getNumber("cos_min_ratio", ratio, a_ratio))
            out.cos_min_ratio = *v;
    if (allowedHas("total_num_steps")) {
        if (!p.has("total_num_steps")) {
            diags.error(
                p.pathOf("total_num_steps"),
                Message(ZEROLAB_TR("ConfigCheck",
                                   "required by %1; give a number, or \"auto\" for run.steps"),
                        {*name}));
            return;
        }
        if (p.isAuto("total_num_steps"))
            out.total_num_steps = run.steps;
        else if (auto v = p.getInt("total_num_steps", 1, kIntMax))
            out.total_num_steps = static_cast<int>(*v);
        else
            return;
        if (out.type == SchedulerType::WarmupCosineLR &&
            out.total_num_steps <= std::max(2, out.warmup_num_steps))
            diags.error(p.pathOf("total_num_steps"),
                        Message(ZEROLAB_TR("ConfigCheck",
                                           "%1 must exceed warmup_num_steps (%2, at least 2 as in "
                                           "DeepSpeed): the cosine phase would have no steps"),
                                {std::to_string(out.total_num_steps),
                                 std::to_string(std::max(2, out.warmup_num_steps))}));
        if (out.type == SchedulerType::WarmupDecayLR && out.total_num_steps < out.warmup_num_steps)
            diags.warning(p.pathOf("total_num_steps"),
                          Message(ZEROLAB_TR("ConfigCheck", "%1 is below warmup_num_steps %2: the "
                                                            "decay phase never starts"),
                                  {std::to_string(out.total_num_steps),
                                   std::to_string(out.warmup_num_steps)}));
    }
}

Precision parsePrecision(const nlohmann::json& doc, Diagnostics& diags) {
    bool bf16 = false;
    if (doc.contains("bf16") && doc.contains("bfloat16"))
        diags.error("bfloat16",
                    Message(ZEROLAB_TR("ConfigCheck", "give either \"bf16\" or its "
                                                      "legacy alias \"bfloat16\", not both")));
    for (const char* key : {"bf16", "bfloat16"}) {
        const nlohmann::json* section = sectionOf(doc, key, diags);
        if (section == nullptr)
            continue;
        checkKeys(*section, key, kBf16Schema, UnknownKeyPolicy::WarnUnlessTypo, diags);
        SectionReader r(section, key, diags);
        if (auto v = r.getBool("enabled"))
            bf16 = bf16 || *v;
    }
    if (const nlohmann::json* fp16 = sectionOf(doc, "fp16", diags)) {
        checkKeys(*fp16, "fp16", kFp16Schema, UnknownKeyPolicy::WarnUnlessTypo, diags);
        SectionReader r(fp16, "fp16", diags);
        // "auto" resolves to false: zerolab never trains in fp16.
        if (!r.isAuto("enabled") && r.getBool("enabled") == true)
            diags.error(
                "fp16.enabled",
                Message(ZEROLAB_TR("ConfigCheck", "fp16 training is not implemented (it needs loss "
                                                  "scaling); use \"bf16\": {\"enabled\": true} for "
                                                  "mixed precision")));
    }
    return bf16 ? Precision::Bf16Mixed : Precision::Fp32;
}

bool parseGradAccumFp32(const nlohmann::json* section, Precision precision, Diagnostics& diags) {
    if (section == nullptr)
        return false;
    const std::string path = "data_types";
    checkKeys(*section, path, kDataTypesSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    const auto v = r.getNamed("grad_accum_dtype", kGradAccumDtypeNames);
    if (!v)
        return false;
    if (auto refusal = gradAccumDtypeRefusal(*v, precision, "\"bf16\": {\"enabled\": true}"))
        diags.error(r.pathOf("grad_accum_dtype"), std::move(*refusal));
    return gradAccumFp32(*v, precision);
}

void parseZero(const nlohmann::json* section, const ModelConfig& model, Diagnostics& diags,
               ZeroConfig& out) {
    const std::string path = "zero_optimization";
    if (section != nullptr)
        checkKeys(*section, path, kZeroSchema, UnknownKeyPolicy::WarnUnlessTypo, diags);
    SectionReader r(section, path, diags);
    if (auto v = r.getInt("stage", 0, 3))
        out.stage = static_cast<int>(*v);
    if (auto v = r.getBool("allgather_partitions"))
        out.allgather_partitions = *v;
    if (auto v = r.getBool("reduce_scatter"))
        out.reduce_scatter = *v;
    out.overlap_comm = r.getBool("overlap_comm").value_or(out.stage == 3);
    if (auto v = r.getBool("contiguous_gradients"))
        out.contiguous_gradients = *v;
    const std::int64_t auto_bucket =
        static_cast<std::int64_t>(model.shape.n_embd) * model.shape.n_embd;
    for (auto [key, target] : {std::pair{"reduce_bucket_size", &out.reduce_bucket_size},
                               std::pair{"allgather_bucket_size", &out.allgather_bucket_size}}) {
        if (r.isAuto(key))
            *target = std::max<std::int64_t>(1, auto_bucket);
        else if (auto v = r.getInt(key, 1, kInt64Max))
            *target = *v;
    }
    parseZeroPlusPlus(r, diags, out);
}

void checkZeroPlusPlus(const TrainConfig& c, std::optional<int> world, Diagnostics& diags) {
    const ZeroConfig& z = c.zero;
    const bool on = z.quantized_weights || z.hpz_partition_size > 1 || z.quantized_gradients;
    if (on && c.run.device != Device::Cpu) {
        const char* key = z.quantized_weights        ? "zero_quantized_weights"
                          : z.hpz_partition_size > 1 ? "zero_hpz_partition_size"
                                                     : "zero_quantized_gradients";
        diags.error(joinPath("zero_optimization", key),
                    Message(ZEROLAB_TR("ConfigCheck", "ZeRO++ runs on run.device \"cpu\" only "
                                                      "(its quantization is host code)")));
    }
    if (!world)
        return;
    const std::string n = std::to_string(*world);
    if (z.hpz_partition_size > 1 && *world % z.hpz_partition_size != 0)
        diags.error("zero_optimization.zero_hpz_partition_size",
                    Message(ZEROLAB_TR("ConfigCheck", "%1 does not divide the world of %2 ranks"),
                            {std::to_string(z.hpz_partition_size), n}));
    if (c.run.ranks_per_host > 0 && *world % c.run.ranks_per_host != 0)
        diags.error("run.ranks_per_host",
                    Message(ZEROLAB_TR("ConfigCheck", "%1 does not divide the world of %2 ranks"),
                            {std::to_string(c.run.ranks_per_host), n}));
}

void parseActivationCheckpointing(const nlohmann::json* section, bool recompute_given,
                                  Diagnostics& diags, ModelConfig& model) {
    const std::string path = "activation_checkpointing";
    if (section == nullptr)
        return;
    checkKeys(*section, path, kActivationCheckpointingSchema, UnknownKeyPolicy::WarnUnlessTypo,
              diags);
    SectionReader r(section, path, diags);
    // In DeepSpeed the section configures deepspeed.checkpointing.checkpoint(), which
    // the model calls around each transformer block: our "full" recompute.
    if (recompute_given) {
        if (model.recompute != Recompute::Full)
            diags.warning(path,
                          Message(ZEROLAB_TR("ConfigCheck",
                                             "ignored: model.recompute \"%1\" is given and wins "
                                             "over this section (which means \"full\")"),
                                  {std::string(recomputeName(model.recompute))}));
    } else {
        model.recompute = Recompute::Full;
        diags.warning(
            path, Message(ZEROLAB_TR("ConfigCheck", "mapped to model.recompute \"full\": every "
                                                    "transformer block's forward is recomputed in "
                                                    "backward (one checkpoint per block)")));
    }
    if (r.getBool("partition_activations") == true)
        diags.warning(r.pathOf("partition_activations"),
                      Message(ZEROLAB_TR("ConfigCheck",
                                         "ignored: it splits checkpoints across model-parallel "
                                         "ranks; zerolab is data-parallel only, so each rank "
                                         "keeps its own")));
    if (r.getBool("cpu_checkpointing") == true)
        diags.warning(r.pathOf("cpu_checkpointing"),
                      Message(ZEROLAB_TR("ConfigCheck",
                                         "not implemented, ignored: checkpoints stay in device "
                                         "memory")));
    // contiguous_memory_optimization: the arena is always one contiguous allocation.
    r.getBool("contiguous_memory_optimization");
    if (auto n = r.getInt("number_checkpoints", 1, std::numeric_limits<int>::max());
        n && *n != model.shape.n_layer)
        diags.warning(r.pathOf("number_checkpoints"),
                      Message(ZEROLAB_TR("ConfigCheck", "ignored: zerolab checkpoints every "
                                                        "block (n_layer = %1), not %2"),
                              {std::to_string(model.shape.n_layer), std::to_string(*n)}));
    for (const char* key : {"synchronize_checkpoint_boundary", "profile"})
        if (r.getBool(key) == true)
            diags.warning(r.pathOf(key),
                          Message(ZEROLAB_TR("ConfigCheck", "not implemented, ignored")));
}

} // namespace zerolab
