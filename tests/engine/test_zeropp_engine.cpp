// ZeRO++ in the engine under real mpiruns: for qwZ, hpZ, qgZ and all three, at N = 2 and 4
// with hosts (and hpZ groups) of 2 ranks, every rank's ledger is the planner's forecast
// byte for byte and the traffic the communicator counted (per kind, all-to-all, within and
// across hosts) is the planner's; the losses stay within 2% of plain stage 3's; and a
// checkpoint of a ZeRO++ run resumes as plain stage 3 and back; qgZ's overlapped hop sums
// what its blocking reduction sums.
#include "tests/engine/engine_runs.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace zerolab {
namespace {

using test::train;

nlohmann::json zeropp(bool qwz, int hpz, bool qgz) {
    return {{"zero_optimization",
             {{"zero_quantized_weights", qwz},
              {"zero_hpz_partition_size", hpz},
              {"zero_quantized_gradients", qgz}}},
            {"run", {{"ranks_per_host", 2}}}};
}

struct Variant {
    const char* name;
    bool qwz;
    int hpz;
    bool qgz;
};
constexpr Variant kVariants[] = {{"qwZ", true, 1, false},
                                 {"hpZ", false, 2, false},
                                 {"qgZ", false, 1, true},
                                 {"all", true, 2, true}};

TEST(ZeroPP, LedgerAndTrafficAreThePlannersForEveryVariant) {
    for (int n : {2, 4}) {
        const test::RunOutput plain = train(n, 3, 1, true, true, zeropp(false, 1, false));
        test::expectLedgerEqualsPlanner(plain, n);
        const double plainAcross = plain.comm["across_traffic_bytes"].get<double>();
        if (n == 4) {
            EXPECT_GT(plainAcross, 0.0);
        }
        for (const Variant& v : kVariants) {
            SCOPED_TRACE(std::string(v.name) + ", n " + std::to_string(n));
            const test::RunOutput got = train(n, 3, 1, true, true, zeropp(v.qwz, v.hpz, v.qgz));
            ASSERT_EQ(got.losses.size(), static_cast<std::size_t>(test::kSteps));
            test::expectLedgerEqualsPlanner(got, n);
            if (n == 4) {
                EXPECT_LT(got.comm["across_traffic_bytes"].get<double>(), plainAcross);
            }
        }
    }
    // fp32 and gradient accumulation: all three at N = 4.
    const test::RunOutput fp32 = train(4, 3, 3, true, false, zeropp(true, 2, true));
    test::expectLedgerEqualsPlanner(fp32, 4);
    // qgZ says once which units fall back to the reduce-scatter (the final layernorm's).
    int fallbacks = 0;
    for (const std::string& e : fp32.events)
        fallbacks += e.find("qgZ: unit") != std::string::npos;
    EXPECT_GE(fallbacks, 1);
}

// The bound: every step's loss within 2% of plain stage 3's (the bar after 300
// steps, here for each of 20) on the same data and seed, at lr 1e-3: at the engine tests'
// 3e-3 nano's loss spikes by 10% at step 18 of plain stage 3 itself, and a quantized run
// spikes at other steps.
TEST(ZeroPP, LossesStayWithinTwoPercentOfPlainStage3) {
    const nlohmann::json steps = {{"run", {{"steps", 20}}},
                                  {"optimizer", {{"params", {{"lr", 1e-3}}}}}};
    nlohmann::json plainPatch = zeropp(false, 1, false);
    plainPatch.merge_patch(steps);
    const test::RunOutput plain = train(4, 3, 1, true, true, plainPatch);
    for (const Variant& v : kVariants) {
        nlohmann::json patch = zeropp(v.qwz, v.hpz, v.qgz);
        patch.merge_patch(steps);
        const test::RunOutput got = train(4, 3, 1, true, true, patch);
        ASSERT_EQ(got.losses.size(), plain.losses.size()) << v.name;
        for (std::size_t i = 0; i < got.losses.size(); ++i)
            EXPECT_NEAR(got.losses[i], plain.losses[i], 0.02 * plain.losses[i])
                << v.name << ", step " << i + 1;
        // Quantization changes the numbers: the runs are not the plain one.
        if (v.qwz || v.qgz) {
            EXPECT_NE(got.losses.back(), plain.losses.back()) << v.name;
        }
    }
}

// qgZ's across-host hop left in flight over the next unit's backward (overlap_comm) sums
// the same numbers as the blocking reduction: every step's loss and the final parameters
// are bit for bit those of the run without overlap, with accumulation (the hop completes
// at each micro-step's end) and with all three on.
TEST(ZeroPP, QgzInFlightSumsWhatTheBlockingReductionSums) {
    nlohmann::json patch = zeropp(true, 2, true);
    patch.merge_patch({{"run", {{"steps", 6}}}});
    const test::RunOutput overlapped = train(4, 3, 3, true, true, patch);
    const test::RunOutput blocking = train(4, 3, 3, false, true, patch);
    ASSERT_EQ(overlapped.losses.size(), 6u);
    EXPECT_EQ(overlapped.losses, blocking.losses);
    EXPECT_EQ(overlapped.params, blocking.params);
}

// A ZeRO++ checkpoint holds the exact owned state (master, m, v), so plain stage 3 resumes
// from it, and ZeRO++ resumes from plain stage 3's, each near the other's own run.
TEST(ZeroPP, CheckpointResumesAsPlainStage3AndBack) {
    namespace fs = std::filesystem;
    const test::TempDir temp("zeropp");
    const fs::path dir = temp.path();
    auto config = [&](const std::string& name, bool on) {
        nlohmann::json c = {{"bf16", {{"enabled", true}}},
                            {"train_batch_size", 16},
                            {"zero_optimization", {{"stage", 3}}},
                            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
                            {"run",
                             {{"steps", 4},
                              {"seed", 7},
                              {"threads", 1},
                              {"checkpoint_every", 2},
                              {"checkpoint_dir", (dir / "ckpt").string()}}}};
        c.merge_patch(zeropp(on, on ? 2 : 1, on));
        std::ofstream(dir / name) << c.dump();
        return std::vector<std::string>{"--config", (dir / name).string(), "--db",
                                        (dir / "runs.db").string()};
    };
    for (bool fromZeroPP : {true, false}) {
        SCOPED_TRACE(fromZeroPP ? "ZeRO++ to plain" : "plain to ZeRO++");
        const auto first = test::runProcess(test::mpirunTrain(4, config("a.json", fromZeroPP)));
        ASSERT_EQ(first.exit_code, 0) << first.err;
        const auto [losses, id] = test::stepLosses(first.out);
        ASSERT_EQ(losses.size(), 4u);
        std::vector<std::string> resume = config("b.json", !fromZeroPP);
        resume.push_back("--resume");
        resume.push_back((dir / "ckpt" / ("run-" + std::to_string(id)) / "step-2").string());
        const auto resumed = test::runProcess(test::mpirunTrain(4, resume));
        ASSERT_EQ(resumed.exit_code, 0) << resumed.err;
        const auto [after, resumedId] = test::stepLosses(resumed.out);
        ASSERT_EQ(after.size(), 2u);
        EXPECT_EQ(resumedId, id);
        for (std::size_t i = 0; i < 2; ++i)
            EXPECT_NEAR(after[i], losses[2 + i], 0.02 * losses[2 + i]) << "step " << 3 + i;
    }
}

} // namespace
} // namespace zerolab
