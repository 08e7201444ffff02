// writeTamperedStore: a whole run through RunWriter, then its timelines edited by SQL.
#include "tests/support/tampered_store.h"

#include "storage/run_writer.h"
#include "storage/sqlite_db.h"

#include <sqlite3.h>

namespace zerolab::test {

namespace {

StepTimeline timeline(long long step) {
    StepTimeline tl;
    tl.step = step;
    tl.world = 2;
    for (int r = 0; r < 2; ++r) {
        TimelineSpan s;
        s.rank = r;
        s.kind = SpanKind::Forward;
        s.start_us = 10;
        s.end_us = 20;
        tl.spans.push_back(s);
        tl.memory.push_back({r, 0, MemCategory::Params, 1024});
    }
    return tl;
}

} // namespace

TamperedStore writeTamperedStore(const std::string& path) {
    TamperedStore t;
    {
        RunWriter w(RunStore::open(path));
        RunInfo info;
        info.name = "tampered";
        info.host = "testhost";
        info.world = 2;
        info.precision = "fp32";
        info.config_json = "{}";
        t.run = w.createRun(info);
        w.beginSegment({0, 0, 2, 1, 1, 1, "start"});
        for (int s = 0; s < t.steps; ++s) {
            StepRecord step;
            step.step = s;
            step.loss = 5.0 - s;
            for (int r = 0; r < 2; ++r) {
                RankRecord rank;
                rank.rank = r;
                rank.host = "testhost";
                step.ranks.push_back(rank);
            }
            w.appendStep(step);
            w.appendTimeline(timeline(s));
        }
        w.finish(RunStatus::Finished, "done");
    }
    SqliteDb db(path, SQLITE_OPEN_READWRITE);
    const std::string run = std::to_string(t.run);
    db.exec("UPDATE timelines SET world = 2147483647 WHERE run_id = " + run +
            " AND step = " + std::to_string(t.huge_world));
    db.exec("UPDATE timelines SET spans = json_set(spans, '$[1][0]', 7) WHERE run_id = " + run +
            " AND step = " + std::to_string(t.foreign_rank));
    db.exec("UPDATE timelines SET memory = json_set(memory, '$[0][0]', -3) WHERE run_id = " + run +
            " AND step = " + std::to_string(t.negative_rank));
    return t;
}

} // namespace zerolab::test
