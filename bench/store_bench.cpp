// store_bench: ingest 100,000 logged steps x 8 ranks through RunWriter (one transaction
// per step, as rank 0 does), then read the 100,000-step series through RunReader.
// Prints medians over repetitions and the ratio to the targets (ingest >= 200,000
// rank-rows/s, series read <= 100 ms), and checks what it read back.
// Usage: store_bench [--steps N] [--ranks R] [--reps K] [--dir FOLDER]
#include "storage/run_reader.h"
#include "storage/run_writer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

using namespace zerolab;

namespace {

constexpr double kTargetRowsPerS = 200000.0;
constexpr double kTargetReadMs = 100.0;

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Wall and process-CPU time of one measured region. The CPU time is printed too
// because on a shared machine the wall time also counts waiting for a core.
struct Timer {
    std::chrono::steady_clock::time_point wall0 = std::chrono::steady_clock::now();
    double cpu0 = cpuSeconds();
    static double cpuSeconds() {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    }
    double wall() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    }
    double cpu() const { return cpuSeconds() - cpu0; }
};

StepRecord benchStep(std::int64_t step, int ranks) {
    StepRecord s;
    s.step = step;
    s.wall_time_s = 0.1 * static_cast<double>(step);
    s.tokens = 65536 * (step + 1);
    s.loss = 11.0 / (1.0 + 0.001 * static_cast<double>(step));
    s.lr = 6e-4;
    s.grad_norm = 0.9;
    s.tokens_per_s = 50000.0 + static_cast<double>(step % 100);
    s.mfu = 0.41;
    s.step_ms = 100;
    s.fwd_ms = 30;
    s.bwd_ms = 60;
    s.optim_ms = 10;
    s.comm = {5, 4, 3, 0, 1};
    s.comm_bytes = 248LL << 20;
    s.busbw_gbps = 80;
    s.ranks.resize(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r) {
        RankRecord& k = s.ranks[static_cast<std::size_t>(r)];
        k.rank = r;
        k.host = "node0";
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            k.mem.bytes[c] = static_cast<long long>((c + 1) << 24) + r;
        k.rss = 3LL << 30;
        k.device_used = 40LL << 30;
        k.peak = 42LL << 30;
        k.comm = {5, 4, 3, 0, 1};
    }
    return s;
}

long argValue(int argc, char** argv, const std::string& name, long fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (argv[i] == name)
            return std::strtol(argv[i + 1], nullptr, 10);
    return fallback;
}

} // namespace

int main(int argc, char** argv) {
    const long steps = argValue(argc, argv, "--steps", 100000);
    const int ranks = static_cast<int>(argValue(argc, argv, "--ranks", 8));
    const int reps = static_cast<int>(argValue(argc, argv, "--reps", 3));
    std::string dir = std::filesystem::temp_directory_path().string();
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--dir")
            dir = argv[i + 1];
    if (steps <= 0 || ranks <= 0 || reps <= 0) {
        std::fprintf(stderr, "store_bench: --steps, --ranks and --reps must be positive\n");
        return 2;
    }
    const std::string path = dir + "/zerolab-store-bench.db";

    try {
        std::vector<double> ingestS, ingestCpuS, readMs, readCpuMs, rankReadMs;
        for (int rep = 0; rep < reps; ++rep) {
            for (const char* suffix : {"", "-wal", "-shm"})
                std::filesystem::remove(path + suffix);
            std::vector<StepRecord> data;
            data.reserve(static_cast<std::size_t>(steps));
            for (long i = 0; i < steps; ++i)
                data.push_back(benchStep(i, ranks));

            RunWriter w(RunStore::open(path));
            RunInfo info;
            info.name = "bench";
            info.world = ranks;
            const std::int64_t id = w.createRun(info);
            Segment segment;
            segment.world = ranks;
            segment.stage = 2;
            segment.grad_accum = 1;
            segment.micro_batch = 4;
            segment.reason = "start";
            w.beginSegment(segment);
            const Timer ingestTimer;
            for (const StepRecord& s : data)
                w.appendStep(s);
            ingestS.push_back(ingestTimer.wall());
            ingestCpuS.push_back(ingestTimer.cpu());
            w.finish(RunStatus::Finished);

            RunReader r(RunStore::open(path, OpenMode::ReadOnly));
            for (int k = 0; k < 3; ++k) {
                const Timer readTimer;
                const auto series = r.steps(id);
                readMs.push_back(1e3 * readTimer.wall());
                readCpuMs.push_back(1e3 * readTimer.cpu());
                if (static_cast<long>(series.size()) != steps || series.back().step != steps - 1 ||
                    series.back().loss != data.back().loss) {
                    std::fprintf(stderr, "store_bench: read back %zu steps, wrong data\n",
                                 series.size());
                    return 1;
                }
            }
            const Timer rankTimer;
            const auto rows = r.rankSeries(id);
            rankReadMs.push_back(1e3 * rankTimer.wall());
            if (static_cast<long>(rows.size()) != steps * ranks ||
                rows.back().rank.peak != data.back().ranks.back().peak) {
                std::fprintf(stderr, "store_bench: read back %zu rank rows, wrong data\n",
                             rows.size());
                return 1;
            }
        }
        for (const char* suffix : {"", "-wal", "-shm"})
            std::filesystem::remove(path + suffix);

        const double rankRows = static_cast<double>(steps) * ranks;
        const double ingest = median(ingestS);
        const double rowsPerS = rankRows / ingest;
        const double read = median(readMs);
        std::printf("store_bench: %ld steps x %d ranks, %d repetitions, store in %s\n", steps,
                    ranks, reps, dir.c_str());
        std::printf("%-34s %14s %14s %10s\n", "measure", "median", "target", "ratio");
        std::printf("%-34s %11.0f/s %11.0f/s %9.2fx\n", "ingest rank-rows (1 txn/step)", rowsPerS,
                    kTargetRowsPerS, rowsPerS / kTargetRowsPerS);
        std::printf("%-34s %11.0f/s %11.0f/s %9.2fx\n", "  same, per CPU-second",
                    rankRows / median(ingestCpuS), kTargetRowsPerS,
                    rankRows / median(ingestCpuS) / kTargetRowsPerS);
        std::printf("%-34s %11.0f/s %14s %10s\n", "ingest steps", steps / ingest, "-", "-");
        std::printf("%-34s %11.1fms %11.1fms %9.2fx\n", "read step series (RunReader::steps)", read,
                    kTargetReadMs, kTargetReadMs / read);
        std::printf("%-34s %11.1fms %11.1fms %9.2fx\n", "  same, CPU time", median(readCpuMs),
                    kTargetReadMs, kTargetReadMs / median(readCpuMs));
        std::printf("%-34s %11.1fms %14s %10s\n", "read rank series (rankSeries)",
                    median(rankReadMs), "-", "-");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "store_bench: %s\n", e.what());
        return 1;
    }
}
