// mpirun jobs of zerolab-train for the engine tests, and their shared checks.
#include "tests/engine/engine_runs.h"

#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/config/config.h"
#include "runtime/model/model_shape.h"
#include "runtime/planner/planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace zerolab::test {

namespace {

namespace fs = std::filesystem;

// A directory of this test process's own, removed when the process exits: a name from
// the pid alone was found again by a later process with the same pid, whose runs then
// opened an old store (of another schema) left there.
fs::path workDir() {
    static const TempDir dir("engine");
    return dir.path();
}

// patch: a JSON merge patch applied last.
std::string writeConfig(int stage, int accum, bool overlap, const std::string& tag, bool bf16,
                        const nlohmann::json& patch, const std::string& device) {
    nlohmann::json c = {
        {"bf16", {{"enabled", bf16}}},
        {"train_batch_size", kGlobalBatch},
        {"gradient_accumulation_steps", accum},
        {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 3e-3}, {"weight_decay", 0.01}}}}},
        {"gradient_clipping", 1.0},
        {"zero_optimization",
         {{"stage", stage}, {"overlap_comm", overlap}, {"reduce_bucket_size", 20000}}},
        {"model", {{"preset", "nano"}, {"seq_len", 16}}},
        {"data", {{"type", "synthetic"}}},
        {"run",
         {{"steps", kSteps},
          {"device", device},
          {"seed", 7},
          {"log_every", 1},
          {"threads", 1},
          {"checkpoint_dir", (workDir() / "ckpt").string()}}},
    };
    c.merge_patch(patch);
    const fs::path p = workDir() / ("cfg-" + tag + ".json");
    std::ofstream(p) << c.dump(2);
    return p.string();
}

// The exported parameters in file order: an llm.c model file (GPT-2: 256 ints of header,
// then fp32), or a safetensors file (a Llama model: an 8-byte header length, the JSON
// header, then every tensor in F32, back to back in the order it wrote them).
std::vector<float> readExportedParams(const std::string& path) {
    if (!fs::exists(path))
        return {};
    std::ifstream in(path, std::ios::binary);
    if (fs::path(path).extension() == ".safetensors") {
        std::uint64_t header = 0;
        in.read(reinterpret_cast<char*>(&header), sizeof header);
        const std::size_t data = fs::file_size(path) - sizeof header - header;
        std::vector<float> p(data / sizeof(float));
        in.seekg(static_cast<std::streamoff>(sizeof header + header));
        in.read(reinterpret_cast<char*>(p.data()), static_cast<std::streamsize>(p.size() * 4));
        return p;
    }
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    std::vector<float> p((size - 256 * sizeof(int)) / sizeof(float));
    in.seekg(256 * sizeof(int));
    in.read(reinterpret_cast<char*>(p.data()), static_cast<std::streamsize>(p.size() * 4));
    return p;
}

} // namespace

RunOutput train(int n, int stage, int accum, bool overlap, bool bf16, const nlohmann::json& patch,
                const std::string& device, const std::string& program, const Launcher& launcher) {
    std::string tag = "n" + std::to_string(n) + "-s" + std::to_string(stage) + "-a" +
                      std::to_string(accum) + (overlap ? "-o" : "") + (bf16 ? "-bf16" : "") +
                      (device == "cpu" ? "" : "-" + device) +
                      (program.empty() ? "" : "-" + fs::path(program).filename().string()) +
                      (launcher.argv ? "-" + launcher.name : "");
    const nlohmann::json flat = patch.empty() ? nlohmann::json::object() : patch.flatten();
    for (const auto& [k, v] : flat.items()) {
        std::string key = k.substr(1); // "/zero_optimization/reduce_scatter"
        std::replace(key.begin(), key.end(), '/', '.');
        tag += "-" + key + "-" + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    // A Llama model exports safetensors (runtime/engine/model_weights.h), GPT-2 llm.c's file.
    const bool llama = patch.contains("model") && patch["model"].contains("preset") &&
                       patch["model"]["preset"].get<std::string>().rfind("llama", 0) == 0;
    const std::string model =
        (workDir() / ("model-" + tag + (llama ? ".safetensors" : ".bin"))).string();
    const std::vector<std::string> args = {
        "--config",       writeConfig(stage, accum, overlap, tag, bf16, patch, device),
        "--db",           (workDir() / "runs.db").string(),
        "--run-name",     tag,
        "--export-model", model};
    const std::string binary = program.empty() ? toolPath("zerolab-train") : program;
    auto r = runProcess(launcher.argv ? launcher.argv(n, binary, args) : mpirun(n, binary, args));
    EXPECT_EQ(r.exit_code, 0) << tag << "\n" << r.err;
    RunOutput out;
    out.config_path = (workDir() / ("cfg-" + tag + ".json")).string();
    out.db_path = (workDir() / "runs.db").string();
    out.run_name = tag;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        const auto j = nlohmann::json::parse(line); // stdout holds nothing but JSON lines
        if (j["type"] == "step") {
            out.losses.push_back(j["loss"].get<double>());
            out.ranks = j["ranks"].get<std::vector<nlohmann::json>>();
            out.comm = j["comm"];
        } else if (j["type"] == "event") {
            out.events.push_back(j["message"].get<std::string>());
        } else if (j["type"] == "run") {
            out.psi = j["params"].get<std::int64_t>();
        }
    }
    out.params = readExportedParams(model);
    return out;
}

std::pair<std::vector<double>, long long> stepLosses(const std::string& out) {
    std::vector<double> losses;
    long long runId = -1;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        const auto j = nlohmann::json::parse(line);
        if (j["type"] == "step")
            losses.push_back(j["loss"].get<double>());
        else if (j["type"] == "run")
            runId = j["run_id"].get<long long>();
    }
    return {losses, runId};
}

double relDiff(const std::vector<float>& a, const std::vector<float>& b) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
        den += double(b[i]) * b[i];
    }
    return std::sqrt(num / den);
}

// docs/architecture.md fp32 model states per rank (K = 8): 0: 16psi; 1: 8psi + 8psi/N;
// 2: 4psi + 12psi/N; 3: 16psi/N.
double designModelStates(int stage, double psi, int n) {
    switch (stage) {
    case 0:
        return 16 * psi;
    case 1:
        return 8 * psi + 8 * psi / n;
    case 2:
        return 4 * psi + 12 * psi / n;
    default:
        return 16 * psi / n;
    }
}

// The planner's forecast for zerolab's own GPT-2 is what each rank's ledger holds:
// every category, byte for byte; and its traffic per rank per step is what the last
// step's collectives sent (all kinds and in total; 0 at N = 1).
void expectLedgerEqualsPlanner(const RunOutput& got, int n) {
    const ConfigResult cfg = loadConfigFile(got.config_path, n);
    ASSERT_TRUE(cfg.ok());
    const StagePlan predicted = predictRun(*cfg.config);
    const MemBreakdown want = predicted.per_rank;
    for (const auto& r : got.ranks)
        for (std::size_t c = 0; c < kMemCategoryCount; ++c) {
            const std::string name(kMemCategoryNames[c]);
            EXPECT_EQ(r["mem"][name].get<long long>(), want.bytes[c])
                << name << ", rank " << r["rank"] << ", stage " << cfg.config->zero.stage << ", n "
                << n;
        }
    const std::string where = "stage " + std::to_string(cfg.config->zero.stage) + ", n " +
                              std::to_string(n) + ", " + got.config_path;
    ASSERT_TRUE(got.comm.contains("traffic_bytes")) << got.comm.dump();
    EXPECT_DOUBLE_EQ(got.comm["traffic_bytes"].get<double>(), predicted.traffic.total()) << where;
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        const std::string key = std::string(kCollectiveNames[c]) + "_traffic_bytes";
        EXPECT_DOUBLE_EQ(got.comm[key].get<double>(), predicted.traffic.bytes[c])
            << key << ", " << where;
    }
    // All-to-alls and the split by link class (storage/comm_traffic.h): counted per call
    // by the communicator, planned per collective, so equal up to the sums' rounding.
    const auto link = predicted.traffic.linkColumns();
    for (std::size_t c = 0; c < kLinkColumnCount; ++c) {
        const std::string key(kLinkColumnNames[c]);
        ASSERT_TRUE(got.comm.contains(key)) << got.comm.dump();
        EXPECT_NEAR(got.comm[key].get<double>(), link[c], 1e-9 * predicted.traffic.total())
            << key << ", " << where;
    }
    if (n == 1)
        EXPECT_EQ(got.comm["traffic_bytes"].get<double>(), 0.0) << where;
}

} // namespace zerolab::test
