// Diagnostics: type errors with paths, "did you mean", every error at once, and
// warnings for DeepSpeed settings zerolab ignores.
#include "config_test_util.h"

namespace zerolab::test {
namespace {

TEST(ConfigErrors, TypeErrorNamesPathExpectedAndValue) {
    auto r = parse(withBatch(R"("zero_optimization": {"stage": "two"})"));
    ASSERT_FALSE(r.ok());
    const ConfigDiagnostic* d = findError(r, "zero_optimization.stage");
    ASSERT_NE(d, nullptr) << dump(r);
    EXPECT_EQ(formatDiagnostic("f.json", *d),
              "f.json: zero_optimization.stage: expected an integer 0-3, got \"two\"");
}

TEST(ConfigErrors, OutOfRangeValues) {
    auto r = parse(withBatch(R"("zero_optimization": {"stage": 4},
        "optimizer": {"type": "AdamW", "params": {"lr": -1, "betas": [0.9, 1.0], "eps": 0}})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "zero_optimization.stage", "got 4"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "optimizer.params.lr", "expected a number > 0, got -1"), nullptr);
    EXPECT_NE(findError(r, "optimizer.params.betas[1]", "[0, 1)"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "optimizer.params.eps"), nullptr);
    EXPECT_EQ(findError(r, "optimizer.params.betas[0]"), nullptr);
}

TEST(ConfigErrors, DidYouMeanInOwnSections) {
    auto r = parse(withBatch(R"("model": {"preset": "nano", "n_layers": 2},
                                "data": {"tpye": "text"}, "run": {"step": 5})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "model.n_layers", "did you mean \"n_layer\"?"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "data.tpye", "did you mean \"type\"?"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "run.step", "did you mean \"steps\"?"), nullptr) << dump(r);
}

TEST(ConfigErrors, UnknownKeyFarFromAnythingInOwnSectionIsStillAnError) {
    auto r = parse(withBatch(R"("run": {"completely_different": 1})"));
    ASSERT_FALSE(r.ok());
    const ConfigDiagnostic* d = findError(r, "run.completely_different", "unknown key");
    ASSERT_NE(d, nullptr) << dump(r);
    EXPECT_EQ(d->message.find("did you mean"), std::string::npos);
}

TEST(ConfigErrors, TimelineEveryIsACountWithADefault) {
    auto def = parse(withBatch(""));
    ASSERT_TRUE(def.ok()) << dump(def);
    EXPECT_EQ(def.config->run.timeline_every, 10);
    auto off = parse(withBatch(R"("run": {"timeline_every": 0})"));
    ASSERT_TRUE(off.ok()) << dump(off);
    EXPECT_EQ(off.config->run.timeline_every, 0);
    for (const char* bad : {"-1", "2.5", "\"10\"", "true"}) {
        auto r = parse(withBatch(std::string(R"("run": {"timeline_every": )") + bad + "}"));
        ASSERT_FALSE(r.ok()) << bad;
        const ConfigDiagnostic* d = findError(r, "run.timeline_every");
        ASSERT_NE(d, nullptr) << dump(r);
        EXPECT_NE(formatDiagnostic("f.json", *d)
                      .find("f.json: run.timeline_every: expected an integer 0-2147483647, got"),
                  std::string::npos)
            << formatDiagnostic("f.json", *d);
    }
}

// The liveness keys (docs/config.md): the collective timeout in seconds (0: the default
// from the median step time) and the stall policy, each refused with its path and value.
TEST(ConfigErrors, LivenessKeysAreValidated) {
    auto def = parse(withBatch(""));
    ASSERT_TRUE(def.ok()) << dump(def);
    EXPECT_EQ(def.config->run.collective_timeout_s, 0);
    EXPECT_EQ(def.config->run.on_stall, OnStall::Kill);
    auto set = parse(withBatch(R"("run": {"collective_timeout_s": 2.5, "on_stall": "flag"})"));
    ASSERT_TRUE(set.ok()) << dump(set);
    EXPECT_EQ(set.config->run.collective_timeout_s, 2.5);
    EXPECT_EQ(set.config->run.on_stall, OnStall::Flag);
    EXPECT_TRUE(parse(withBatch(R"("run": {"collective_timeout_s": 1})")).ok());
    EXPECT_EQ(toJson(*set.config)["run"]["on_stall"], "flag");
    for (const char* bad : {"-1", "1e-9", "0.5", "604801", "\"120\"", "true", "null"}) {
        auto r = parse(withBatch(std::string(R"("run": {"collective_timeout_s": )") + bad + "}"));
        ASSERT_FALSE(r.ok()) << bad;
        const ConfigDiagnostic* d = findError(r, "run.collective_timeout_s");
        ASSERT_NE(d, nullptr) << dump(r);
        EXPECT_NE(formatDiagnostic("f.json", *d)
                      .find("f.json: run.collective_timeout_s: expected 0 or a number of "
                            "seconds in [1, 604800]; below 1 s an ordinary scheduling pause"),
                  std::string::npos)
            << formatDiagnostic("f.json", *d);
    }
    auto r = parse(withBatch(R"("run": {"on_stall": "wait"})"));
    ASSERT_FALSE(r.ok());
    const ConfigDiagnostic* d = findError(r, "run.on_stall");
    ASSERT_NE(d, nullptr) << dump(r);
    EXPECT_NE(d->message.find("wait"), std::string::npos) << d->message;
    EXPECT_NE(d->message.find("kill"), std::string::npos) << d->message;
}

TEST(ConfigErrors, OnCheckpointErrorIsContinueOrStop) {
    auto def = parse(withBatch(""));
    ASSERT_TRUE(def.ok()) << dump(def);
    EXPECT_EQ(def.config->run.on_checkpoint_error, CheckpointErrorPolicy::Continue);
    auto stop = parse(withBatch(R"("run": {"on_checkpoint_error": "stop"})"));
    ASSERT_TRUE(stop.ok()) << dump(stop);
    EXPECT_EQ(stop.config->run.on_checkpoint_error, CheckpointErrorPolicy::Stop);
    EXPECT_EQ(toJson(*stop.config)["run"]["on_checkpoint_error"], "stop");
    auto bad = parse(withBatch(R"("run": {"on_checkpoint_error": "retry"})"));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(findError(bad, "run.on_checkpoint_error", "retry"), nullptr) << dump(bad);
}

TEST(ConfigErrors, TypoOfImplementedDeepSpeedKeyIsAnError) {
    auto r = parse(withBatch(R"("zero_optimisation": {"stage": 2})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "zero_optimisation", "did you mean \"zero_optimization\"?"), nullptr)
        << dump(r);
    auto p = parse(withBatch(R"("model": {"preset": "nanoo"})"));
    EXPECT_NE(findError(p, "model.preset", "did you mean \"nano\"?"), nullptr) << dump(p);
}

TEST(ConfigErrors, IgnoredDeepSpeedKeysWarnAndNameThemselves) {
    auto r = parse(withBatch(R"("wandb": {"enabled": true},
        "activation_checkpointing": {"partition_activations": true},
        "zero_optimization": {"stage": 2, "round_robin_gradients": true,
                              "stage3_max_live_parameters": 1e9},
        "optimizer": {"type": "AdamW", "params": {"torch_adam": true}},
        "something_unrelated_entirely": 1)"));
    ASSERT_TRUE(r.ok()) << dump(r);
    for (const char* path :
         {"wandb", "activation_checkpointing.partition_activations",
          "zero_optimization.round_robin_gradients", "zero_optimization.stage3_max_live_parameters",
          "optimizer.params.torch_adam"})
        EXPECT_NE(findWarning(r, path, "ignored"), nullptr) << path << "\n" << dump(r);
    EXPECT_NE(findWarning(r, "something_unrelated_entirely", "ignored"), nullptr) << dump(r);
    // The section itself is DeepSpeed's per-block checkpointing: our "full".
    EXPECT_NE(findWarning(r, "activation_checkpointing", "mapped to model.recompute \"full\""),
              nullptr)
        << dump(r);
    EXPECT_EQ(r.config->model.recompute, Recompute::Full);
    EXPECT_EQ(countSeverity(r, Severity::Warning), 7);
    EXPECT_EQ(r.config->zero.stage, 2);
}

TEST(ConfigErrors, RecomputeModeIsReadNamedAndWinsOverDeepSpeedsSection) {
    for (const char* mode : {"none", "selective", "full"}) {
        auto r = parse(
            withBatch(std::string(R"("model": {"preset": "nano", "recompute": ")") + mode + "\"}"));
        ASSERT_TRUE(r.ok()) << dump(r);
        EXPECT_EQ(recomputeName(r.config->model.recompute), mode);
        EXPECT_EQ(countSeverity(r, Severity::Warning), 0) << dump(r);
    }
    auto absent = parse(withBatch(R"("model": {"preset": "nano"})"));
    ASSERT_TRUE(absent.ok());
    EXPECT_EQ(absent.config->model.recompute, Recompute::None);

    auto bad = parse(withBatch(R"("model": {"preset": "nano", "recompute": "partial"})"));
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(findError(bad, "model.recompute", "\"partial\""), nullptr) << dump(bad);

    auto both = parse(withBatch(R"("model": {"preset": "nano", "recompute": "selective"},
        "activation_checkpointing": {"number_checkpoints": 3, "contiguous_memory_optimization": true})"));
    ASSERT_TRUE(both.ok()) << dump(both);
    EXPECT_EQ(both.config->model.recompute, Recompute::Selective);
    EXPECT_NE(findWarning(both, "activation_checkpointing", "wins"), nullptr) << dump(both);
    EXPECT_NE(findWarning(both, "activation_checkpointing.number_checkpoints", "n_layer = 2"),
              nullptr)
        << dump(both);
    EXPECT_EQ(countSeverity(both, Severity::Warning), 2) << dump(both);
}

TEST(ConfigErrors, AllErrorsAtOnceAcrossSections) {
    auto r = parse(R"({"train_batch_size": 10, "train_micro_batch_size_per_gpu": 3,
        "gradient_accumulation_steps": 1,
        "optimizer": {"type": "Lamb"},
        "scheduler": {"type": "WarmupCosineLR", "params": {"warmup_num_steps": 10}},
        "zero_optimization": {"stage": "two", "overlap_comm": "yes"},
        "fp16": {"enabled": true},
        "model": {"preset": "nano", "seq_len": 1000},
        "data": {"type": "text"},
        "run": {"steps": 0, "device": "tpu"}})");
    ASSERT_FALSE(r.ok());
    for (const char* path :
         {"train_batch_size", "optimizer.type", "scheduler.params.total_num_steps",
          "zero_optimization.stage", "zero_optimization.overlap_comm", "fp16.enabled",
          "model.seq_len", "data.path", "run.steps", "run.device"})
        EXPECT_NE(findError(r, path), nullptr) << path << "\n" << dump(r);
    EXPECT_EQ(countSeverity(r, Severity::Error), 10) << dump(r);
}

TEST(ConfigErrors, Fp16EnabledIsAnErrorSuggestingBf16AndDisabledIsAccepted) {
    auto on = parse(withBatch(R"("fp16": {"enabled": true})"));
    ASSERT_FALSE(on.ok());
    EXPECT_NE(findError(on, "fp16.enabled", "\"bf16\""), nullptr) << dump(on);
    auto off = parse(withBatch(R"("fp16": {"enabled": false}, "bf16": {"enabled": true})"));
    ASSERT_TRUE(off.ok()) << dump(off);
    EXPECT_TRUE(off.diagnostics.empty()) << dump(off);
    EXPECT_EQ(off.config->precision, Precision::Bf16Mixed);
    auto automatic = parse(withBatch(R"("fp16": {"enabled": "auto", "loss_scale": 0})"));
    ASSERT_TRUE(automatic.ok()) << dump(automatic);
    EXPECT_EQ(automatic.config->precision, Precision::Fp32);
    EXPECT_NE(findWarning(automatic, "fp16.loss_scale", "ignored"), nullptr);
}

// DeepSpeed's data_types.grad_accum_dtype: "fp32" keeps fp32 gradients under bf16;
// under fp32 training it changes nothing; bf16 gradients need bf16, fp16 ones do not exist.
TEST(ConfigErrors, GradAccumDtypeFp32UnderBf16AndItsErrors) {
    auto fp32 = parse(
        withBatch(R"("bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "fp32"})"));
    ASSERT_TRUE(fp32.ok()) << dump(fp32);
    EXPECT_TRUE(fp32.diagnostics.empty()) << dump(fp32);
    EXPECT_TRUE(fp32.config->grad_accum_fp32);
    auto bf16 = parse(
        withBatch(R"("bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "bf16"})"));
    ASSERT_TRUE(bf16.ok()) << dump(bf16);
    EXPECT_FALSE(bf16.config->grad_accum_fp32);
    auto plain = parse(withBatch(R"("data_types": {"grad_accum_dtype": "fp32"})"));
    ASSERT_TRUE(plain.ok()) << dump(plain);
    EXPECT_FALSE(plain.config->grad_accum_fp32);
    EXPECT_EQ(*plain.config, *parse(withBatch("")).config);

    auto bf16OnFp32 = parse(withBatch(R"("data_types": {"grad_accum_dtype": "bf16"})"));
    EXPECT_NE(findError(bf16OnFp32, "data_types.grad_accum_dtype", "bf16 training"), nullptr)
        << dump(bf16OnFp32);
    auto fp16 = parse(
        withBatch(R"("bf16": {"enabled": true}, "data_types": {"grad_accum_dtype": "fp16"})"));
    EXPECT_NE(findError(fp16, "data_types.grad_accum_dtype", "not implemented"), nullptr)
        << dump(fp16);
    auto other = parse(withBatch(R"("data_types": {"grad_accum_dtype": "int8"})"));
    EXPECT_NE(findError(other, "data_types.grad_accum_dtype", "\"fp32\""), nullptr) << dump(other);
    auto typo = parse(withBatch(R"("data_types": {"grad_acum_dtype": "fp32"})"));
    EXPECT_NE(findError(typo, "data_types.grad_acum_dtype", "did you mean"), nullptr) << dump(typo);
}

TEST(ConfigErrors, AutoWithoutAResolverNamesTheKey) {
    auto r = parse(withBatch(R"("gradient_clipping": "auto", "bf16": {"enabled": "auto"})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "gradient_clipping", "\"auto\" cannot be resolved"), nullptr) << dump(r);
    EXPECT_NE(findError(r, "bf16.enabled", "\"auto\" cannot be resolved"), nullptr) << dump(r);
}

TEST(ConfigErrors, AutoResolvedFromOtherSections) {
    auto r = parse(withBatch(R"("optimizer": {"type": "AdamW", "params": {"lr": 0.003}},
        "scheduler": {"type": "WarmupDecayLR",
                      "params": {"warmup_max_lr": "auto", "total_num_steps": "auto",
                                 "warmup_num_steps": 5}},
        "zero_optimization": {"reduce_bucket_size": "auto", "allgather_bucket_size": 5e8},
        "model": {"preset": "micro"}, "run": {"steps": 77})"));
    ASSERT_TRUE(r.ok()) << dump(r);
    EXPECT_DOUBLE_EQ(r.config->scheduler.warmup_max_lr, 0.003);
    EXPECT_EQ(r.config->scheduler.total_num_steps, 77);
    EXPECT_EQ(r.config->zero.reduce_bucket_size, 256 * 256);
    EXPECT_EQ(r.config->zero.allgather_bucket_size, 500000000);
}

TEST(ConfigErrors, ModelShapeValidation) {
    auto custom = parse(withBatch(
        R"("model": {"n_layer": 2, "n_head": 3, "n_embd": 64, "seq_len": 32, "vocab_size": 300})"));
    ASSERT_FALSE(custom.ok());
    EXPECT_NE(findError(custom, "model.n_embd", "not divisible by n_head 3"), nullptr)
        << dump(custom);
    auto missing = parse(withBatch(R"("model": {"n_layer": 2, "n_embd": 64})"));
    EXPECT_NE(findError(missing, "model.n_head", "required for a custom shape"), nullptr);
    EXPECT_NE(findError(missing, "model.seq_len", "required for a custom shape"), nullptr);
    auto differs = parse(withBatch(R"("model": {"preset": "nano", "n_layer": 4})"));
    EXPECT_NE(findError(differs, "model.n_layer", "differs from preset \"nano\""), nullptr)
        << dump(differs);
    auto small_vocab = parse(withBatch(
        R"("model": {"n_layer": 1, "n_head": 1, "n_embd": 8, "seq_len": 8, "vocab_size": 100})"));
    EXPECT_NE(findError(small_vocab, "model.vocab_size", ">= 256"), nullptr) << dump(small_vocab);
}

TEST(ConfigErrors, CustomShapePadsVocabularyAndPresetAllowsShorterSequences) {
    auto custom = parse(withBatch(
        R"("model": {"n_layer": 2, "n_head": 4, "n_embd": 64, "seq_len": 32, "vocab_size": 300})"));
    ASSERT_TRUE(custom.ok()) << dump(custom);
    EXPECT_EQ(custom.config->model.shape.padded_vocab_size, 384);
    EXPECT_EQ(custom.config->model.seq_len, 32);
    auto preset = parse(withBatch(R"("model": {"preset": "gpt2-124m", "seq_len": 256})"));
    ASSERT_TRUE(preset.ok()) << dump(preset);
    EXPECT_EQ(preset.config->model.shape.seq_len, 1024);
    EXPECT_EQ(preset.config->model.seq_len, 256);
    EXPECT_EQ(preset.config->model.shape.padded_vocab_size, 50304);
}

TEST(ConfigErrors, DataFilesMustExist) {
    auto r = parse(withBatch(R"("data": {"type": "llmc", "path": "/nonexistent/shard.bin"})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "data.path", "does not exist"), nullptr) << dump(r);
    auto ok = parse(withBatch(R"("data": {"type": "text", "path": ")" ZEROLAB_SOURCE_DIR
                              R"(/CMakeLists.txt"})"));
    EXPECT_TRUE(ok.ok()) << dump(ok);
}

TEST(ConfigErrors, OptimizerNamesAndAdamWMode) {
    auto adam = parse(withBatch(R"("optimizer": {"type": "adam", "params": {"adam_w_mode": false,
                                   "weight_decay": 0.1}})"));
    ASSERT_TRUE(adam.ok()) << dump(adam);
    EXPECT_EQ(adam.config->optimizer.type, OptimizerType::Adam);
    EXPECT_FALSE(adam.config->optimizer.decoupled_weight_decay);
    auto deflt = parse(withBatch(R"("optimizer": {"type": "Adam"})"));
    ASSERT_TRUE(deflt.ok()) << dump(deflt);
    EXPECT_TRUE(deflt.config->optimizer.decoupled_weight_decay);
    auto typo = parse(withBatch(R"("optimizer": {"type": "AdamX"})"));
    EXPECT_NE(findError(typo, "optimizer.type", "did you mean"), nullptr) << dump(typo);
}

TEST(ConfigErrors, SchedulerParametersBelongToTheirType) {
    auto r = parse(withBatch(R"("scheduler": {"type": "WarmupLR",
        "params": {"cos_min_ratio": 0.1, "warmup_typ": "log"}})"));
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "scheduler.params.cos_min_ratio", "not a parameter of WarmupLR"),
              nullptr)
        << dump(r);
    EXPECT_NE(findError(r, "scheduler.params.warmup_typ", "did you mean \"warmup_type\"?"), nullptr)
        << dump(r);
}

TEST(ConfigErrors, DefaultsMatchDeepSpeed) {
    auto r = parse(withBatch(R"("zero_optimization": {"stage": 3})"));
    ASSERT_TRUE(r.ok()) << dump(r);
    const TrainConfig& c = *r.config;
    EXPECT_TRUE(c.zero.overlap_comm); // DeepSpeed turns it on for stage 3
    EXPECT_TRUE(c.zero.allgather_partitions);
    EXPECT_TRUE(c.zero.reduce_scatter);
    EXPECT_EQ(c.zero.reduce_bucket_size, 500000000);
    EXPECT_EQ(c.steps_per_print, 10);
    EXPECT_EQ(c.gradient_clipping, 0.0);
    EXPECT_EQ(c.model.preset, "nano");
    EXPECT_EQ(c.data.type, DataType::Synthetic);
    EXPECT_EQ(c.scheduler.type, SchedulerType::None);
}

TEST(ConfigErrors, TopLevelMustBeAnObject) {
    auto r = parseConfig(nlohmann::json::array(), std::nullopt, "list.json");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(findError(r, "", "list.json must hold a JSON object"), nullptr) << dump(r);
}

} // namespace
} // namespace zerolab::test
