// The level of detail of long runs (schema v5's step_blocks): RunReader::stepsLod keeps
// a one-step spike and a one-step dip at every width, through stored blocks and through
// the raw tail; a zoomed range comes back as logged; a rewound (resumed) run's blocks
// agree with its steps; a v4 store migrates with its blocks backfilled.
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/schema_sql.h"
#include "storage/sqlite_db.h"
#include "storage/store_error.h"
#include "store_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace zerolab;
using namespace zerolab::test;

namespace {

constexpr double kSpike = 50.0;
constexpr double kDip = -3.0;

double baseLoss(std::int64_t step) {
    return 2.0 + 0.01 * double(step % 17);
}

// Steps first..last with a smooth loss, rank rows of two ranks.
std::vector<StepRecord> makeSteps(std::int64_t first, std::int64_t last) {
    std::vector<StepRecord> out;
    for (std::int64_t s = first; s <= last; ++s) {
        StepRecord r = makeStep(s, 2);
        r.loss = baseLoss(s);
        out.push_back(r);
    }
    return out;
}

double maxLoss(const StepLod& lod) {
    double m = -INFINITY;
    for (const auto& r : lod.rows)
        m = std::max(m, r.loss);
    return m;
}

double minLoss(const StepLod& lod) {
    double m = INFINITY;
    for (const auto& r : lod.rows)
        m = std::min(m, r.loss);
    return m;
}

class StepLodTest : public ::testing::Test {
protected:
    std::string path() const { return m_dir.file("runs.db"); }
    RunReader reader() { return RunReader(RunStore::open(path())); }

    // A run of `steps` steps with a spike at spikeStep and a dip at dipStep.
    std::int64_t writeRun(std::int64_t steps, std::int64_t spikeStep, std::int64_t dipStep) {
        RunWriter w(RunStore::open(path()));
        const std::int64_t id = w.createRun(makeRunInfo("lod", 2));
        w.beginSegment({});
        auto rows = makeSteps(0, steps - 1);
        rows[std::size_t(spikeStep)].loss = kSpike;
        rows[std::size_t(dipStep)].loss = kDip;
        w.appendSteps(rows);
        w.finish(RunStatus::Finished);
        return id;
    }

    TempDir m_dir;
};

} // namespace

TEST_F(StepLodTest, KeepsASpikeAndADipAtEveryWidth) {
    const std::int64_t id = writeRun(20000, 12345, 777);
    RunReader r = reader();
    for (std::int64_t buckets : {1, 3, 40, 500, 2000}) {
        const StepLod lod = r.stepsLod(id, 0, 19999, buckets);
        SCOPED_TRACE(buckets);
        EXPECT_EQ(lod.logged, 20000);
        EXPECT_GE(lod.width, 20000 / buckets);
        EXPECT_LE(lod.rows.size(), std::size_t(2 * buckets + 4 * 128 + 2));
        EXPECT_EQ(maxLoss(lod), kSpike);
        EXPECT_EQ(minLoss(lod), kDip);
        // Ascending by step, first and last logged step included.
        EXPECT_EQ(lod.rows.front().step, 0);
        EXPECT_EQ(lod.rows.back().step, 19999);
        for (std::size_t i = 1; i < lod.rows.size(); ++i)
            ASSERT_LT(lod.rows[i - 1].step, lod.rows[i].step) << i;
    }
}

TEST_F(StepLodTest, TheRunsLastBlockComesAsLogged) {
    // 1000 steps: blocks 0-6 stored, block 7 (896..999) read from the steps table.
    const std::int64_t id = writeRun(1000, 990, 10);
    RunReader r = reader();
    const StepLod lod = r.stepsLod(id, 0, 999, 4);
    EXPECT_EQ(lod.width, 256);
    EXPECT_EQ(maxLoss(lod), kSpike);
    EXPECT_EQ(minLoss(lod), kDip);
    ASSERT_GE(lod.rows.size(), 104u);
    const auto tail = std::vector<StepRecord>(lod.rows.end() - 104, lod.rows.end());
    for (std::size_t i = 0; i < tail.size(); ++i)
        EXPECT_EQ(tail[i].step, 896 + std::int64_t(i));
    EXPECT_EQ(lod.rows.back().loss, baseLoss(999));
}

TEST_F(StepLodTest, AZoomedRangeComesAsLogged) {
    const std::int64_t id = writeRun(20000, 12345, 777);
    RunReader r = reader();
    const StepLod lod = r.stepsLod(id, 12000, 12999, 2000);
    EXPECT_EQ(lod.width, 1);
    ASSERT_EQ(lod.rows.size(), 1000u);
    const auto all = r.steps(id, 11999, 1000);
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(lod.rows[i].step, all[i].step);
        EXPECT_EQ(lod.rows[i].loss, all[i].loss);
        EXPECT_EQ(lod.rows[i].tokens_per_s, all[i].tokens_per_s);
        EXPECT_EQ(lod.rows[i].traffic.total(), all[i].traffic.total());
    }
    EXPECT_EQ(lod.rows[345].loss, kSpike);
}

TEST_F(StepLodTest, BlocksFollowARewind) {
    std::int64_t id = 0;
    {
        RunWriter w(RunStore::open(path()));
        id = w.createRun(makeRunInfo("resumed", 2));
        w.beginSegment({});
        auto rows = makeSteps(0, 1999);
        rows[1500].loss = kSpike; // rewound over: must not survive in a block
        w.appendSteps(rows);
        w.finish(RunStatus::Stopped);
    }
    {
        RunWriter w(RunStore::open(path()));
        w.attachRun(id);
        Segment seg;
        seg.start_step = 1000;
        w.beginSegment(seg);
        auto rows = makeSteps(1000, 2999);
        rows[300].loss = kDip; // step 1300
        for (const auto& s : rows)
            w.appendStep(s);
        w.finish(RunStatus::Finished);
    }
    RunReader r = reader();
    const StepLod lod = r.stepsLod(id, 0, 2999, 10);
    EXPECT_EQ(lod.logged, 3000);
    EXPECT_EQ(minLoss(lod), kDip);
    EXPECT_EQ(maxLoss(lod), baseLoss(16));
    for (const auto& row : lod.rows)
        EXPECT_EQ(row.segment, row.step < 1000 ? 0 : 1) << row.step;
}

TEST_F(StepLodTest, RejectsNoBucketsAndAnUnknownRun) {
    const std::int64_t id = writeRun(10, 3, 4);
    RunReader r = reader();
    EXPECT_THROW(r.stepsLod(id, 0, 9, 0), StoreError);
    EXPECT_THROW(r.stepsLod(id + 1, 0, 9, 10), StoreError);
    EXPECT_EQ(r.stepSpan(id), std::make_pair(std::int64_t(0), std::int64_t(9)));
    EXPECT_TRUE(r.stepsLod(id, 20, 30, 10).rows.empty());
}

// A v4 store (as a v4 build left it) opens at this build's version with every block but each run's
// last backfilled, and its level of detail keeps the spike.
TEST_F(StepLodTest, MigratesAV4StoreWithItsBlocks) {
    {
        const std::string sql =
            std::string(kSchemaV1Sql) + std::string(kMigrateV2Sql) + std::string(kMigrateV3Sql) +
            std::string(kMigrateV4Sql) +
            "PRAGMA application_id = " + std::to_string(RunStore::kApplicationId) +
            "; PRAGMA user_version = 4;"
            "INSERT INTO runs (id, name, status, created_at, world, stage) "
            "VALUES (1, 'v4-run', 'finished', 100, 2, 1);"
            "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 999) "
            "INSERT INTO steps (run_id, step, loss) SELECT 1, i, CASE i WHEN 600 THEN 50.0 "
            "ELSE 2.0 END FROM c;";
        ASSERT_EQ(execSqlite(path(), sql), "");
    }
    {
        RunStore s = RunStore::open(path());
        EXPECT_EQ(s.db().queryInt("PRAGMA user_version"), RunStore::kSchemaVersion);
        EXPECT_EQ(s.db().queryInt("SELECT count(*) FROM step_blocks"), 7);
    }
    RunReader r = reader();
    const StepLod lod = r.stepsLod(1, 0, 999, 3);
    EXPECT_EQ(lod.logged, 1000);
    EXPECT_EQ(maxLoss(lod), kSpike);
    EXPECT_EQ(minLoss(lod), 2.0);
}
