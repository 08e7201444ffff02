// A sweep file is untrusted input (issue 29 §2, §5): its candidates are capped before
// anything is planned or stored, a repeated axis value is found in one pass, and its
// name follows the run name's rules when the file is read; a name stored before (or by
// hand) is printed repaired by list and show. A sweep at the cap reports its planning and
// stops on SIGTERM in every phase (issue 40).
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

#include "runtime/tune/sweep_driver.h"
#include "runtime/tune/sweep_spec.h"
#include "storage/sweep_store.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

nlohmann::json base() {
    return {{"train_micro_batch_size_per_gpu", 1},
            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 1e-3}}}}},
            {"model", {{"preset", "nano"}, {"seq_len", 16}}},
            {"run", {{"steps", 5}, {"threads", 1}}}};
}

nlohmann::json values(int n) {
    nlohmann::json v = nlohmann::json::array();
    for (int i = 0; i < n; ++i)
        v.push_back(i);
    return v;
}

std::string errorOf(const nlohmann::json& doc) {
    try {
        parseSweepJson(doc, "s.json");
    } catch (const SweepError& e) {
        return e.what();
    }
    return "";
}

class SweepBounds : public ::testing::Test {
protected:
    std::string db() const { return (m_dir / "runs.db").string(); }
    test::ProcessResult sweep(std::vector<std::string> args) const {
        args.insert(args.begin(), std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep");
        args.insert(args.end(), {"--db", db()});
        return test::runProcess(args);
    }
    test::TempDir m_temp{"sweep-bounds"};
    const fs::path m_dir = m_temp.path();
};

// 101 x 100 = 10,100 candidates: one more hundred than the default cap of 10,000 (a sweep
// of 10^6 was accepted, planned and stored: 38 s, 1.46 GB, a 455 MB store).
TEST_F(SweepBounds, CandidatesBeyondTheCapAreRefusedBeforeAnythingIsStored) {
    nlohmann::json doc = {{"base", base()},
                          {"axes", {{"run.seed", values(101)}, {"run.log_every", values(100)}}}};
    const std::string e = errorOf(doc);
    EXPECT_NE(e.find("s.json: axes: 10100 candidates (the product of the axes' lengths) is more "
                     "than the cap of 10000: remove values, or raise \"max_candidates\" (at most "
                     "100000)"),
              std::string::npos)
        << e;
    doc["max_candidates"] = 10100;
    EXPECT_EQ(errorOf(doc), "");
    EXPECT_EQ(parseSweepJson(doc, "s.json").max_candidates, 10100);
    // The raised cap is part of the stored definition: a resume reads it back.
    EXPECT_EQ(parseSweepJson(parseSweepJson(doc, "s.json").toJson(), "s.json").max_candidates,
              10100);
    for (const nlohmann::json& bad :
         {nlohmann::json(0), nlohmann::json(100001), nlohmann::json("many"), nlohmann::json(2.5)}) {
        doc["max_candidates"] = bad;
        EXPECT_NE(errorOf(doc).find("s.json: max_candidates: expected an integer from 1 to "
                                    "100000, got "),
                  std::string::npos)
            << bad;
    }
    // Axes whose product overflows int64 saturate, and are refused all the same.
    nlohmann::json huge = {{"base", base()}, {"axes", nlohmann::json::object()}};
    for (int a = 0; a < 8; ++a)
        huge["axes"]["run.k" + std::to_string(a)] = values(300);
    EXPECT_NE(errorOf(huge).find("9223372036854775807 candidates"), std::string::npos);

    doc.erase("max_candidates");
    std::ofstream(m_dir / "big.json") << doc.dump();
    const auto r = sweep({"run", (m_dir / "big.json").string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("10100 candidates"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(db())) << "the store was created for a refused sweep";
}

// The most values an axis may have, with one repeat at the end: found, naming its index
// (each value was compared with every earlier one: 200,000 values took 64 s).
TEST_F(SweepBounds, RepeatedValueIsFoundOnALongAxis) {
    nlohmann::json v = values(int(kMaxCandidatesLimit));
    v.back() = 17;
    const nlohmann::json doc = {
        {"base", base()}, {"axes", {{"run.seed", v}}}, {"max_candidates", kMaxCandidatesLimit}};
    const std::string e = errorOf(doc);
    EXPECT_EQ(e, "s.json: axes.run.seed[99999]: repeats the value 17");
    // 1 and 1.0 are the same value; a string "1" is not.
    EXPECT_NE(errorOf({{"base", base()}, {"axes", {{"run.seed", {1, 1.0}}}}})
                  .find("axes.run.seed[1]: repeats the value 1.0"),
              std::string::npos);
    EXPECT_EQ(errorOf({{"base", base()}, {"axes", {{"run.seed", {1, "1"}}}}}), "");
}

// A name that is no valid run name failed every trial (exit 1) once the sweep ran; it is
// refused when the file is read (exit 2), as --run-name is.
TEST_F(SweepBounds, NameThatCannotNameARunIsRefusedWhenTheFileIsRead) {
    const std::pair<std::string, std::string> cases[] = {
        {"two\nlines", "control character"},
        {"red \x1b[31mtext", "control character"},
        {std::string("bad \xff name"), "not valid UTF-8"},
        {std::string(193, 'n'), "193 bytes, more than the 192 allowed"},
    };
    for (const auto& [name, needle] : cases) {
        const std::string e =
            errorOf({{"base", base()}, {"axes", {{"run.seed", {1, 2}}}}, {"name", name}});
        EXPECT_EQ(e.rfind("s.json: name: ", 0), 0u) << e;
        EXPECT_NE(e.find(needle), std::string::npos) << e;
        EXPECT_NE(e.find("(a sweep's name starts its trials' run names)"), std::string::npos) << e;
    }
    EXPECT_EQ(
        errorOf(
            {{"base", base()}, {"axes", {{"run.seed", {1, 2}}}}, {"name", std::string(192, 'n')}}),
        "");
    // The file's stem is the default name, under the same rules.
    const fs::path odd = m_dir / "odd\nname.json";
    std::ofstream(odd) << nlohmann::json{{"base", base()}, {"axes", {{"run.seed", {1}}}}}.dump();
    const auto r = sweep({"run", odd.string()});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(": name (the file's stem): "), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(db()));
}

// A name stored with a terminal escape and a newline (an older zerolab, a hand edit) was
// printed raw by list and show; it is printed with each control character as U+FFFD, and
// a resume refuses it rather than failing every trial.
TEST_F(SweepBounds, StoredNameWithControlCharactersIsPrintedRepaired) {
    const std::string raw = "evil\x1b]0;title\x07\nname";
    SweepSpec spec = parseSweepJson({{"base", base()}, {"axes", {{"run.seed", {1}}}}}, "s.json");
    {
        SweepStore store(RunStore::open(db()));
        nlohmann::json definition = spec.toJson();
        definition["name"] = raw;
        SweepRecord record;
        record.name = raw;
        record.source = "s.json";
        record.definition = definition.dump();
        store.createSweep(record);
    }
    const std::string repaired = "evil\xef\xbf\xbd]0;title\xef\xbf\xbd\xef\xbf\xbdname";
    const auto list = sweep({"list"});
    ASSERT_EQ(list.exit_code, 0) << list.err;
    EXPECT_EQ(list.out.find('\x1b'), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("1  " + repaired + "  running"), std::string::npos) << list.out;
    const auto show = sweep({"show", "1"});
    ASSERT_EQ(show.exit_code, 0) << show.err;
    EXPECT_EQ(show.out.rfind("sweep 1 (" + repaired + "), running\n", 0), 0u) << show.out;
    const auto resume = sweep({"resume", "1"});
    EXPECT_EQ(resume.exit_code, 2) << resume.err;
    EXPECT_NE(resume.err.find("sweep 1: its stored name cannot name its trials' runs"),
              std::string::npos)
        << resume.err;
}

// A sweep at the most candidates a file may ask for, stopped with SIGTERM at three
// moments: as it starts planning, after its first progress line, and later (planning,
// storing or a trial, as fast as this machine is). Each ends exit 3 with a message; the
// store holds either nothing or the sweep `stopped` with every candidate (before: SIGTERM
// while planning killed it, exit 143, silent; once the sweep row was stored, while its
// trials were, it stayed `running` with 0 trials).
TEST_F(SweepBounds, SigtermAtTheMaximumStopsInEveryPhase) {
    const nlohmann::json doc = {{"base", base()},
                                {"axes", {{"run.seed", values(int(kMaxCandidatesLimit))}}},
                                {"max_candidates", kMaxCandidatesLimit}};
    std::ofstream(m_dir / "max.json") << doc.dump();
    for (const double after_s : {0.0, kPlanningReportS + 1.0, 20.0}) {
        SCOPED_TRACE("SIGTERM " + std::to_string(after_s) + " s after the store appears");
        fs::remove(db());
        test::BackgroundProcess job({std::string(ZEROLAB_BIN_DIR) + "/zerolab-sweep", "run",
                                     (m_dir / "max.json").string(), "--db", db()});
        // The store is opened just before the planning starts (bounded wait, not timed).
        for (int i = 0; i < 1000 && !fs::exists(db()); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::duration<double>(after_s));
        ::kill(job.pid(), SIGTERM);
        const test::ProcessResult r = job.finish();
        EXPECT_EQ(r.exit_code, 3) << r.err.substr(0, 2000);
        SweepStore store(RunStore::open(db(), OpenMode::ReadOnly));
        const std::vector<SweepRecord> sweeps = store.listSweeps();
        if (sweeps.empty()) {
            EXPECT_NE(r.err.find("zerolab-sweep: stopped by request while planning ("),
                      std::string::npos)
                << r.err.substr(0, 2000);
            EXPECT_NE(r.err.find("candidates planned); nothing was stored"), std::string::npos)
                << r.err.substr(0, 2000);
            if (after_s > kPlanningReportS) {
                EXPECT_NE(r.err.find("zerolab-sweep: planned "), std::string::npos)
                    << "no progress while planning: " << r.err.substr(0, 2000);
            }
            continue;
        }
        EXPECT_NE(after_s, 0.0) << "100,000 candidates planned at once";
        ASSERT_EQ(sweeps.size(), 1u);
        EXPECT_EQ(sweeps[0].status, SweepStatus::Stopped) << sweeps[0].message;
        EXPECT_EQ(store.trials(sweeps[0].id).size(), std::size_t(kMaxCandidatesLimit));
        EXPECT_NE(r.err.find("zerolab-sweep: stopped; continue with: zerolab-sweep resume"),
                  std::string::npos)
            << r.err.substr(0, 2000);
    }
}

} // namespace
} // namespace zerolab
