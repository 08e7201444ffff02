// libFuzzer target: what a run store holds, as its readers take it. The input is SQL run
// against a copy of a whole store (a run with steps, rank rows, timelines, events, a
// sweep: built once per process), as an older build, another tool or a hand edit could
// leave it; then the store is read as zerolab-runs and the exporters read it: every run's
// summary, record, segments, events, steps and rank rows, the CSV and JSON Lines exports
// and every timeline through the trace export. StoreError is their answer to values out of
// range; anything else (a crash, a sanitizer report, an exception of another type, an
// export growing without bound) is a finding.
#include "storage/run_export.h"
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "storage/sweep_store.h"
#include "storage/trace_export.h"
#include "tests/fuzz/fuzz_file.h"

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <streambuf>

namespace {

namespace fs = std::filesystem;

// Exports go nowhere, counted: more than 64 MiB from an input of at most a few KiB is
// output sized by a stored number.
class CountingBuf : public std::streambuf {
protected:
    int_type overflow(int_type c) override {
        add(1);
        return c;
    }
    std::streamsize xsputn(const char*, std::streamsize n) override {
        add(n);
        return n;
    }

private:
    void add(std::streamsize n) {
        m_bytes += n;
        if (m_bytes > (64 << 20))
            std::abort();
    }
    std::streamsize m_bytes = 0;
};

const std::string& templateStore() {
    static const std::string path = [] {
        const std::string p = (zerolab::fuzz::fuzzDir() / "template.db").string();
        zerolab::RunWriter w(zerolab::RunStore::open(p));
        zerolab::RunInfo info;
        info.name = "fuzzed";
        info.host = "host";
        info.world = 2;
        info.precision = "fp32";
        info.config_json = R"({"run": {"collective_timeout_s": 10}})";
        w.createRun(info);
        w.beginSegment({0, 0, 2, 1, 1, 1, "start"});
        for (int s = 0; s < 3; ++s) {
            zerolab::StepRecord step;
            step.step = s;
            step.loss = 4.0 - s;
            for (int r = 0; r < 2; ++r) {
                zerolab::RankRecord rank;
                rank.rank = r;
                rank.host = "host";
                step.ranks.push_back(rank);
            }
            w.appendStep(step);
            zerolab::StepTimeline tl;
            tl.step = s;
            tl.world = 2;
            for (int r = 0; r < 2; ++r) {
                zerolab::TimelineSpan span;
                span.rank = r;
                span.kind = zerolab::SpanKind::Collective;
                span.seq = 0;
                span.start_us = 1;
                span.end_us = 2;
                tl.spans.push_back(span);
                tl.memory.push_back({r, 0, zerolab::MemCategory::Params, 64});
            }
            w.appendTimeline(tl);
        }
        w.addEvent(zerolab::EventLevel::Info, 0, "event");
        w.finish(zerolab::RunStatus::Finished, "done");
        zerolab::SweepStore sweeps(zerolab::RunStore::open(p));
        sweeps.createSweep({0, "sweep", "s.json", "{}"});
        return p;
    }();
    return path;
}

// The input's SQL on the copy, bounded: no attached files, and a statement running past
// a few million VM steps is interrupted (a recursive CTE would otherwise take the time).
void tamper(const std::string& path, const std::uint8_t* data, std::size_t size) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
        sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
        sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1 << 20);
        int budget = 1000;
        sqlite3_progress_handler(
            db, 10000, [](void* left) { return --*static_cast<int*>(left) < 0 ? 1 : 0; }, &budget);
        const std::string sql(reinterpret_cast<const char*>(data), size);
        sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);
    }
    sqlite3_close_v2(db);
}

void readEverything(zerolab::RunReader& reader) {
    CountingBuf buf;
    std::ostream out(&buf);
    for (const zerolab::RunSummary& s : reader.listRuns()) {
        const auto each = [&](auto&& f) {
            try {
                f();
            } catch (const zerolab::StoreError&) {
            }
        };
        each([&] { reader.run(s.id); });
        each([&] { reader.summary(s.id); });
        each([&] { reader.segments(s.id); });
        each([&] { reader.events(s.id); });
        each([&] { reader.heartbeatSilence(s.id, 1e9); });
        for (auto format : {zerolab::ExportFormat::Csv, zerolab::ExportFormat::Jsonl})
            for (auto table : {zerolab::ExportTable::Steps, zerolab::ExportTable::Ranks})
                each([&] { zerolab::exportRun(reader, s.id, format, table, out); });
        std::vector<long long> steps;
        each([&] { steps = reader.timelineSteps(s.id); });
        for (long long step : steps)
            each([&] { zerolab::exportTrace(reader, s.id, {step}, out); });
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = (zerolab::fuzz::fuzzDir() / "store.db").string();
    for (const char* stale : {"store.db-wal", "store.db-shm", "store.db-journal"})
        fs::remove(zerolab::fuzz::fuzzDir() / stale);
    fs::copy_file(templateStore(), path, fs::copy_options::overwrite_existing);
    tamper(path, data, size);
    try {
        zerolab::RunReader reader(zerolab::RunStore::open(path, zerolab::OpenMode::ReadOnly));
        readEverything(reader);
        zerolab::SweepStore sweeps(zerolab::RunStore::open(path, zerolab::OpenMode::ReadOnly));
        for (const zerolab::SweepRecord& s : sweeps.listSweeps())
            sweeps.trials(s.id);
    } catch (const zerolab::StoreError&) {
    }
    return 0;
}
