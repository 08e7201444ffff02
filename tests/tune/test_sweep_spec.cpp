// The sweep file: every problem reported at once, naming the file and the JSON path; the
// batch rule when the micro-batch moves; the guided order's decisions over recorded trials.
#include "tests/support/temp_dir.h"

#include "runtime/config/config_paths.h"
#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_report.h"
#include "runtime/tune/sweep_spec.h"
#include "runtime/tune/sweep_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

nlohmann::json nanoBase() {
    return {{"train_batch_size", 8},
            {"train_micro_batch_size_per_gpu", 2},
            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
            {"run", {{"steps", 5}, {"threads", 1}}}};
}

std::string errorOf(const nlohmann::json& doc) {
    try {
        parseSweepJson(doc, "s.json");
    } catch (const SweepError& e) {
        return e.what();
    }
    return "";
}

TEST(SweepSpec, NamesFileAndPathOfEveryProblem) {
    const nlohmann::json doc = {
        {"base", nanoBase()},   {"axes", {{"world", {1, 0}}, {"zero_optimization.stage", 2}}},
        {"strategy", "random"}, {"capacity", "moon"},
        {"measure_steps", 0},   {"trial_timout_s", 5}};
    const std::string e = errorOf(doc);
    EXPECT_NE(e.find("s.json: axes.world[1]: N must be an integer from 1 to 4096, got 0"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("s.json: axes.zero_optimization.stage: expected a non-empty list"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("s.json: strategy: expected \"grid\" or \"guided\", got \"random\""),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("s.json: capacity: expected \"host\""), std::string::npos) << e;
    EXPECT_NE(e.find("s.json: measure_steps: expected an integer from 1"), std::string::npos) << e;
    EXPECT_NE(e.find("s.json: trial_timout_s: unknown key"), std::string::npos) << e;
}

// A sweep's trials may not choose where they write (csv_monitor.output_path as root
// overwrote a file): every written path key, in the base or set by an axis, is refused
// naming the file and the JSON path; data they read stays allowed.
TEST(SweepSpec, TrialsMayNotChooseWhereTheyWrite) {
    for (const ConfigPathKey& k : kConfigPathKeys) {
        nlohmann::json base = nanoBase();
        nlohmann::json value = "/etc/passwd";
        std::string path;
        for (auto it = k.keys.rbegin(); it != k.keys.rend(); ++it)
            if (!it->empty()) {
                value = nlohmann::json{{std::string(*it), value}};
                path = std::string(*it) + (path.empty() ? "" : ".") + path;
            }
        base.merge_patch(value);
        const std::string inBase = errorOf({{"base", base}, {"axes", {{"world", {1}}}}});
        const std::string inAxis = errorOf(
            {{"base", nanoBase()},
             {"axes",
              {{path.substr(0, path.find('.')), {value[path.substr(0, path.find('.'))]}}}}});
        if (k.read) {
            EXPECT_EQ(inBase.find("may not choose"), std::string::npos) << inBase;
            EXPECT_EQ(inAxis.find("may not choose"), std::string::npos) << inAxis;
            continue;
        }
        EXPECT_NE(inBase.find("s.json: base." + path +
                              ": a sweep's trials may not choose where they write files"),
                  std::string::npos)
            << inBase;
        EXPECT_NE(inAxis.find("s.json: axes." + path.substr(0, path.find('.')) + "[0]: sets " +
                              path + ": a sweep's trials may not choose"),
                  std::string::npos)
            << inAxis;
    }
    const std::string dotted =
        errorOf({{"base", nanoBase()}, {"axes", {{"run.checkpoint_dir", {"a", "/tmp/b"}}}}});
    EXPECT_NE(dotted.find("s.json: axes.run.checkpoint_dir[1]: sets run.checkpoint_dir"),
              std::string::npos)
        << dotted;
}

TEST(SweepSpec, BaseFileRelativeToTheSweepAndItsErrorsNamed) {
    const test::TempDir temp("spec");
    const fs::path dir = temp.path();
    std::ofstream(dir / "s.json") << R"({"base": "missing.json", "axes": {"world": [1]}})";
    try {
        parseSweepFile((dir / "s.json").string());
        FAIL() << "no error";
    } catch (const SweepError& e) {
        EXPECT_NE(std::string(e.what()).find((dir / "s.json").string() +
                                             ": base: " + (dir / "missing.json").string()),
                  std::string::npos)
            << e.what();
    }
    std::ofstream(dir / "s.json") << "{\"base\": {}, \"axes\": {\"world\": [1,]}}";
    try {
        parseSweepFile((dir / "s.json").string());
        FAIL() << "no error";
    } catch (const SweepError& e) {
        EXPECT_EQ(std::string(e.what()).rfind((dir / "s.json").string() + ": byte ", 0), 0u)
            << e.what();
    }
}

TEST(SweepSpec, MicroBatchAxisMovesTheGlobalBatchOrTheAccumulation) {
    SweepSpec spec = parseSweepJson(
        {{"base", nanoBase()}, {"axes", {{"train_micro_batch_size_per_gpu", {1, 4}}}}}, "s.json");
    int world = 0;
    nlohmann::json doc = candidateConfig(spec, {{"train_micro_batch_size_per_gpu", 4}}, &world);
    EXPECT_EQ(world, 1); // the base's: N undecided by 8 and 2, so 1 (accumulation 4)
    EXPECT_EQ(doc["gradient_accumulation_steps"], 4);
    TrialRecord t = planTrial(spec, {{"train_micro_batch_size_per_gpu", 4}}, "search");
    EXPECT_EQ(trialConfig(t, "s.json").batch.train_batch_size, 16);
    spec.hold_global_batch = true;
    t = planTrial(spec, {{"train_micro_batch_size_per_gpu", 1}}, "search");
    const TrainConfig held = trialConfig(t, "s.json");
    EXPECT_EQ(held.batch.train_batch_size, 8);
    EXPECT_EQ(held.batch.grad_accum, 8);
    // 8 samples do not split into micro-batches of 3: the candidate is invalid,
    // with the config's own message.
    spec.axes[0].values = {3};
    t = planTrial(spec, {{"train_micro_batch_size_per_gpu", 3}}, "search");
    EXPECT_EQ(t.status, TrialStatus::Invalid);
    EXPECT_NE(t.reason.find("train_batch_size"), std::string::npos) << t.reason;
}

TrialRecord ran(int idx, int stage, int micro, double tps) {
    TrialRecord t;
    t.idx = idx;
    t.phase = "search";
    t.axes_json = nlohmann::json{
        {"zero_optimization.stage", stage},
        {"train_micro_batch_size_per_gpu",
         micro}}.dump();
    t.status = tps > 0 ? TrialStatus::Finished : TrialStatus::Pending;
    t.tokens_per_s = tps > 0 ? tps : kUnknown;
    t.spread_tokens_per_s = 1;
    return t;
}

TEST(SweepStrategy, GuidedStopsRaisingMicroBatchWhenThroughputStopsRising) {
    SweepSpec spec = parseSweepJson(
        {{"base", nanoBase()},
         {"axes",
          {{"zero_optimization.stage", {0, 1}}, {"train_micro_batch_size_per_gpu", {1, 2, 4, 8}}}},
         {"repeat_best", 1}},
        "s.json");
    // Stage 0: 100, 200, 150 -> micro 8 is skipped; stage 1's first is next.
    std::vector<TrialRecord> trials = {ran(0, 0, 1, 100), ran(1, 0, 2, 200), ran(2, 0, 4, 150),
                                       ran(3, 0, 8, 0),   ran(4, 1, 1, 0),   ran(5, 1, 2, 0)};
    SweepStep step = nextStep(spec, trials);
    ASSERT_EQ(step.updates.size(), 1u);
    EXPECT_EQ(step.updates[0].idx, 3);
    EXPECT_EQ(step.updates[0].status, TrialStatus::Skipped);
    EXPECT_NE(step.updates[0].reason.find("throughput stopped rising at micro-batch 4"),
              std::string::npos);
    ASSERT_TRUE(step.next);
    EXPECT_EQ(*step.next, 4);
    // Everything decided: the best (trial 1) is repeated once, then the sweep is done.
    trials[3].status = TrialStatus::Skipped;
    trials[4] = ran(4, 1, 1, 120);
    trials[5] = ran(5, 1, 2, 110);
    step = nextStep(spec, trials);
    ASSERT_EQ(step.additions.size(), 1u);
    EXPECT_EQ(step.additions[0].repeat_of, 1);
    EXPECT_FALSE(step.next);
    EXPECT_EQ(bestTrial(trials), 1);
}

TrialRecord measured(int idx, int micro, double tps, double spread, int repeat_of = -1) {
    TrialRecord t = ran(idx, 0, micro, tps);
    t.spread_tokens_per_s = spread;
    t.repeat_of = repeat_of;
    if (repeat_of >= 0)
        t.phase = "repeat";
    return t;
}

// Issue 27's sweep: trial 0 measured 9917 tokens/s, its repeat 4860, each run's own spread
// 100. The spread between the runs is part of the noise; the trial is measured again (a
// bounded number of times) and, while its runs keep disagreeing, the winner is unknown.
TEST(SweepVerdict, RepeatsThatDisagreeAreMeasuredAgainThenTheWinnerIsUnknown) {
    const SweepSpec spec = parseSweepJson({{"base", nanoBase()},
                                           {"axes", {{"train_micro_batch_size_per_gpu", {1, 2}}}},
                                           {"strategy", "grid"},
                                           {"repeat_best", 1}},
                                          "s.json");
    std::vector<TrialRecord> trials = {measured(0, 1, 9917, 100), measured(1, 2, 9000, 100)};
    SweepStep step = nextStep(spec, trials);
    ASSERT_EQ(step.additions.size(), 1u);
    EXPECT_EQ(step.additions[0].repeat_of, 0);
    trials.push_back(measured(2, 1, 4860, 100, 0));
    // Half the distance between 9917 and 4860, not the 100 within each run.
    SweepVerdict v = sweepVerdict(trials);
    EXPECT_DOUBLE_EQ(v.noise_tokens_per_s, (9917 - 4860) / 2.0);
    EXPECT_TRUE(v.within_noise);
    // The runs disagree beyond their spread: measured again, at most twice more.
    for (int again = 0; again < 2; ++again) {
        step = nextStep(spec, trials);
        ASSERT_EQ(step.additions.size(), 1u) << "measure again, round " << again;
        EXPECT_EQ(step.additions[0].repeat_of, 0);
        trials.push_back(measured(static_cast<int>(trials.size()), 1, 5000 + 100 * again, 100, 0));
    }
    step = nextStep(spec, trials);
    EXPECT_TRUE(step.additions.empty());
    EXPECT_FALSE(step.next);
    v = sweepVerdict(trials);
    const std::string text = formatVerdict(trials, v);
    EXPECT_NE(text.find("the winner is unknown"), std::string::npos) << text;
    EXPECT_NE(text.find("4860 to 9917 tokens/s"), std::string::npos) << text;
}

TEST(SweepVerdict, RepeatsWithinTheirSpreadAreNotMeasuredAgain) {
    const SweepSpec spec = parseSweepJson({{"base", nanoBase()},
                                           {"axes", {{"train_micro_batch_size_per_gpu", {1, 2}}}},
                                           {"strategy", "grid"},
                                           {"repeat_best", 1}},
                                          "s.json");
    const std::vector<TrialRecord> trials = {measured(0, 1, 9917, 100), measured(1, 2, 9000, 100),
                                             measured(2, 1, 9850, 100, 0)};
    const SweepStep step = nextStep(spec, trials);
    EXPECT_TRUE(step.additions.empty());
    EXPECT_FALSE(step.next);
    const SweepVerdict v = sweepVerdict(trials);
    EXPECT_DOUBLE_EQ(v.noise_tokens_per_s, 100);
    const std::string text = formatVerdict(trials, v);
    EXPECT_EQ(text.find("unknown"), std::string::npos) << text;
    EXPECT_NE(text.find("a clear win"), std::string::npos) << text; // 9850 - 9000 > 100
}

int threadsOf(const SweepSpec& spec, const nlohmann::json& point) {
    return trialConfig(planTrial(spec, point, "search"), "s.json").run.threads;
}

// Without an axis for them, every trial runs the same threads per rank, whatever its N:
// the runtime's rule at the sweep's largest N (the cores shared by its ranks).
TEST(SweepCandidates, ThreadsPerRankAreHeldAcrossTheWorldAxisAndShown) {
    nlohmann::json base = nanoBase();
    base["run"].erase("threads");
    base.erase("train_batch_size");
    SweepSpec spec = parseSweepJson(
        {{"base", base}, {"axes", {{"world", {1, 2}}}}, {"strategy", "grid"}}, "s.json");
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int held = std::max(1, cores / 2);
    EXPECT_EQ(threadsOf(spec, {{"world", 1}}), held);
    EXPECT_EQ(threadsOf(spec, {{"world", 2}}), held);
    std::vector<TrialRecord> trials;
    for (const int n : {1, 2}) {
        trials.push_back(planTrial(spec, {{"world", n}}, "search"));
        trials.back().idx = static_cast<int>(trials.size()) - 1;
    }
    const std::string table = formatSweepTable(spec, trials);
    const std::string header = table.substr(0, table.find('\n'));
    EXPECT_NE(header.find("threads"), std::string::npos) << table;
    // One unit convention (decimal, as the planner and the GUI), and the two memory
    // columns say what they measure.
    EXPECT_EQ(header.find("MiB"), std::string::npos) << table;
    EXPECT_NE(header.find("peak RSS"), std::string::npos) << table;
    EXPECT_NE(header.find("ledger forecast"), std::string::npos) << table;
    // The base's own threads, or an axis that varies them, are kept.
    base["run"]["threads"] = 1;
    spec.base = base;
    EXPECT_EQ(threadsOf(spec, {{"world", 2}}), 1);
    spec.axes = {{"run.threads", {1, 2}}};
    EXPECT_EQ(threadsOf(spec, {{"run.threads", 2}}), 2);
}

} // namespace
} // namespace zerolab
