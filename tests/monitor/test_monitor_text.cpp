// DeepSpeed's printouts and files from zerolab's numbers: number formats (profiler.py,
// comms_logging.py), CSV names and rows (csv_monitor.py), calc_bw_log and the log_all
// table, the flops profile's totals against model_flops.h, the timer line.
#include "tests/support/temp_dir.h"

#include "runtime/model/model_flops.h"
#include "runtime/monitor/comms_logger.h"
#include "runtime/monitor/csv_monitor.h"
#include "runtime/monitor/ds_text.h"
#include "runtime/monitor/flops_profile.h"
#include "runtime/monitor/run_monitors.h"
#include "storage/run_reader.h"
#include "storage/run_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace zerolab;
namespace fs = std::filesystem;

TEST(MonitorText, PythonAndDeepSpeedNumberFormats) {
    EXPECT_EQ(pyRepr(3.0), "3.0");
    EXPECT_EQ(pyRepr(0.001), "0.001");
    EXPECT_EQ(pyRepr(1e-05), "1e-05");
    EXPECT_EQ(pyRepr(5.5451774444795623), "5.545177444479562");
    EXPECT_EQ(dsNumber(124439808), "124.44 M");
    EXPECT_EQ(dsNumber(0), "0 ");
    EXPECT_EQ(dsNumber(0.0123), "12.3 m");
    EXPECT_EQ(dsParams(1.5e9), "1.5 B");
    EXPECT_EQ(dsSize(0), "0B");
    EXPECT_EQ(dsSize(1536), "1.5 KB");
    EXPECT_EQ(dsSize(4 * 1024 * 1024), "4.0 MB");
}

TEST(MonitorText, CsvFileNamesHeadersAndRows) {
    EXPECT_EQ(CsvMonitor::fileName("Train/Samples/train_loss"), "Train_Samples_train_loss.csv");
    EXPECT_EQ(CsvMonitor::fileName("a b/c"), "a_b_c.csv");
    EXPECT_EQ(CsvMonitor::header("Train/Samples/lr"), "lr");
    const test::TempDir temp("csv");
    const fs::path dir = temp.path();
    {
        CsvMonitor m((dir / "job").string());
        m.write(8, {{"Train/Samples/lr", 0.001}});
        m.write(16, {{"Train/Samples/lr", 0.002}});
    }
    std::ifstream in(dir / "job" / "Train_Samples_lr.csv", std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_EQ(text, "step,lr\r\n8,0.001\r\n16,0.002\r\n");
}

TEST(MonitorText, CalcBwLogAndTheVerboseLine) {
    // all_reduce of 1e6 bytes in 1 ms on 4 ranks: algbw 2 x 1e6 / 1 x 8 / 1e6 = 16 Gbps,
    // busbw 1e6 x 2 x 3/4 x 8 / 1e6 = 12 Gbps.
    const Bandwidth ar = deepSpeedBandwidth(Collective::AllReduce, 1e6, 1.0, 4);
    EXPECT_DOUBLE_EQ(ar.algbw_gbps, 16);
    EXPECT_DOUBLE_EQ(ar.busbw_gbps, 12);
    // all-gather: the size is one rank's part, times N.
    const Bandwidth ag = deepSpeedBandwidth(Collective::AllGather, 1e6, 2.0, 4);
    EXPECT_DOUBLE_EQ(ag.algbw_gbps, 16);
    EXPECT_DOUBLE_EQ(ag.busbw_gbps, 12);
    const Bandwidth bc = deepSpeedBandwidth(Collective::Broadcast, 1e6, 1.0, 4);
    EXPECT_DOUBLE_EQ(bc.algbw_gbps, bc.busbw_gbps);
    EXPECT_EQ(commLine({Collective::AllReduce, "all_reduce", 1e6, 1.0}, 4),
              "[Rank 0] comm op: all_reduce | time (ms): 1.00 | msg size: 976.56 KB | algbw "
              "(Gbps): 16.00 | busbw (Gbps): 12.00");
}

TEST(MonitorText, SummaryTableGroupsByOpAndSizeAndSumsTheLatencies) {
    CommsLoggerConfig config;
    config.enabled = true;
    CommsLogger log(config, 2);
    const auto t0 = CommTrace::Clock::now();
    auto run = [&](Collective c, long long bytes, double ms) {
        const int seq = log.issued(c, bytes, t0);
        log.ran(seq, t0,
                t0 + std::chrono::duration_cast<CommTrace::Clock::duration>(
                         std::chrono::duration<double, std::milli>(ms)));
    };
    run(Collective::ReduceScatter, 4096, 1.0);
    run(Collective::ReduceScatter, 4096, 3.0);
    run(Collective::AllGather, 8192, 0.5);
    const std::vector<CommRecord> taken = log.take();
    ASSERT_EQ(taken.size(), 3u);
    EXPECT_DOUBLE_EQ(taken[0].msg_bytes, 2048); // one rank's part of the 4 KiB buffer
    const std::string table = log.summary();
    std::istringstream lines(table);
    std::string header, op1, row1, op2, row2;
    std::getline(lines, header);
    std::getline(lines, op1);
    std::getline(lines, row1);
    std::getline(lines, op2);
    std::getline(lines, row2);
    EXPECT_EQ(header.substr(0, 40), "Comm. Op            Message Size        ");
    EXPECT_EQ(op1, "reduce_scatter_tensor");
    EXPECT_EQ(row1.substr(20, 60), "2.0 KB              2                   4.00                ");
    EXPECT_EQ(row1.substr(80, 4), "2.00");
    EXPECT_EQ(op2, "all_gather_into_tensor");
    EXPECT_EQ(row2.substr(20, 20), "4.0 KB              ");

    // prof_all off and prof_ops naming all-gather only: reduce-scatters are not kept.
    config.prof_all = false;
    config.prof_ops = {"all_gather_into_tensor"};
    CommsLogger only(config, 2);
    only.issued(Collective::ReduceScatter, 64, t0);
    only.ran(0, t0, t0);
    only.issued(Collective::AllGather, 64, t0);
    only.ran(1, t0, t0);
    const auto kept = only.take();
    ASSERT_EQ(kept.size(), 1u);
    EXPECT_EQ(kept[0].op, Collective::AllGather);
}

// A step's collectives as rank 0's comms logger saw them and as its stored timeline keeps
// them (storage/timeline.h): the GUI's summary of a stored run (storedCommsSummary) is the
// runtime's table, the same text from the one formatter. Whole microseconds, so that the
// logger's clock and the stored doubles hold the same durations.
TEST(MonitorText, AStoredRunsSummaryIsTheLoggersTable) {
    StepTimeline tl;
    tl.step = 2;
    tl.world = 2;
    struct Call {
        Collective op;
        long long bytes;
        double start_us, end_us;
    };
    const std::vector<Call> calls = {{Collective::AllGather, 8192, 0, 250},
                                     {Collective::ReduceScatter, 4096, 300, 1300},
                                     {Collective::ReduceScatter, 4096, 1400, 4400},
                                     {Collective::AllReduce, 4, 4500, 4520},
                                     {Collective::Broadcast, 1 << 20, 5000, 7000}};
    for (int rank = 0; rank < 2; ++rank)
        for (std::size_t i = 0; i < calls.size(); ++i) {
            TimelineSpan s;
            s.rank = rank;
            s.kind = SpanKind::Collective;
            s.collective = calls[i].op;
            s.bytes = calls[i].bytes;
            s.seq = static_cast<int>(i);
            s.issue_us = s.start_us = calls[i].start_us + rank; // rank 1: another time
            s.end_us = calls[i].end_us + 3 * rank;
            tl.spans.push_back(s);
        }
    std::reverse(tl.spans.begin(), tl.spans.end()); // stored in any order

    CommsLoggerConfig config;
    config.enabled = true;
    CommsLogger log(config, 2);
    const auto t0 = CommTrace::Clock::now();
    const auto at = [&](double us) { return t0 + std::chrono::microseconds(std::llround(us)); };
    for (const Call& c : calls)
        log.ran(log.issued(c.op, c.bytes, at(c.start_us)), at(c.start_us), at(c.end_us));
    ASSERT_EQ(log.take().size(), calls.size());

    CommsSummary fromTimeline(2);
    for (const CommRecord& r : commRecordsOf(tl, 0))
        fromTimeline.add(r);
    EXPECT_EQ(fromTimeline.text(), log.summary());

    // Through the store: the sampled step's timeline read back gives the same table.
    const test::TempDir temp("comms-summary");
    const std::string db = temp.file("runs.db");
    std::int64_t run = 0;
    {
        RunWriter w(RunStore::open(db));
        RunInfo info;
        info.name = "comms";
        info.world = 2;
        run = w.createRun(info);
        Segment segment;
        segment.world = 2;
        segment.reason = "start";
        w.beginSegment(segment);
        for (long long step = 0; step < 4; ++step) {
            StepRecord s;
            s.step = step;
            for (int r = 0; r < 2; ++r) {
                RankRecord rr;
                rr.rank = r;
                s.ranks.push_back(rr);
            }
            w.appendStep(s);
        }
        w.appendTimeline(tl);
        w.finish(RunStatus::Finished, "done");
    }
    RunReader reader(RunStore::open(db, OpenMode::ReadOnly));
    const StoredCommsSummary stored = storedCommsSummary(reader, run);
    EXPECT_EQ(stored.sampled_steps, 1u);
    EXPECT_EQ(stored.table, log.summary());
}

// A small reduce-scatter that rank 0 enters 5 ms before rank 1 "takes" 6 ms on rank 0: the
// stored summary's split says 5 of them waited for rank 1 and 1 moved data (issue 39: the
// 256 B and 512 B reduce-scatters averaging 6-27 ms were skew waits read as slow transfers).
TEST(MonitorText, AStoredSummarySplitsTheWaitForTheLastRankFromTheTransfer) {
    StepTimeline tl;
    tl.step = 1;
    tl.world = 2;
    for (int rank = 0; rank < 2; ++rank)
        for (int i = 0; i < 2; ++i) {
            TimelineSpan s;
            s.rank = rank;
            s.kind = SpanKind::Collective;
            s.collective = Collective::ReduceScatter;
            s.bytes = 512;
            s.seq = i;
            // Rank 0 early by 5 ms (collective 0) and by 3 ms (collective 1); both end together.
            s.issue_us = s.start_us = 10000.0 * i + (rank == 0 ? 0 : (i == 0 ? 5000 : 3000));
            s.end_us = 10000.0 * i + 6000;
            tl.spans.push_back(s);
        }
    const std::vector<CommRecord> records = commRecordsOf(tl, 0);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_DOUBLE_EQ(records[0].ms, 6.0);
    EXPECT_DOUBLE_EQ(records[0].wait_ms, 5.0);
    EXPECT_DOUBLE_EQ(records[1].wait_ms, 3.0);
    EXPECT_DOUBLE_EQ(commRecordsOf(tl, 1)[0].wait_ms, 0.0); // the last to arrive waits for none

    CommsSummary summary(2);
    for (const CommRecord& r : records)
        summary.add(r);
    std::istringstream lines(summary.splitText());
    std::string header, op, row;
    std::getline(lines, header);
    std::getline(lines, op);
    std::getline(lines, row);
    EXPECT_EQ(header.substr(60, 60),
              "Mean Latency(ms)    Wait(ms)            Transfer(ms)        ");
    EXPECT_EQ(header.substr(120), "busbw_xfer (Gbps)   ");
    EXPECT_EQ(op, "reduce_scatter_tensor");
    // 256 B a rank (DeepSpeed's size), 2 calls, mean 6 ms of which 4 waited and 2 moved data.
    EXPECT_EQ(row.substr(20, 100), "256.0 B             2                   6.00                "
                                   "4.00                2.00                ");

    // The logger of a run sees one rank: it knows no wait, and prints no split.
    CommsSummary logger(2);
    logger.add({Collective::ReduceScatter, "reduce_scatter_tensor", 256, 6});
    EXPECT_EQ(logger.splitText(), "");
}

TEST(MonitorText, FlopsProfileTotalsAreModelFlops) {
    FlopsProfileInput in;
    in.shape = ModelShape{2, 2, 64, 64, 256, 256};
    in.seq_len = 32;
    in.micro_batch = 4;
    in.grad_accum = 2;
    in.world = 2;
    in.step = 2;
    in.fwd_ms = 10;
    in.bwd_ms = 20;
    in.step_ms = 5;
    const double tokens = 4.0 * 32 * 2;
    EXPECT_DOUBLE_EQ(3 * profiledForwardFlops(in), modelFlopsPerToken(in.shape, 32) * tokens);
    double params = 0;
    for (const ModuleFlops& m : moduleForwardFlops(in.shape, 32))
        params += m.params;
    EXPECT_DOUBLE_EQ(params, static_cast<double>(paramCount(in.shape)));

    FlopsProfilerConfig config;
    const std::string text = flopsProfile(in, config);
    EXPECT_NE(text.find("Profile Summary at step 2:"), std::string::npos) << text;
    const std::string flops = dsNumber(profiledForwardFlops(in));
    EXPECT_NE(text.find("fwd flops per GPU:" + std::string(70 - 18, ' ') + "  " + flops),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("params per GPU: "), std::string::npos);
    EXPECT_NE(text.find("fwd latency: "), std::string::npos);
    EXPECT_NE(text.find("bwd latency: "), std::string::npos);
    EXPECT_NE(text.find("depth 0:\n    params      - {'GPT2': '" + dsParams(params) + "'}"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("(attn): CausalSelfAttention("), std::string::npos) << text;
    EXPECT_NE(text.find("(mlp): MLP("), std::string::npos);
    EXPECT_NE(text.find("(lm_head): Linear("), std::string::npos);
    config.detailed = false;
    EXPECT_EQ(flopsProfile(in, config).find("Detailed Profile"), std::string::npos);
}

TEST(MonitorText, TimerLineAndMonitorTags) {
    EXPECT_EQ(wallClockLine({1.5, 2.25, 0.5, 3}),
              "[Rank 0] time (ms) | fwd: 1.50 | bwd: 2.75 | bwd_inner: 2.25 | bwd_allreduce: "
              "0.50 | step: 3.00");
    TrainConfig c;
    c.batch.train_batch_size = 8;
    StepRecord rec;
    rec.step = 3;
    rec.loss = 4;
    rec.lr = 0.1;
    std::vector<MonitorEvent> e = monitorEvents(c, rec, {});
    ASSERT_GE(e.size(), 2u);
    EXPECT_EQ(e[0].tag, "Train/Samples/train_loss");
    EXPECT_EQ(e[0].samples, 16); // before the step: DeepSpeed logs it in backward
    EXPECT_EQ(e[1].tag, "Train/Samples/lr");
    EXPECT_EQ(e[1].samples, 24);
    for (const MonitorEvent& m : e)
        EXPECT_EQ(m.tag.find("elapsed_time_ms"), std::string::npos);
    c.wall_clock_breakdown = true;
    e = monitorEvents(c, rec, {1, 2, 3, 4});
    EXPECT_EQ(e[2].tag, "Train/Samples/elapsed_time_ms_forward");
    EXPECT_EQ(e[3].tag, "Train/Samples/elapsed_time_ms_backward");
    EXPECT_DOUBLE_EQ(e[3].value, 5);
}
