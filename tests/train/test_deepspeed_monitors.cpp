// A DeepSpeed config with every monitoring section (tensorboard, csv_monitor,
// comms_logger, flops_profiler, wall_clock_breakdown, wandb) and offload_optimizer runs
// unchanged under mpirun -np 2, and each file and printout reads back: the event file
// decoded and CRC-checked, the CSV columns, the timer lines, the comms logger's lines and
// its table whose latencies sum to the store's collective times of rank 0, the flops
// profile's count equal to model_flops.h's, and the offload forecast warned, not run.
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/config/config.h"
#include "runtime/model/model_flops.h"
#include "runtime/monitor/ds_text.h"
#include "runtime/monitor/event_file.h"
#include "runtime/planner/planner.h"
#include "storage/run_reader.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l.empty() || l.back() != '\r' ? l : l.substr(0, l.size() - 1));
    return out;
}

std::string trim(std::string s) {
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    while (!s.empty() && s.front() == ' ')
        s.erase(s.begin());
    return s;
}

class DeepSpeedMonitors : public ::testing::Test {
protected:
    test::TempDir m_temp{"dsmon"};
    const fs::path m_dir = m_temp.path();
};

TEST_F(DeepSpeedMonitors, EveryFileAndPrintoutOfADeepSpeedConfig) {
    const nlohmann::json config = {
        {"train_batch_size", 8},
        {"train_micro_batch_size_per_gpu", 2},
        {"gradient_accumulation_steps", 2},
        {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
        {"zero_optimization",
         {{"stage", 2}, {"offload_optimizer", {{"device", "cpu"}, {"pin_memory", true}}}}},
        {"steps_per_print", 2},
        {"wall_clock_breakdown", true},
        {"tensorboard",
         {{"enabled", true}, {"output_path", (m_dir / "tb").string()}, {"job_name", "job"}}},
        {"csv_monitor",
         {{"enabled", true}, {"output_path", (m_dir / "csv").string()}, {"job_name", "job"}}},
        {"comms_logger", {{"enabled", true}, {"verbose", true}, {"prof_all", true}}},
        {"flops_profiler",
         {{"enabled", true},
          {"profile_step", 1},
          {"module_depth", -1},
          {"top_modules", 1},
          {"detailed", true},
          {"output_file", (m_dir / "flops" / "profile.txt").string()}}},
        {"wandb", {{"enabled", true}, {"project", "x"}}},
        {"model", {{"preset", "nano"}, {"seq_len", 16}}},
        {"run", {{"steps", 4}, {"threads", 1}, {"timeline_every", 2}}}};
    const fs::path cfg = m_dir / "ds.json";
    std::ofstream(cfg) << config.dump(2);
    const std::string db = (m_dir / "runs.db").string();
    const auto r = test::runProcess(test::mpirunTrain(2, {"--config", cfg.string(), "--db", db}));
    ASSERT_EQ(r.exit_code, 0) << r.err;

    RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
    const RunSummary run = reader.listRuns().front();
    const std::vector<StepRecord> steps = reader.steps(run.id);
    ASSERT_EQ(steps.size(), 4u);

    // wandb and the offload: warnings, once; the ledger holds every state.
    EXPECT_NE(r.err.find("warning: wandb: ignored: zerolab sends nothing over the network; "
                         "turn on \"tensorboard\" or \"csv_monitor\""),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("is forecast, not run: on the CPU backend device and host are the "
                         "same memory"),
              std::string::npos)
        << r.err;
    const ConfigResult parsed = loadConfigFile(cfg.string(), 2);
    ASSERT_TRUE(parsed.ok());
    const StagePlan predicted = predictRun(*parsed.config);
    EXPECT_GT(predicted.host_bytes, 0);
    EXPECT_EQ(predicted.per_rank[MemCategory::OptimM], 0);
    for (const RankRecord& rank : reader.rankRows(run.id, 4))
        for (MemCategory c : {MemCategory::Params, MemCategory::MasterParams, MemCategory::Grads,
                              MemCategory::OptimM, MemCategory::OptimV})
            EXPECT_EQ(rank.mem[c], predicted.ledger()[c])
                << "rank " << rank.rank << " " << memCategoryName(c);

    // TensorBoard: one file under output_path/job_name, DeepSpeed's tags at samples.
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(m_dir / "tb" / "job"))
        files.push_back(e.path());
    ASSERT_EQ(files.size(), 1u);
    EXPECT_EQ(files[0].filename().string().rfind("events.out.tfevents.", 0), 0u);
    const std::vector<ScalarEvent> events = readEventFile(files[0].string());
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events[0].file_version, "brain.Event:2");
    std::map<std::string, std::map<std::int64_t, float>> byTag;
    for (std::size_t i = 1; i < events.size(); ++i)
        byTag[events[i].tag][events[i].step] = events[i].value;
    for (const StepRecord& s : steps) {
        EXPECT_FLOAT_EQ(byTag["Train/Samples/train_loss"].at((s.step - 1) * 8),
                        static_cast<float>(s.loss));
        EXPECT_FLOAT_EQ(byTag["Train/Samples/lr"].at(s.step * 8), static_cast<float>(s.lr));
        EXPECT_FLOAT_EQ(byTag["Zerolab/Samples/tokens_per_s"].at(s.step * 8),
                        static_cast<float>(s.tokens_per_s));
        for (const char* t :
             {"Train/Samples/elapsed_time_ms_forward", "Train/Samples/elapsed_time_ms_backward",
              "Train/Samples/elapsed_time_ms_backward_inner",
              "Train/Samples/elapsed_time_ms_backward_allreduce",
              "Train/Samples/elapsed_time_ms_step", "Zerolab/Samples/rank0/mem_params_bytes",
              "Zerolab/Samples/rank1/mem_optim_m_bytes", "Zerolab/Samples/reduce_scatter_ms",
              "Zerolab/Samples/reduce_scatter_traffic_bytes"})
            EXPECT_TRUE(byTag[t].contains(s.step * 8)) << t << " at step " << s.step;
    }
    EXPECT_FLOAT_EQ(byTag["Zerolab/Samples/rank0/mem_params_bytes"].at(8),
                    static_cast<float>(reader.rankRows(run.id, 1)[0].mem[MemCategory::Params]));

    // CSV: one file per tag, columns step and the tag's last part.
    const auto loss = linesOf(readAll(m_dir / "csv" / "job" / "Train_Samples_train_loss.csv"));
    ASSERT_EQ(loss.size(), 5u);
    EXPECT_EQ(loss[0], "step,train_loss");
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string& row = loss[i + 1];
        const std::size_t comma = row.find(',');
        EXPECT_EQ(std::stoll(row.substr(0, comma)), static_cast<long long>(i) * 8);
        EXPECT_EQ(std::stod(row.substr(comma + 1)), steps[i].loss) << row;
    }
    const auto lr = linesOf(readAll(m_dir / "csv" / "job" / "Train_Samples_lr.csv"));
    ASSERT_EQ(lr.size(), 5u);
    EXPECT_EQ(lr[0], "step,lr");
    EXPECT_EQ(lr[4].substr(0, 3), "32,");
    EXPECT_TRUE(fs::exists(m_dir / "csv" / "job" / "Zerolab_Samples_tokens_per_s.csv"));
    EXPECT_EQ(linesOf(readAll(m_dir / "csv" / "job" / "Train_Samples_elapsed_time_ms_step.csv"))[0],
              "step,elapsed_time_ms_step");

    // wall_clock_breakdown: the timer line every steps_per_print (steps 2 and 4).
    std::size_t timers = 0;
    std::map<std::string, std::size_t> verbose;
    std::size_t tableAt = std::string::npos;
    const std::vector<std::string> err = linesOf(r.err);
    for (std::size_t i = 0; i < err.size(); ++i) {
        if (err[i].rfind("[Rank 0] time (ms) | fwd: ", 0) == 0) {
            ++timers;
            EXPECT_NE(err[i].find(" | bwd_inner: "), std::string::npos) << err[i];
            EXPECT_NE(err[i].find(" | bwd_allreduce: "), std::string::npos) << err[i];
        }
        if (err[i].rfind("[Rank 0] comm op: ", 0) == 0) {
            const std::string op = err[i].substr(18, err[i].find(" | ") - 18);
            ++verbose[op];
            EXPECT_NE(err[i].find(" | busbw (Gbps): "), std::string::npos) << err[i];
        }
        if (err[i].rfind("Comm. Op", 0) == 0)
            tableAt = i;
    }
    EXPECT_EQ(timers, 2u) << r.err;
    ASSERT_FALSE(verbose.empty()) << r.err;

    // log_summary: per op the counts are the verbose lines, the total latencies (2
    // decimals each row) sum to rank 0's stored collective times over the steps.
    ASSERT_NE(tableAt, std::string::npos) << r.err;
    EXPECT_NE(err[tableAt].find("Total Latency(ms)"), std::string::npos);
    std::map<std::string, double> tableMs;
    std::map<std::string, std::size_t> tableCount, tableRows;
    std::string op;
    for (std::size_t i = tableAt + 1; i < err.size(); ++i) {
        const std::string& l = err[i];
        if (l.rfind("                    ", 0) == 0 && l.size() >= 80 && !op.empty()) {
            tableCount[op] += std::stoul(trim(l.substr(40, 20)));
            tableMs[op] += std::stod(trim(l.substr(60, 20)));
            ++tableRows[op];
        } else if (l == "all_reduce" || l == "reduce_scatter_tensor" ||
                   l == "all_gather_into_tensor" || l == "broadcast") {
            op = l;
        } else {
            break;
        }
    }
    EXPECT_EQ(tableCount, verbose);
    std::map<std::string, double> stored;
    for (const StepRecord& s : steps) {
        const RankRecord r0 = reader.rankRows(run.id, s.step).at(0);
        stored["all_reduce"] += r0.comm.allreduce_ms;
        stored["reduce_scatter_tensor"] += r0.comm.reduce_scatter_ms;
        stored["all_gather_into_tensor"] += r0.comm.allgather_ms;
        stored["broadcast"] += r0.comm.broadcast_ms;
    }
    for (const auto& [name, ms] : stored) {
        if (!tableMs.contains(name)) {
            EXPECT_EQ(ms, 0) << name;
            continue;
        }
        EXPECT_NEAR(tableMs[name], ms, 0.005 * tableRows[name] + 1e-9) << name;
    }
    EXPECT_GT(tableCount["reduce_scatter_tensor"], 0u); // stage 2 reduce-scatters

    // The step timeline still sees rank 0's collectives through the comms logger: the
    // sampled steps' collective spans of rank 0 are the verbose lines of those steps.
    std::size_t sampled = 0;
    for (long long step : reader.timelineSteps(run.id)) {
        const auto tl = reader.timeline(run.id, step);
        ASSERT_TRUE(tl.has_value());
        for (const TimelineSpan& span : tl->spans)
            sampled += span.rank == 0 && span.kind == SpanKind::Collective;
    }
    EXPECT_FALSE(reader.timelineSteps(run.id).empty());
    EXPECT_GT(sampled, 0u);

    // flops_profiler: DeepSpeed's profile_step 1 is the second optimizer step.
    const std::string profile = readAll(m_dir / "flops" / "profile.txt");
    EXPECT_NE(profile.find("Profile Summary at step 2:"), std::string::npos) << profile;
    const ModelShape nano = *findModelPreset("nano");
    const double fwd_flops = modelFlopsPerToken(nano, 16) * (2 * 16 * 2) / 3;
    EXPECT_NE(
        profile.find("fwd flops per GPU:" + std::string(52, ' ') + "  " + dsNumber(fwd_flops)),
        std::string::npos)
        << profile;
    EXPECT_NE(profile.find("params per GPU:" + std::string(55, ' ') + "  " +
                           dsParams(static_cast<double>(paramCount(nano)))),
              std::string::npos)
        << profile;
    EXPECT_NE(profile.find("Detailed Profile per GPU"), std::string::npos);
}

} // namespace
} // namespace zerolab
