// The store is untrusted input (issue 29 §1): a timeline whose world is not its run's, or
// whose ranks lie outside its world, is an error naming the run, the table and the value,
// and nothing is sized by it (a world of 2147483647 made the trace export write billions
// of rank names); the rest of the run still exports. The store: tests/support.
#include "store_test_util.h"
#include "tests/support/tampered_store.h"

#include "storage/run_export.h"
#include "storage/run_reader.h"
#include "storage/trace_export.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <streambuf>

namespace zerolab {
namespace {

using namespace zerolab::test;

// An output that refuses more than 1 MiB: an export sized by a hostile number fails
// here at once instead of filling the disk.
class BoundedBuf : public std::streambuf {
protected:
    int_type overflow(int_type c) override {
        if (++m_bytes > (1 << 20))
            throw std::length_error("more than 1 MiB written");
        return c;
    }
    std::streamsize xsputn(const char*, std::streamsize n) override {
        m_bytes += n;
        if (m_bytes > (1 << 20))
            throw std::length_error("more than 1 MiB written");
        return n;
    }

private:
    std::streamsize m_bytes = 0;
};

std::string traceError(RunReader& reader, std::int64_t run, long long step) {
    BoundedBuf buf;
    std::ostream out(&buf);
    try {
        exportTrace(reader, run, {step}, out);
    } catch (const StoreError& e) {
        return e.what();
    }
    return "";
}

TEST(TamperedStore, TimelineWorldsAndRanksAreCheckedNamingRunTableAndValue) {
    TempDir dir;
    const std::string path = dir.file("runs.db");
    const TamperedStore t = writeTamperedStore(path);
    RunReader reader(RunStore::open(path, OpenMode::ReadOnly));

    EXPECT_EQ(traceError(reader, t.run, t.good_timeline), "");
    const std::string world = traceError(reader, t.run, t.huge_world);
    EXPECT_NE(world.find(path + ": run 1, timeline of step 1: table timelines: world 2147483647 "
                                "is not one the run ran at (1..2)"),
              std::string::npos)
        << world;
    const std::string rank = traceError(reader, t.run, t.foreign_rank);
    EXPECT_NE(rank.find("run 1, timeline of step 2: table timelines, spans: rank 7 outside the "
                        "world of 2 (ranks 0..1)"),
              std::string::npos)
        << rank;
    const std::string negative = traceError(reader, t.run, t.negative_rank);
    EXPECT_NE(negative.find("table timelines, memory: rank -3 outside the world of 2"),
              std::string::npos)
        << negative;

    // The rest of the run: its steps export whole, its good timeline reads.
    std::ostringstream csv;
    exportRun(reader, t.run, ExportFormat::Csv, ExportTable::Steps, csv);
    const std::string rows = csv.str();
    // The header, one row per step.
    EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), t.steps + 1) << rows;
    EXPECT_TRUE(reader.timeline(t.run, t.good_timeline));

    const auto cli = runCli({"--db", path, "export", "1", "--format", "trace", "--steps", "1"});
    EXPECT_EQ(cli.exit_code, 2) << cli.err;
    EXPECT_NE(cli.err.find("world 2147483647"), std::string::npos) << cli.err;
    EXPECT_LT(cli.out.size(), 4096u);
}

} // namespace
} // namespace zerolab
