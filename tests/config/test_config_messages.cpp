// The validator's findings as Messages (ConfigDiagnostic::text): their English rendering
// is the message every command-line tool printed before they were Messages (the texts
// below are zerolab-train --check-config's output at the commit before), and a
// translator reaches every template, nested ones included, while paths and values stay.
#include "config_test_util.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using test::dump;
using test::parse;

TEST(ConfigMessages, EnglishIsThePreviousText) {
    EXPECT_EQ(dump(parse(R"({"train_batch_size": "two", "zero_optimization": {"stage": 7,
        "overlap_comm": 3, "reduce_bucket_size": "auto"}, "gradient_clipping": -1,
        "steps_per_print": 0})",
                         2)),
              "test.json: train_batch_size: expected an integer 1-2147483647, got \"two\"\n"
              "test.json: gradient_clipping: expected a number >= 0 (0: off), got -1\n"
              "test.json: zero_optimization.stage: expected an integer 0-3, got 7\n"
              "test.json: zero_optimization.overlap_comm: expected true or false, got 3\n"
              "test.json: steps_per_print: expected an integer 1-2147483647, got 0\n");
    EXPECT_EQ(dump(parse(R"({"train_batch_size": 8, "scheduler": {"type": "WarmupCosineLR",
        "params": {"warmup_num_steps": 10, "total_num_steps": 5, "warmup_max_lr": 1,
        "last_batch_iteration": 1, "cos_min_ratio": 2, "warmup_type": "cubic", "decay_rate": 1,
        "warmup_min_rati": 1}}})",
                         2)),
              "test.json: scheduler.params.decay_rate: unknown parameter of WarmupCosineLR\n"
              "test.json: warning: scheduler.params.last_batch_iteration: ignored: zerolab "
              "starts schedules at step 0\n"
              "test.json: scheduler.params.warmup_max_lr: not a parameter of WarmupCosineLR\n"
              "test.json: scheduler.params.warmup_min_rati: unknown parameter of WarmupCosineLR "
              "(did you mean \"warmup_min_ratio\"?)\n"
              "test.json: scheduler.params.warmup_type: expected one of \"log\", \"linear\", got "
              "\"cubic\"\n"
              "test.json: scheduler.params.cos_min_ratio: expected a number in [0, 1], got 2\n"
              "test.json: scheduler.params.total_num_steps: 5 must exceed warmup_num_steps (10, "
              "at least 2 as in DeepSpeed): the cosine phase would have no steps\n");
    EXPECT_EQ(dump(parse(R"({"train_batch_size": 8, "zero_optimization": {"stagee": 1,
        "round_robin_gradients": {}, "foo_bar_baz": 1}, "run": {"completely_different": 1},
        "amp": {}})",
                         2)),
              "test.json: warning: amp: DeepSpeed setting not implemented by zerolab; ignored\n"
              "test.json: run.completely_different: unknown key\n"
              "test.json: warning: zero_optimization.foo_bar_baz: unknown key, not a setting "
              "zerolab knows; ignored\n"
              "test.json: warning: zero_optimization.round_robin_gradients: DeepSpeed setting not "
              "implemented by zerolab; ignored\n"
              "test.json: zero_optimization.stagee: unknown key (did you mean \"stage\"?)\n");
    EXPECT_EQ(
        dump(parse(R"({"train_batch_size": 8, "model": {"preset": "nano", "n_layer": 99,
        "seq_len": 99999}})",
                   2)),
        "test.json: model.n_layer: 99 differs from preset \"nano\" (2); remove it, or give "
        "a custom shape instead\n"
        "test.json: model.seq_len: 99999 exceeds the maximum context 64 of preset \"nano\"\n");
}

TEST(ConfigMessages, EveryDiagnosticIsItsMessageRendered) {
    const ConfigResult r = parse(R"({"train_batch_size": 7, "train_micro_batch_size_per_gpu": 2,
        "optimizer": {"type": "Lamb"}, "model": {"preset": "nan0"}, "bf16": {"enabled": true},
        "bfloat16": {"enabled": true}})",
                                 2);
    ASSERT_GE(r.diagnostics.size(), 4u) << dump(r);
    for (const ConfigDiagnostic& d : r.diagnostics) {
        EXPECT_EQ(d.text.context, "ConfigCheck") << d.message;
        EXPECT_EQ(d.message, renderEnglish(d.text));
    }
}

// Every template, nested ones too, goes through the translator; literal arguments (the
// value quoted from the JSON, the numbers) do not.
TEST(ConfigMessages, TranslatorReachesNestedTemplatesNotValues) {
    const ConfigResult r =
        parse(R"({"train_batch_size": 8, "zero_optimization": {"stage": 7}})", 2);
    const ConfigDiagnostic* d = test::findError(r, "zero_optimization.stage");
    ASSERT_NE(d, nullptr) << dump(r);
    std::vector<std::string> seen;
    const std::string shown =
        renderMessage(d->text, [&](const std::string& context, const std::string& source) {
            seen.push_back(context + "|" + source);
            return "<" + source + ">";
        });
    EXPECT_EQ(shown, "<expected <an integer 0-3>, got 7>");
    EXPECT_EQ(seen, (std::vector<std::string>{"ConfigCheck|expected %1, got %2",
                                              "ConfigCheck|an integer %1-%2"}));
}

} // namespace
} // namespace zerolab
