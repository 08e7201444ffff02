// timeline_store_bench: what storing one step timeline costs the thread that stores it,
// RunWriter::appendTimelines for nano-sized steps, one transaction per --batch timelines (per rank:
// the control all-reduce, data, 5 forwards, 4 backwards, 8 collectives, 7 waits, 3 optimizer parts;
// 8 memory samples), the work rank 0's timeline writer thread does for every recorded step. Prints
// medians and p90 of the thread's CPU time and wall time per timeline, the write-ahead log's frames
// (4 KiB pages) per timeline and the stored bytes per timeline. Build it at two commits to compare
// store layouts (docs/metrics.md#cost). Usage: timeline_store_bench [--timelines N] [--ranks R]
// [--batch B] [--reps K] [--dir FOLDER]
#include "storage/run_store.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "storage/timeline.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

using namespace zerolab;

namespace {

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(q * v.size()))];
}

double threadCpuUs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

// A recorded nano step as zerolab-train stores it (stage 1, N ranks, 4 gather units):
// times in microseconds with nanosecond resolution, as the recorder makes them.
StepTimeline nanoStep(long long step, int world) {
    StepTimeline tl;
    tl.step = step;
    tl.world = world;
    for (int r = 0; r < world; ++r) {
        double t = 0.038507 + 0.0011 * r;
        auto span = [&](SpanKind k, int unit, int micro, double us) {
            tl.spans.push_back({r, k, unit, micro, Collective::AllReduce, 0, -1, t, t, t + us});
            t += us + 0.241;
        };
        span(SpanKind::Control, -1, -1, 4999.361);
        span(SpanKind::Data, -1, 0, 2.694);
        for (int u : {0, 1, 2, 3, 0})
            span(SpanKind::Forward, u, 0, 1159.178 + 31 * u);
        for (int u : {3, 2, 1, 0})
            span(SpanKind::Backward, u, 0, 1943.16 + 17 * u);
        for (int seq = 0; seq < 8; ++seq) {
            const bool rs = seq < 4;
            const int unit = rs ? 3 - seq : seq - 4;
            const long long bytes = unit == 3 ? 512 : unit == 0 ? 81920 : 199936;
            tl.spans.push_back({r, SpanKind::Collective, unit, rs ? 0 : -1,
                                rs ? Collective::ReduceScatter : Collective::AllGather, bytes, seq,
                                t, t + 4171.083, t + 4251.702});
            if (seq > 0)
                tl.spans.push_back({r, SpanKind::Wait, unit, rs ? 0 : -1,
                                    rs ? Collective::ReduceScatter : Collective::AllGather, 0, seq,
                                    t + 2.5, t + 2.5, t + 4000.417});
            t += 4300.129;
        }
        for (int i = 0; i < 3; ++i)
            span(SpanKind::Optimizer, -1, -1, 4019.81 / (i + 1));
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            tl.memory.push_back({r, 0.04 + 1079.616 * r, static_cast<MemCategory>(c),
                                 static_cast<long long>(241152 * (c + 1))});
    }
    return tl;
}

// The write-ahead log's frames appended by each commit, through SQLite's WAL hook, which
// replaces the automatic checkpoint: the hook checkpoints at 10000 frames as RunWriter's would.
struct WalFrames {
    int last = 0;
    long long appended = 0;
    static int hook(void* self, sqlite3* db, const char* name, int frames) {
        auto* w = static_cast<WalFrames*>(self);
        w->appended += frames >= w->last ? frames - w->last : frames;
        w->last = frames;
        if (frames >= 10000) { // RunWriter's wal_autocheckpoint
            sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        }
        return SQLITE_OK;
    }
};

struct Result {
    double cpu_med, cpu_p90, wall_med, wall_p90, frames, bytes;
};

// Per-timeline CPU and wall times are a batch's divided by its size.
Result runOnce(const std::string& path, int n, int world, int batch) {
    std::filesystem::remove(path);
    std::filesystem::remove(path + "-wal");
    std::filesystem::remove(path + "-shm");
    RunStore store = RunStore::open(path);
    sqlite3* handle = store.db().handle(); // moves into the writer with its connection
    RunWriter w(std::move(store));
    WalFrames wal; // after the writer set its automatic checkpoint, which this replaces
    sqlite3_wal_hook(handle, &WalFrames::hook, &wal);
    RunInfo info;
    info.name = "timeline-store-bench";
    info.world = world;
    w.createRun(info);
    std::vector<StepTimeline> tls;
    for (int i = 0; i < n; ++i)
        tls.push_back(nanoStep(10 + i, world));
    const long long frames0 = wal.appended;
    std::vector<double> cpu, wall;
    for (std::size_t first = 0; first < tls.size(); first += static_cast<std::size_t>(batch)) {
        const std::size_t count = std::min<std::size_t>(batch, tls.size() - first);
        const double c0 = threadCpuUs();
        const auto w0 = std::chrono::steady_clock::now();
        w.appendTimelines(std::span<const StepTimeline>(tls.data() + first, count));
        wall.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - w0)
                .count() /
            static_cast<double>(count));
        cpu.push_back((threadCpuUs() - c0) / static_cast<double>(count));
    }
    const double frames = double(wal.appended - frames0) / n;
    RunStore other = RunStore::open(path);
    other.db().exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const double bytes = double(std::filesystem::file_size(path)) / n;
    std::printf("# row: %lld bytes of JSON\n",
                other.db().queryInt("SELECT max(length(spans) + length(memory)) FROM timelines"));
    return {percentile(cpu, 0.5),
            percentile(cpu, 0.9),
            percentile(wall, 0.5),
            percentile(wall, 0.9),
            frames,
            bytes};
}

} // namespace

int main(int argc, char** argv) {
    int n = 2000, world = 2, reps = 5, batch = 1;
    std::string dir = std::filesystem::temp_directory_path() / "zerolab-timeline-store-bench";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--timelines")
            n = std::atoi(argv[i + 1]);
        else if (a == "--ranks")
            world = std::atoi(argv[i + 1]);
        else if (a == "--batch")
            batch = std::atoi(argv[i + 1]);
        else if (a == "--reps")
            reps = std::atoi(argv[i + 1]);
        else if (a == "--dir")
            dir = argv[i + 1];
        else {
            std::fprintf(stderr, "timeline_store_bench: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (n < 1 || world < 1 || reps < 1 || batch < 1) {
        std::fprintf(stderr,
                     "timeline_store_bench: --timelines, --ranks, --batch, --reps must be >= 1\n");
        return 2;
    }
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/runs.db";
    std::printf("# %d timelines of a nano step, %d ranks, %zu spans; schema version %d\n", n, world,
                nanoStep(0, world).spans.size(), RunStore::kSchemaVersion);
    std::printf("rep  cpu_med_us  cpu_p90_us  wall_med_us  wall_p90_us  wal_frames  bytes\n");
    std::vector<double> cpu, wall, frames, bytes;
    for (int r = 0; r < reps; ++r) {
        const Result x = runOnce(path, n, world, batch);
        std::printf("%3d  %10.1f  %10.1f  %11.1f  %11.1f  %10.2f  %5.0f\n", r + 1, x.cpu_med,
                    x.cpu_p90, x.wall_med, x.wall_p90, x.frames, x.bytes);
        cpu.push_back(x.cpu_med);
        wall.push_back(x.wall_med);
        frames.push_back(x.frames);
        bytes.push_back(x.bytes);
    }
    std::printf("# medians over %d reps: %.1f us CPU, %.1f us wall, %.2f WAL frames, %.0f stored "
                "bytes per timeline\n",
                reps, percentile(cpu, 0.5), percentile(wall, 0.5), percentile(frames, 0.5),
                percentile(bytes, 0.5));
    std::filesystem::remove_all(dir);
    return 0;
}
