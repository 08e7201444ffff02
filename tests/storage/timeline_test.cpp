// The step timeline in the store (schema v9, a row per sampled step): RunWriter::appendTimeline
// -> RunReader::timeline round trips, timelineSteps, a v3 store migrated with its data, a v8
// store's timelines (a row per rank, a row per memory sample) carried over exactly,
// rewinds on resume and run deletion removing the rows; and zerolab-runs export
// --format trace: valid JSON holding every rank's events on both lanes, --steps, and
// exit code 2 for a bad RUN or a bad --steps.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/schema_sql.h"
#include "storage/sqlite_db.h"
#include "store_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

using namespace zerolab;
using namespace zerolab::test;

namespace {

// A sampled step of `world` ranks: per rank a forward, a backward, an all-gather of unit 2
// (seq 0) and a wait on it, the control all-reduce and two memory samples; every value a
// function of (step, rank) so the round trip can check each field.
StepTimeline makeTimeline(long long step, int world) {
    StepTimeline tl;
    tl.step = step;
    tl.world = world;
    for (int r = 0; r < world; ++r) {
        const double t = 10.0 * r + 0.25;
        tl.spans.push_back(
            {r, SpanKind::Control, -1, -1, Collective::AllReduce, 0, -1, t, t, t + 5});
        tl.spans.push_back(
            {r, SpanKind::Forward, 2, 0, Collective::AllReduce, 0, -1, t + 6, t + 6, t + 40.5});
        tl.spans.push_back({r, SpanKind::Collective, 3, 0, Collective::AllGather, 1000 * step + r,
                            0, t + 7, t + 8, t + 30});
        tl.spans.push_back(
            {r, SpanKind::Wait, -1, 1, Collective::AllGather, 0, 0, t + 41, t + 41, t + 45});
        tl.spans.push_back(
            {r, SpanKind::Backward, 2, 1, Collective::AllReduce, 0, -1, t + 46, t + 46, t + 90});
        tl.memory.push_back({r, 0.0, MemCategory::CommBuffers, 4096 * (r + 1)});
        tl.memory.push_back({r, t + 90, MemCategory::CommBuffers, 4096 * (r + 1)});
    }
    return tl;
}

void expectSameTimeline(const StepTimeline& got, const StepTimeline& want) {
    EXPECT_EQ(got.step, want.step);
    EXPECT_EQ(got.world, want.world);
    ASSERT_EQ(got.spans.size(), want.spans.size());
    // The reader orders by (rank, start_us); makeTimeline already does.
    for (std::size_t i = 0; i < want.spans.size(); ++i) {
        const TimelineSpan& g = got.spans[i];
        const TimelineSpan& w = want.spans[i];
        EXPECT_EQ(g.rank, w.rank) << i;
        EXPECT_EQ(g.kind, w.kind) << i;
        EXPECT_EQ(g.unit, w.unit) << i;
        EXPECT_EQ(g.micro, w.micro) << i;
        EXPECT_EQ(g.collective, w.collective) << i;
        EXPECT_EQ(g.bytes, w.bytes) << i;
        EXPECT_EQ(g.seq, w.seq) << i;
        EXPECT_EQ(g.issue_us, w.issue_us) << i;
        EXPECT_EQ(g.start_us, w.start_us) << i;
        EXPECT_EQ(g.end_us, w.end_us) << i;
    }
    ASSERT_EQ(got.memory.size(), want.memory.size());
    for (std::size_t i = 0; i < want.memory.size(); ++i) {
        EXPECT_EQ(got.memory[i].rank, want.memory[i].rank) << i;
        EXPECT_EQ(got.memory[i].t_us, want.memory[i].t_us) << i;
        EXPECT_EQ(got.memory[i].category, want.memory[i].category) << i;
        EXPECT_EQ(got.memory[i].bytes, want.memory[i].bytes) << i;
    }
}

class StoreTimeline : public ::testing::Test {
protected:
    std::string path() const { return m_dir.file("runs.db"); }
    RunWriter writer() { return RunWriter(RunStore::open(path())); }
    RunReader reader() { return RunReader(RunStore::open(path())); }
    std::int64_t countRows(const char* table) {
        RunStore s = RunStore::open(path());
        return s.db().queryInt(std::string("SELECT count(*) FROM ") + table);
    }

    TempDir m_dir;
};

} // namespace

TEST_F(StoreTimeline, RoundTripAndSampledSteps) {
    RunWriter w = writer();
    const std::int64_t id = w.createRun(makeRunInfo("tl", 3));
    w.beginSegment({0, 0, 1, 3, 3, 2, "start"});
    // A step of many spans: one row, whatever its size.
    StepTimeline big = makeTimeline(20, 3);
    for (int i = 0; i < 150; ++i)
        big.spans.push_back({i % 3, SpanKind::Data, -1, 0, Collective::AllReduce, 0, -1, 100.0 + i,
                             100.0 + i, 100.5 + i});
    w.appendTimeline(makeTimeline(10, 3));
    w.appendTimeline(makeTimeline(2, 3));
    w.appendTimeline(big);
    EXPECT_THROW(w.appendTimeline(makeTimeline(10, 3)), StoreError) << "a step stored twice";
    StepTimeline badRank = makeTimeline(30, 2);
    badRank.world = 1;
    EXPECT_THROW(w.appendTimeline(badRank), StoreError);

    RunReader r = reader();
    EXPECT_EQ(r.timelineSteps(id), (std::vector<long long>{2, 10, 20}));
    const auto ten = r.timeline(id, 10);
    ASSERT_TRUE(ten.has_value());
    expectSameTimeline(*ten, makeTimeline(10, 3));
    const auto twenty = r.timeline(id, 20);
    ASSERT_TRUE(twenty.has_value());
    EXPECT_EQ(twenty->spans.size(), big.spans.size());
    for (std::size_t i = 1; i < twenty->spans.size(); ++i) {
        const auto& a = twenty->spans[i - 1];
        const auto& b = twenty->spans[i];
        EXPECT_TRUE(a.rank < b.rank || (a.rank == b.rank && a.start_us <= b.start_us))
            << "ordered by (rank, start_us) at " << i;
    }
    EXPECT_FALSE(r.timeline(id, 3).has_value()) << "step 3 was not sampled";
    // SQL reads the spans as docs/store.md says.
    {
        RunStore s = RunStore::open(path());
        EXPECT_EQ(s.db().queryInt("SELECT count(*) FROM timelines t, json_each(t.spans) j "
                                  "WHERE t.step = 20 AND j.value->>1 = 'data'"),
                  150);
        EXPECT_EQ(s.db().queryInt("SELECT sum(j.value->>3 - j.value->>2) FROM timelines t, "
                                  "json_each(t.spans) j WHERE t.step = 10 AND j.value->>0 = 1 AND "
                                  "j.value->>1 = 'collective'"),
                  22000);
        EXPECT_EQ(s.db().queryInt("SELECT sum(j.value->>3) FROM timelines t, json_each(t.memory) j "
                                  "WHERE t.step = 10 AND j.value->>1 = 'comm_buffers' AND "
                                  "j.value->>2 > 0"),
                  4096 * (1 + 2 + 3));
    }
    EXPECT_FALSE(r.timeline(id, 30).has_value()) << "the failed append left nothing";
    EXPECT_THROW(r.timelineSteps(id + 7), StoreError);
    EXPECT_THROW(r.timeline(id + 7, 10), StoreError);
}

TEST_F(StoreTimeline, RewindOnResumeDeletesLaterTimelines) {
    std::int64_t id = 0;
    {
        RunWriter w = writer();
        id = w.createRun(makeRunInfo("tl-resume", 2));
        w.beginSegment({0, 0, 1, 2, 1, 4, "start"});
        for (long long s : {2, 5, 10})
            w.appendTimeline(makeTimeline(s, 2));
        w.finish(RunStatus::Failed, "node died");
    }
    RunWriter w = writer();
    w.attachRun(id);
    w.beginSegment({0, 6, 5, 3, 1, 2, "resume"});
    EXPECT_EQ(reader().timelineSteps(id), (std::vector<long long>{2, 5}));
    w.appendTimeline(makeTimeline(10, 3));
    const auto ten = reader().timeline(id, 10);
    ASSERT_TRUE(ten.has_value());
    EXPECT_EQ(ten->world, 3) << "the rewound step holds the new segment's timeline";
    EXPECT_EQ(countRows("timelines"), 3) << "steps 2, 5 and the new 10";
}

TEST_F(StoreTimeline, DeleteRunRemovesItsTimelines) {
    std::int64_t keep = 0, gone = 0;
    {
        RunWriter w = writer();
        gone = w.createRun(makeRunInfo("gone", 2));
        w.appendTimeline(makeTimeline(2, 2));
        w.finish(RunStatus::Finished); // a running run is not deleted
        keep = w.createRun(makeRunInfo("keep", 2));
        w.appendTimeline(makeTimeline(2, 2));
    }
    reader().deleteRun(gone);
    EXPECT_EQ(countRows("timelines"), 1);
    EXPECT_EQ(reader().timelineSteps(keep), (std::vector<long long>{2}));
}

// A v3 store (v1 + the v2 and v3 migrations, as a v3 build left it) opens as v4 with
// its runs and steps, and takes timelines.
TEST_F(StoreTimeline, MigratesAV3Store) {
    {
        const std::string sql =
            std::string(kSchemaV1Sql) + std::string(kMigrateV2Sql) + std::string(kMigrateV3Sql) +
            "PRAGMA application_id = " + std::to_string(RunStore::kApplicationId) +
            "; PRAGMA user_version = 3;"
            "INSERT INTO runs (id, name, status, created_at, world, stage) "
            "VALUES (1, 'v3-run', 'finished', 100, 2, 1);"
            "INSERT INTO steps (run_id, step, loss) VALUES (1, 4, 2.5);";
        ASSERT_EQ(execSqlite(path(), sql), "");
    }
    {
        RunStore s = RunStore::open(path());
        EXPECT_EQ(s.db().queryInt("PRAGMA user_version"), RunStore::kSchemaVersion);
    }
    RunReader r = reader();
    EXPECT_EQ(r.run(1).info.name, "v3-run");
    ASSERT_EQ(r.steps(1).size(), 1u);
    EXPECT_EQ(r.steps(1)[0].loss, 2.5);
    EXPECT_TRUE(r.timelineSteps(1).empty());
    RunWriter w = writer();
    w.attachRun(1);
    w.appendTimeline(makeTimeline(4, 2));
    EXPECT_EQ(reader().timelineSteps(1), (std::vector<long long>{4}));
}

// A v8 store's timelines, as a v8 build wrote them (one row per rank of JSON objects, one
// row per memory moment with a column per category), become v9 rows with every value
// kept, and read back as the timeline that was written.
TEST_F(StoreTimeline, MigratesAV8StoresTimelinesExactly) {
    const StepTimeline want = makeTimeline(12, 2);
    {
        std::string sql = std::string(kSchemaV1Sql) + std::string(kMigrateV2Sql) +
                          std::string(kMigrateV3Sql) + std::string(kMigrateV4Sql) +
                          std::string(kMigrateV5Sql) + std::string(kMigrateV6Sql) +
                          std::string(kMigrateV7Sql) + std::string(kMigrateV8Sql) +
                          "PRAGMA application_id = " + std::to_string(RunStore::kApplicationId) +
                          "; PRAGMA user_version = 8;"
                          "INSERT INTO runs (id, name, status, created_at, world, stage) "
                          "VALUES (1, 'v8-run', 'finished', 100, 2, 1);"
                          "INSERT INTO timelines (run_id, step, world) VALUES (1, 12, 2);";
        const auto ns = [](double us) { return std::to_string(std::llround(us * 1e3)); };
        for (int r = 0; r < want.world; ++r) {
            std::string spans;
            for (const TimelineSpan& x : want.spans) {
                if (x.rank != r)
                    continue;
                const bool coll = x.kind == SpanKind::Collective || x.kind == SpanKind::Wait;
                spans += std::string(spans.empty() ? "[" : ",") + "{\"kind\":\"" +
                         std::string(spanKindName(x.kind)) +
                         "\",\"unit\":" + std::to_string(x.unit) +
                         ",\"micro\":" + std::to_string(x.micro) + ",\"collective\":" +
                         (coll ? "\"" + std::string(collectiveName(x.collective)) + "\"" : "null") +
                         ",\"bytes\":" + std::to_string(x.bytes) +
                         ",\"seq\":" + std::to_string(x.seq) + ",\"issue_ns\":" + ns(x.issue_us) +
                         ",\"start_ns\":" + ns(x.start_us) + ",\"end_ns\":" + ns(x.end_us) + "}";
            }
            sql += "INSERT INTO timeline_spans (run_id, step, rank, spans) VALUES (1, 12, " +
                   std::to_string(r) + ", '" + spans + "]');";
        }
        int idx = 0;
        for (const TimelineMemory& m : want.memory) {
            ASSERT_EQ(m.category, MemCategory::CommBuffers) << "the fixture's one category";
            char t[32];
            std::snprintf(t, sizeof t, "%.17g", m.t_us);
            sql += "INSERT INTO timeline_memory (run_id, step, rank, idx, t_us, comm_buffers) "
                   "VALUES (1, 12, " +
                   std::to_string(m.rank) + ", " + std::to_string(idx++) + ", " + t + ", " +
                   std::to_string(m.bytes) + ");";
        }
        ASSERT_EQ(execSqlite(path(), sql), "");
    }
    RunReader r = reader();
    EXPECT_EQ(r.timelineSteps(1), (std::vector<long long>{12}));
    const auto got = r.timeline(1, 12);
    ASSERT_TRUE(got.has_value());
    expectSameTimeline(*got, want);
    EXPECT_EQ(countRows("sqlite_schema WHERE name IN ('timeline_spans', 'timeline_memory')"), 0)
        << "the v8 tables are gone";
}

class TraceExport : public ::testing::Test {
protected:
    void SetUp() override {
        RunWriter w(RunStore::open(path()));
        m_id = w.createRun(makeRunInfo("trace-run", 3));
        w.beginSegment({0, 0, 1, 3, 3, 2, "start"});
        for (long long s : {2, 10, 20})
            w.appendTimeline(makeTimeline(s, 3));
        m_plain = w.createRun(makeRunInfo("no-timeline", 2));
    }
    std::string path() const { return m_dir.file("runs.db"); }
    CliResult cli(std::vector<std::string> args) {
        args.insert(args.begin(), {"--db", path()});
        return runCli(args);
    }

    TempDir m_dir;
    std::int64_t m_id = 0;
    std::int64_t m_plain = 0;
};

TEST_F(TraceExport, ParsesAndHoldsEveryRankOnBothLanes) {
    const std::string out = m_dir.file("trace.json");
    const CliResult r = cli({"export", "trace-run", "--format", "trace", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(out);
    const nlohmann::json j = nlohmann::json::parse(in);
    ASSERT_TRUE(j["traceEvents"].is_array());
    std::set<std::pair<int, int>> lanes; // (pid, tid) of complete events
    std::set<int> named;                 // pids with a process_name
    std::set<long long> steps;
    int flows = 0, counters = 0;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e["ph"];
        if (ph == "X") {
            lanes.insert({e["pid"].get<int>(), e["tid"].get<int>()});
            EXPECT_GE(e["dur"].get<double>(), 0) << e.dump();
            EXPECT_GE(e["ts"].get<double>(), 0) << e.dump();
            steps.insert(e["args"]["step"].get<long long>());
            if (e["cat"] == "collective") {
                EXPECT_EQ(e["tid"], 1) << e.dump();
                EXPECT_EQ(e["args"]["kind"], "allgather");
                EXPECT_EQ(e["args"]["unit"], 3);
                EXPECT_EQ(e["args"]["seq"], 0);
                EXPECT_EQ(e["args"]["queued_us"], 1.0);
            }
            if (e["cat"] == "forward") {
                EXPECT_EQ(e["name"], "forward u2");
            }
        } else if (ph == "M" && e["name"] == "process_name") {
            named.insert(e["pid"].get<int>());
        } else if (ph == "s" || ph == "t" || ph == "f") {
            ++flows;
        } else if (ph == "C") {
            ++counters;
            EXPECT_TRUE(e["args"].contains("comm_buffers")) << e.dump();
        }
    }
    for (int rank = 0; rank < 3; ++rank) {
        EXPECT_TRUE(lanes.count({rank, 0})) << "rank " << rank << " compute lane";
        EXPECT_TRUE(lanes.count({rank, 1})) << "rank " << rank << " comm lane";
        EXPECT_TRUE(named.count(rank)) << "rank " << rank << " named";
    }
    EXPECT_EQ(lanes.size(), 6u);
    EXPECT_EQ(steps, (std::set<long long>{2, 10, 20}));
    EXPECT_EQ(flows, 3 * 3) << "one s, t, f chain per collective and step";
    EXPECT_EQ(counters, 3 * 2 * 3);
}

TEST_F(TraceExport, StepsSelectARange) {
    const CliResult r =
        cli({"export", std::to_string(m_id), "--format", "trace", "--steps", "5:10"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["otherData"]["steps"], (std::vector<long long>{10}));
    const CliResult open = cli({"export", "trace-run", "--format", "trace", "--steps", "10:"});
    ASSERT_EQ(open.exit_code, 0) << open.err;
    EXPECT_EQ(nlohmann::json::parse(open.out)["otherData"]["steps"],
              (std::vector<long long>{10, 20}));
}

TEST_F(TraceExport, BadInputExitsTwoWithTheReason) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"export", "nope", "--format", "trace"}, "no run with id or name 'nope'"},
        {{"export", "trace-run", "--format", "trace", "--steps", "9:3"}, "--steps '9:3'"},
        {{"export", "trace-run", "--format", "trace", "--steps", "a:b"}, "expected A:B"},
        {{"export", "trace-run", "--format", "trace", "--steps", "11:19"},
         "no sampled step in --steps '11:19' (sampled: 2, 10, 20)"},
        {{"export", "no-timeline", "--format", "trace"}, "has no step timeline"},
        {{"export", "trace-run", "--format", "csv", "--steps", "1:2"}, "--format trace only"},
    };
    for (const auto& [args, message] : cases) {
        const CliResult r = cli(args);
        EXPECT_EQ(r.exit_code, 2) << args[3] << " " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
}

TEST_F(TraceExport, AnOutputThatCannotBeWrittenFails) {
    // A file that opens but cannot take the bytes: an I/O error, exit 1.
    const CliResult full = cli({"export", "trace-run", "--format", "trace", "-o", "/dev/full"});
    EXPECT_EQ(full.exit_code, 1) << full.err;
    EXPECT_NE(full.err.find("/dev/full: write failed"), std::string::npos) << full.err;
}
