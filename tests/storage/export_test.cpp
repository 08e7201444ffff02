// Export round trips: CSV (steps and rank tables) and JSON Lines parse back to exactly
// the numbers stored, NaN included; zerolab-runs export writes the same bytes.
#include "storage/run_export.h"
#include "storage/run_writer.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace zerolab;
using namespace zerolab::test;

namespace {

constexpr int kWorld = 3;
constexpr int kSteps = 5000; // more than one export chunk

// Splits CSV text into rows of fields (quoted fields with "" escapes, no embedded newlines).
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                fields.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields.emplace_back();
            } else {
                fields.back() += c;
            }
        }
        rows.push_back(std::move(fields));
    }
    return rows;
}

double csvNum(const std::string& s) {
    return s.empty() ? std::nan("") : std::stod(s);
}

double jsonNum(const nlohmann::json& j) {
    return j.is_null() ? std::nan("") : j.get<double>();
}

void expectSame(double got, double want, const std::string& what) {
    if (std::isnan(want))
        EXPECT_TRUE(std::isnan(got)) << what;
    else
        EXPECT_EQ(got, want) << what;
}

// Steps with awkward numbers: thirds, tiny and huge magnitudes, NaN, a comma in a host.
StepRecord awkwardStep(std::int64_t i) {
    StepRecord s = makeStep(i, kWorld);
    s.loss = 1.0 / 3.0 + static_cast<double>(i) * 1e-9;
    s.lr = i % 3 == 0 ? 1e-300 : 6.02214076e23;
    s.grad_norm = i % 4 == 0 ? kUnknown : 0.1 * static_cast<double>(i);
    s.ranks[1].host = "node \"b\", rack 2";
    return s;
}

class StoreExport : public ::testing::Test {
protected:
    void SetUp() override {
        RunWriter w(RunStore::open(path()));
        m_id = w.createRun(makeRunInfo("export", kWorld));
        w.beginSegment({0, 0, kWorld, 2, 1, 4, "start"});
        for (int i = 0; i < kSteps; ++i)
            w.appendStep(awkwardStep(i));
        w.addEvent(EventLevel::Warn, 2, "a warning");
        w.finish(RunStatus::Finished, "done");
    }
    std::string path() const { return m_dir.file("runs.db"); }
    std::string exportText(ExportFormat f, ExportTable t) {
        RunReader r(RunStore::open(path()));
        std::ostringstream out;
        exportRun(r, m_id, f, t, out);
        return out.str();
    }

    TempDir m_dir;
    std::int64_t m_id = 0;
};

} // namespace

TEST_F(StoreExport, CsvStepsRoundTrip) {
    const std::string text = exportText(ExportFormat::Csv, ExportTable::Steps);
    // The header is the first line: a comment line above it is what csv readers (Python's
    // csv, pandas without comment='#') take as the header (issue 39).
    EXPECT_EQ(text.substr(0, text.find('\n')),
              "step,segment,wall_time_s,tokens,loss,lr,grad_norm,"
              "tokens_per_s,mfu,step_ms,fwd_ms,bwd_ms,optim_ms,allreduce_ms,reduce_scatter_ms,"
              "allgather_ms,broadcast_ms,exposed_ms,comm_bytes,busbw_gbps,traffic_bytes,"
              "allreduce_traffic_bytes,reduce_scatter_traffic_bytes,allgather_traffic_bytes,"
              "broadcast_traffic_bytes,alltoall_traffic_bytes,within_traffic_bytes,"
              "across_traffic_bytes");
    const auto rows = parseCsv(text);
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kSteps + 1));
    EXPECT_EQ(rows[0], stepCsvColumns());
    for (int i = 0; i < kSteps; ++i) {
        const auto& f = rows[i + 1];
        const StepRecord want = awkwardStep(i);
        ASSERT_EQ(f.size(), stepCsvColumns().size());
        EXPECT_EQ(std::stoll(f[0]), want.step);
        EXPECT_EQ(std::stoll(f[3]), want.tokens);
        expectSame(csvNum(f[4]), want.loss, "loss");
        expectSame(csvNum(f[5]), want.lr, "lr");
        expectSame(csvNum(f[6]), want.grad_norm, "grad_norm");
        expectSame(csvNum(f[8]), want.mfu, "mfu");
        expectSame(csvNum(f[19]), want.busbw_gbps, "busbw");
        EXPECT_EQ(std::stoll(f[18]), want.comm_bytes);
    }
}

TEST_F(StoreExport, CsvRanksRoundTrip) {
    const auto rows = parseCsv(exportText(ExportFormat::Csv, ExportTable::Ranks));
    ASSERT_EQ(rows.size(), static_cast<std::size_t>(kSteps * kWorld + 1));
    EXPECT_EQ(rows[0], rankCsvColumns());
    for (std::size_t k = 1; k < rows.size(); k += 97) {
        const auto& f = rows[k];
        ASSERT_EQ(f.size(), rankCsvColumns().size());
        const StepRecord want = awkwardStep(std::stoll(f[0]));
        const RankRecord& r = want.ranks.at(std::stoi(f[1]));
        EXPECT_EQ(f[2], r.host);
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            EXPECT_EQ(std::stoll(f[3 + c]), r.mem.bytes[c]);
        EXPECT_EQ(std::stoll(f[3 + kMemCategoryCount + 1]), r.device_used);
        expectSame(csvNum(f[3 + kMemCategoryCount + 3]), r.comm.allreduce_ms, "allreduce");
        expectSame(csvNum(f[3 + kMemCategoryCount + 6]), r.comm.broadcast_ms, "broadcast");
    }
}

TEST_F(StoreExport, JsonlRoundTrip) {
    std::istringstream in(exportText(ExportFormat::Jsonl, ExportTable::Steps));
    std::string line;
    std::vector<nlohmann::json> lines;
    while (std::getline(in, line))
        lines.push_back(nlohmann::json::parse(line));
    ASSERT_EQ(lines.size(), static_cast<std::size_t>(kSteps + 3)); // run, steps, event, end
    EXPECT_EQ(lines.front()["type"], "run");
    EXPECT_EQ(lines.front()["config"]["zero_optimization"]["stage"], 2);
    EXPECT_EQ(lines.front()["world"], kWorld);
    for (int i = 0; i < kSteps; ++i) {
        const auto& j = lines[i + 1];
        const StepRecord want = awkwardStep(i);
        ASSERT_EQ(j["type"], "step");
        EXPECT_EQ(j["step"].get<std::int64_t>(), want.step);
        expectSame(jsonNum(j["loss"]), want.loss, "loss");
        expectSame(jsonNum(j["lr"]), want.lr, "lr");
        expectSame(jsonNum(j["grad_norm"]), want.grad_norm, "grad_norm");
        expectSame(jsonNum(j["mfu"]), want.mfu, "mfu");
        EXPECT_EQ(j["comm"]["bytes"].get<std::int64_t>(), want.comm_bytes);
        expectSame(jsonNum(j["comm"]["busbw_gbps"]), want.busbw_gbps, "busbw");
        ASSERT_EQ(j["ranks"].size(), static_cast<std::size_t>(kWorld));
        for (int k = 0; k < kWorld; ++k) {
            const auto& jr = j["ranks"][k];
            const RankRecord& r = want.ranks[k];
            EXPECT_EQ(jr["host"], r.host);
            for (std::size_t c = 0; c < kMemCategoryCount; ++c)
                EXPECT_EQ(jr["mem"][std::string(kMemCategoryNames[c])].get<long long>(),
                          r.mem.bytes[c]);
            expectSame(jsonNum(jr["broadcast_ms"]), r.comm.broadcast_ms, "rank broadcast");
        }
    }
    EXPECT_EQ(lines[kSteps + 1]["type"], "event");
    EXPECT_EQ(lines[kSteps + 1]["level"], "warn");
    EXPECT_EQ(lines.back()["type"], "end");
    EXPECT_EQ(lines.back()["status"], "finished");
}

TEST_F(StoreExport, CliWritesTheSameBytes) {
    const std::string out = m_dir.file("steps.csv");
    const CliResult r =
        runCli({"--db", path(), "export", "export", "--format", "csv", "--out", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(readBytes(out), exportText(ExportFormat::Csv, ExportTable::Steps));
    const CliResult j =
        runCli({"--db", path(), "export", std::to_string(m_id), "--format", "jsonl"});
    ASSERT_EQ(j.exit_code, 0) << j.err;
    EXPECT_EQ(j.out, exportText(ExportFormat::Jsonl, ExportTable::Steps));
}
