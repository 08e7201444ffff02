// comm_bench: an nccl-tests style table for all-reduce, reduce-scatter and all-gather
// over zerolab's MpiCommunicator (blocking, and start + wait through its progress
// thread) against the raw MPI call on the same bytes, with a data check of every size.
//   mpirun -np N comm_bench [--min-bytes B] [--max-bytes B] [--reps R]
#include "runtime/comm/comm_mpi.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace zerolab {
namespace {

struct Options {
    std::size_t min_bytes = 1 << 10;
    std::size_t max_bytes = 64 << 20;
    int reps = 0; // 0: by size (see repsFor)
};

// Thrown for bad command-line arguments (exit code 2).
class UsageError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

std::size_t parseBytes(const std::string& arg, const std::string& s) {
    char* end = nullptr;
    const double v = std::strtod(s.c_str(), &end);
    const std::string unit = end ? end : "";
    const double mult = unit.empty() ? 1 : unit == "K" ? 1 << 10 : unit == "M" ? 1 << 20 : -1;
    if (end == s.c_str() || mult < 0 || v * mult < 4)
        throw UsageError(arg + ": '" + s +
                         "' is not a size of at least 4 bytes (e.g. 4096, 1K, 64M)");
    return static_cast<std::size_t>(v * mult);
}

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc)
            throw UsageError("'" + a + "' needs a value");
        const std::string v = argv[++i];
        if (a == "--min-bytes")
            o.min_bytes = parseBytes(a, v);
        else if (a == "--max-bytes")
            o.max_bytes = parseBytes(a, v);
        else if (a == "--reps" && std::atoi(v.c_str()) > 0)
            o.reps = std::atoi(v.c_str());
        else
            throw UsageError("bad argument '" + a + " " + v +
                             "'; usage: comm_bench [--min-bytes B] [--max-bytes B] [--reps R]");
    }
    if (o.min_bytes > o.max_bytes)
        throw UsageError("--min-bytes exceeds --max-bytes");
    return o;
}

// Enough repetitions for a stable median at small sizes, a bounded run at large ones.
int repsFor(std::size_t bytes, const Options& o) {
    if (o.reps > 0)
        return o.reps;
    const std::size_t r = (std::size_t{512} << 20) / bytes;
    return static_cast<int>(std::clamp<std::size_t>(r, 9, 201));
}

void checkMpi(int rc, const char* what) {
    if (rc != MPI_SUCCESS) {
        int rank = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        throw CommError("rank " + std::to_string(rank) + ": " + what + " failed (code " +
                        std::to_string(rc) + ")");
    }
}

enum class Impl { Raw = 0, Engine, Async };
constexpr std::array<Impl, 3> kImpls = {Impl::Raw, Impl::Engine, Impl::Async};

// One size of one collective: the input every rank starts from and the result it must
// end with, both as whole buffers of `total` floats (count x N for reduce-scatter and
// all-gather). Values are small integers, so every sum is exact in fp32.
struct Case {
    Collective coll;
    std::size_t count; // elements per MPI call (per rank for reduce-scatter and all-gather)
    std::size_t total; // floats in the buffer
    std::vector<float> input;
    std::vector<float> expected; // at the engine's positions; see checkResult for raw MPI
};

Case makeCase(Collective c, std::size_t bytes, int rank, int world) {
    Case k{c, 0, 0, {}, {}};
    const std::size_t floats = std::max<std::size_t>(1, bytes / sizeof(float));
    k.count = c == Collective::AllReduce ? floats : std::max<std::size_t>(1, floats / world);
    k.total = c == Collective::AllReduce ? k.count : k.count * world;
    k.input.resize(k.total);
    k.expected.resize(k.total);
    const float rankSum = static_cast<float>(world * (world + 1) / 2);
    for (std::size_t i = 0; i < k.total; ++i) {
        const float pattern = static_cast<float>(i % 13 + 1);
        if (c == Collective::AllGather) {
            // Rank r contributes only its slice r: (r+1) * pattern.
            const auto owner = static_cast<int>(i / k.count);
            k.input[i] = owner == rank ? (rank + 1) * pattern : -1.0f;
            k.expected[i] = (owner + 1) * pattern;
        } else {
            k.input[i] = (rank + 1) * pattern;
            k.expected[i] = rankSum * pattern;
        }
    }
    return k;
}

// Elements that differ from the expected result. Raw MPI's in-place reduce-scatter
// leaves this rank's slice at the front; the engine moves it to slice `rank`. Only the
// owned slice of a reduce-scatter is defined.
std::size_t checkResult(const Case& k, const std::vector<float>& buf, Impl impl, int rank) {
    std::size_t wrong = 0;
    if (k.coll == Collective::ReduceScatter) {
        const std::size_t at = impl == Impl::Raw ? 0 : rank * k.count;
        for (std::size_t i = 0; i < k.count; ++i)
            wrong += buf[at + i] != k.expected[rank * k.count + i];
        return wrong;
    }
    for (std::size_t i = 0; i < k.total; ++i)
        wrong += buf[i] != k.expected[i];
    return wrong;
}

class Bench {
public:
    Bench(MpiCommunicator& comm, const Options& o) : m_comm(comm), m_opt(o) {
        checkMpi(MPI_Comm_dup(MPI_COMM_WORLD, &m_raw), "MPI_Comm_dup");
        MPI_Comm_set_errhandler(m_raw, MPI_ERRORS_RETURN);
    }
    ~Bench() { MPI_Comm_free(&m_raw); }
    Bench(const Bench&) = delete;
    Bench& operator=(const Bench&) = delete;

    // Prints the rows of one collective, appends each size's engine/raw time ratio
    // (blocking call) to `ratios` and adds the wrong elements of every rank to `wrongTotal`.
    void run(Collective c, std::vector<std::pair<std::size_t, double>>& ratios,
             long long& wrongTotal) {
        for (std::size_t bytes = m_opt.min_bytes; bytes <= m_opt.max_bytes; bytes *= 2) {
            Case k = makeCase(c, bytes, m_comm.rank(), m_comm.size());
            std::vector<float> buf(k.total);
            const int reps = repsFor(bytes, m_opt);
            std::array<std::vector<double>, 3> times;
            std::array<long long, 3> wrong{};
            // Warm-up (page faults, MPI's connection set-up), then the reps with the three
            // implementations in rotating order so that load drift hits them alike.
            for (int r = -2; r < reps; ++r) {
                for (std::size_t j = 0; j < kImpls.size(); ++j) {
                    const Impl impl = kImpls[(j + static_cast<std::size_t>(r + 2)) % 3];
                    std::memcpy(buf.data(), k.input.data(), k.total * sizeof(float));
                    const double us = timeOne(k, impl, buf.data());
                    if (r < 0)
                        continue;
                    times[static_cast<int>(impl)].push_back(us);
                    if (r == reps - 1)
                        wrong[static_cast<int>(impl)] =
                            static_cast<long long>(checkResult(k, buf, impl, m_comm.rank()));
                }
            }
            m_comm.takeStats();
            printRow(k, times, wrong, ratios, wrongTotal);
        }
    }

private:
    // One collective, bracketed by a barrier; the time of the slowest rank in us.
    double timeOne(const Case& k, Impl impl, float* buf) {
        checkMpi(MPI_Barrier(m_raw), "MPI_Barrier");
        const auto t0 = std::chrono::steady_clock::now();
        switch (impl) {
        case Impl::Raw:
            rawCall(k, buf);
            break;
        case Impl::Engine:
            engineCall(k, buf);
            break;
        case Impl::Async:
            asyncCall(k, buf).wait();
            break;
        }
        double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                        .count();
        checkMpi(MPI_Allreduce(MPI_IN_PLACE, &us, 1, MPI_DOUBLE, MPI_MAX, m_raw), "MPI_Allreduce");
        return us;
    }

    void rawCall(const Case& k, float* buf) {
        const int n = static_cast<int>(k.count);
        switch (k.coll) {
        case Collective::AllReduce:
            checkMpi(MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_raw),
                     "MPI_Allreduce");
            break;
        case Collective::ReduceScatter:
            checkMpi(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_raw),
                     "MPI_Reduce_scatter_block");
            break;
        case Collective::AllGather:
            checkMpi(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, MPI_FLOAT, m_raw),
                     "MPI_Allgather");
            break;
        case Collective::Broadcast:
            break;
        }
    }

    void engineCall(const Case& k, float* buf) {
        switch (k.coll) {
        case Collective::AllReduce:
            m_comm.allReduce(buf, k.count, CommDType::F32);
            break;
        case Collective::ReduceScatter:
            m_comm.reduceScatter(buf, k.count, CommDType::F32);
            break;
        case Collective::AllGather:
            m_comm.allGather(buf, k.count, CommDType::F32);
            break;
        case Collective::Broadcast:
            break;
        }
    }

    CommHandle asyncCall(const Case& k, float* buf) {
        switch (k.coll) {
        case Collective::AllReduce:
            return m_comm.startAllReduce(buf, k.count, CommDType::F32);
        case Collective::ReduceScatter:
            return m_comm.startReduceScatter(buf, k.count, CommDType::F32);
        case Collective::AllGather:
            return m_comm.startAllGather(buf, k.count, CommDType::F32);
        case Collective::Broadcast:
            break;
        }
        return {};
    }

    static double median(std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v[v.size() / 2];
    }

    void printRow(const Case& k, const std::array<std::vector<double>, 3>& times,
                  const std::array<long long, 3>& wrong,
                  std::vector<std::pair<std::size_t, double>>& ratios, long long& wrongTotal) {
        long long w = wrong[0] + wrong[1] + wrong[2];
        checkMpi(MPI_Allreduce(MPI_IN_PLACE, &w, 1, MPI_LONG_LONG, MPI_SUM, m_raw),
                 "MPI_Allreduce");
        wrongTotal += w;
        const std::size_t bytes = k.total * sizeof(float);
        std::array<double, 3> med{};
        for (std::size_t i = 0; i < 3; ++i)
            med[i] = median(times[i]);
        const double ratio = med[1] / med[0];
        ratios.emplace_back(bytes, ratio);
        if (m_comm.rank() != 0)
            return;
        const std::string_view name = collectiveName(k.coll);
        std::printf("%-14.*s %10zu %10zu", static_cast<int>(name.size()), name.data(), bytes,
                    k.count);
        for (std::size_t i = 0; i < 3; ++i) {
            const double algbw = static_cast<double>(bytes) / (med[i] * 1e-6) / 1e9;
            // busbw with the runtime's own factors (storage/comm_traffic.h's ring factor;
            // a broadcast's bus bytes are its buffer, as nccl-tests counts them).
            const CollectiveStats measured{med[i] * 1e-3, static_cast<long long>(bytes), 1};
            std::printf(" %9.1f %6.2f %6.2f", med[i], algbw,
                        measured.busbwGbps(k.coll, m_comm.size()));
        }
        std::printf(" %6.2f %6.2f %6lld\n", ratio, med[2] / med[0], w);
        std::fflush(stdout);
    }

    MpiCommunicator& m_comm;
    Options m_opt;
    MPI_Comm m_raw = MPI_COMM_NULL;
};

// Median and worst engine/raw ratio over the sizes of at least `minBytes`.
void summarize(const char* what, const std::vector<std::pair<std::size_t, double>>& ratios,
               std::size_t minBytes) {
    std::vector<double> r;
    for (const auto& [bytes, ratio] : ratios)
        if (bytes >= minBytes)
            r.push_back(ratio);
    if (r.empty())
        return;
    std::sort(r.begin(), r.end());
    std::printf("# engine/raw time ratio, %s: median %.3f, worst %.3f (target <= 1.2)\n", what,
                r[r.size() / 2], r.back());
}

int runBench(const Options& o) {
    MpiCommunicator comm;
    Bench bench(comm, o);
    if (comm.rank() == 0) {
        std::printf("# zerolab comm_bench: %d ranks on %s, fp32 sum, in place; time = median over "
                    "reps of the slowest rank (us), algbw/busbw in GB/s (nccl-tests factors)\n",
                    comm.size(), comm.host().c_str());
        std::printf("# raw = the MPI call on the calling thread; engine = MpiCommunicator's "
                    "blocking call; async = its start + wait through the progress thread\n");
        std::printf("%-14s %10s %10s %9s %6s %6s %9s %6s %6s %9s %6s %6s %6s %6s %6s\n",
                    "# collective", "bytes", "count", "raw_us", "algbw", "busbw", "eng_us", "algbw",
                    "busbw", "async_us", "algbw", "busbw", "eng/r", "asy/r", "wrong");
    }
    long long wrong = 0;
    std::vector<std::pair<std::size_t, double>> ratios;
    for (Collective c : {Collective::AllReduce, Collective::ReduceScatter, Collective::AllGather})
        bench.run(c, ratios, wrong);
    if (comm.rank() == 0) {
        summarize("all sizes", ratios, 0);
        summarize("sizes >= 64 KiB", ratios, 64 << 10);
        std::printf("# data check: %lld wrong elements over all sizes and ranks\n", wrong);
    }
    return wrong == 0 ? 0 : 1;
}

} // namespace
} // namespace zerolab

int main(int argc, char** argv) {
    try {
        zerolab::MpiSession session(&argc, &argv);
        try {
            return zerolab::runBench(zerolab::parseOptions(argc, argv));
        } catch (const zerolab::UsageError& e) {
            std::fprintf(stderr, "comm_bench: %s\n", e.what());
            return 2;
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "comm_bench: %s\n", e.what());
        return 1;
    }
}
