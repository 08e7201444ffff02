// The model timed in situ for zerolab-calibrate (calibrate_pieces.h).
#include "runtime/train/calibrate_pieces.h"

#include "runtime/train/calibrate_kernels.h"

#include "runtime/memory/ledger.h"
#include "runtime/model/network.h"
#include "runtime/model/unit_calls.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace zerolab {

namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}

// Every unit's parameters and gradients in one flat device buffer each, as stage 0 on one
// rank holds them; each call to the model's access is clocked once the kernels are done.
class ClockedAccess : public UnitAccess {
public:
    ClockedAccess(Kernels& k, const ModelShape& shape, const ParamLayout& layout)
        : m_k(k), m_layout(layout) {
        const std::size_t n = static_cast<std::size_t>(layout.padded_total);
        std::vector<float> host(n);
        for (const UnitLayout& u : layout.units)
            initUnitParams(shape, u, 1337, host.data() + u.offset);
        m_params = static_cast<float*>(k.allocate(n * sizeof(float)));
        m_grads = static_cast<float*>(k.allocate(n * sizeof(float)));
        k.copyToDevice(m_params, host.data(), n * sizeof(float));
        k.fillZero(m_grads, n * sizeof(float));
    }
    ~ClockedAccess() override {
        m_k.release(m_params);
        m_k.release(m_grads);
    }
    ClockedAccess(const ClockedAccess&) = delete;
    ClockedAccess& operator=(const ClockedAccess&) = delete;

    const float* params(int u) override {
        mark();
        return m_params + m_layout.units[static_cast<std::size_t>(u)].offset;
    }
    float* grads(int u) override {
        mark();
        return m_grads + m_layout.units[static_cast<std::size_t>(u)].offset;
    }
    void release(int) override { mark(); }
    void gradsReady(int) override { mark(); }
    void recomputing(int) override { mark(); }
    void mark() {
        m_k.synchronize();
        marks.push_back(Clock::now());
    }
    std::vector<Clock::time_point> marks;

private:
    Kernels& m_k;
    const ParamLayout& m_layout;
    float* m_params = nullptr;
    float* m_grads = nullptr;
};

// A network at B, T = shape.seq_len, its parameters and a batch of tokens.
struct Pass {
    Pass(Kernels& k, const ModelShape& shape, int B, Recompute recompute)
        : kernels(k), model(makeNetwork(shape, B, shape.seq_len, k, ledger, recompute)),
          access(k, shape, model->layout()), tokens(static_cast<std::size_t>(B) * shape.seq_len) {
        for (std::size_t i = 0; i < tokens.size(); ++i)
            tokens[i] = static_cast<int>((i * 7919) % static_cast<std::size_t>(shape.vocab_size));
    }
    // One forward and backward; (forward start, forward end, backward start, backward end).
    std::array<Clock::time_point, 4> run() {
        std::array<Clock::time_point, 4> t;
        access.marks.clear();
        kernels.synchronize();
        t[0] = Clock::now();
        model->forward(tokens.data(), tokens.data(), access);
        kernels.synchronize();
        t[1] = t[2] = Clock::now();
        model->backward(tokens.data(), tokens.data(), access, 1.0f);
        kernels.synchronize();
        t[3] = Clock::now();
        return t;
    }
    Kernels& kernels;
    MemoryLedger ledger;
    std::unique_ptr<Network> model;
    ClockedAccess access;
    std::vector<int> tokens;
};

} // namespace

namespace {

// One (shape, B)'s pass with full recompute, and where in its calls each piece's time falls.
struct PieceRun {
    PieceRun(Kernels& k, const PieceSet& set)
        : set(set), pass(k, set.shape, set.micro_batch, Recompute::Full),
          calls(modelUnitCalls(pass.model->layout(), Recompute::Full)) {
        while (forwardCalls < calls.size() && calls[forwardCalls].then != ModelCompute::HeadForward)
            ++forwardCalls;
        forwardCalls += 2; // the lm head's params and release end the forward
        for (const UnitCall& c : calls)
            perPass[static_cast<std::size_t>(c.then)] += 1;
        perPass[static_cast<std::size_t>(ModelCompute::HeadBackward)] = 1;
    }
    // One forward and backward; with `keep`, each piece's seconds per call is a sample.
    void run(bool keep) {
        const auto t = pass.run();
        const auto& m = pass.access.marks;
        if (m.size() != calls.size())
            throw std::logic_error("calibrate: the model made " + std::to_string(m.size()) +
                                   " calls to its access, modelUnitCalls lists " +
                                   std::to_string(calls.size()));
        if (!keep)
            return;
        std::array<double, kModelComputeCount> sum{};
        for (std::size_t i = 0; i < calls.size(); ++i) {
            const bool lastForward = i + 1 == forwardCalls;
            const auto end = lastForward ? t[1] : i + 1 < calls.size() ? m[i + 1] : t[3];
            sum[static_cast<std::size_t>(calls[i].then)] += seconds(m[i], end);
        }
        // The cross-entropy backward, before backward's first call (unit_calls.h).
        sum[static_cast<std::size_t>(ModelCompute::HeadBackward)] += seconds(t[2], m[forwardCalls]);
        for (std::size_t c = 1; c < kModelComputeCount; ++c)
            if (perPass[c] > 0)
                samples[c].push_back(sum[c] / perPass[c]);
    }
    ModelPieceTimes times() const {
        ModelPieceTimes out = modelPieceKey(set.shape, set.micro_batch, set.shape.seq_len);
        for (std::size_t c = 1; c < kModelComputeCount; ++c)
            if (!samples[c].empty())
                out.seconds[c] = median(samples[c]);
        return out;
    }

    PieceSet set;
    Pass pass;
    std::vector<UnitCall> calls;
    std::size_t forwardCalls = 0;
    std::array<double, kModelComputeCount> perPass{};
    std::array<std::vector<double>, kModelComputeCount> samples;
};

} // namespace

std::vector<ModelPieceTimes> measureModelPieces(Kernels& k, const std::vector<PieceSet>& sets,
                                                int rounds,
                                                const std::function<void(int)>& roundDone) {
    std::vector<std::unique_ptr<PieceRun>> runs;
    for (const PieceSet& s : sets)
        runs.push_back(std::make_unique<PieceRun>(k, s));
    for (int round = 0; round <= rounds; ++round) {
        for (auto& r : runs)
            r->run(round > 0); // round 0 warms up
        if (roundDone)
            roundDone(round);
    }
    std::vector<ModelPieceTimes> out;
    for (const auto& r : runs)
        out.push_back(r->times());
    return out;
}

struct ReferencePassTimer::Impl {
    Impl(Kernels& k, const ModelShape& shape, int B) : pass(k, shape, B, Recompute::None) {}
    Pass pass;
};

ReferencePassTimer::ReferencePassTimer(Kernels& k, const ModelShape& shape, int B)
    : m(std::make_unique<Impl>(k, shape, B)) {}
ReferencePassTimer::~ReferencePassTimer() = default;

double ReferencePassTimer::time() {
    const auto at = m->pass.run();
    return seconds(at[0], at[3]);
}

double ReferencePassTimer::best(int calls) {
    double fastest = time();
    for (int i = 1; i < calls; ++i)
        fastest = std::min(fastest, time());
    return fastest;
}

SharingTimes sharingSeconds(Kernels& k, const ModelShape& shape, int B, int rounds,
                            Communicator& comm) {
    ReferencePassTimer pass(k, shape, B);
    auto timed = [&] { return pass.time(); };
    std::vector<double> shared, alone;
    for (int round = 0; round <= rounds; ++round) {
        comm.barrier();
        const double both = timed();
        comm.barrier();
        // Rank 0 alone; the others sleep (a waiting MPI rank spins on a core) for half again
        // as long as their pass at once took, which an alone pass does not exceed.
        if (comm.rank() == 0) {
            const double one = timed();
            if (round > 0)
                alone.push_back(one);
        } else {
            std::this_thread::sleep_for(std::chrono::duration<double>(1.5 * both + 0.002));
        }
        if (round > 0)
            shared.push_back(both);
    }
    comm.barrier();
    // Every rank's passes at once to every rank, and rank 0's alone: a step waits for its
    // slowest rank, so each round's pass at once is its slowest rank's.
    const std::size_t n = static_cast<std::size_t>(comm.size()), r = shared.size();
    std::vector<double> all(n * r + 1, 0.0);
    std::copy(shared.begin(), shared.end(), all.begin() + static_cast<long>(comm.rank() * r));
    if (comm.rank() == 0)
        all.back() = median(alone);
    comm.sumDoubles(all.data(), all.size());
    std::vector<double> slowest(r, 0.0), mean(r, 0.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < r; ++k) {
            slowest[k] = std::max(slowest[k], all[i * r + k]);
            mean[k] += all[i * r + k] / static_cast<double>(n);
        }
    return {all.back(), median(slowest), median(mean)};
}

double commRateBesideCompute(Kernels& k, const ModelShape& shape, int B, double bytes,
                             double alone_s, int rounds, Communicator& comm, double* compute_rate) {
    ReferencePassTimer pass(k, shape, B);
    const std::size_t count = static_cast<std::size_t>(bytes / 4);
    std::vector<float> buf(count, 1.0f);
    std::vector<std::vector<float>> queued; // compute beside comm: the all-reduces' buffers
    std::vector<double> rate, compute;
    comm.takeStats();
    for (int round = 0; round <= rounds; ++round) {
        std::fill(buf.begin(), buf.end(), 1.0f);
        comm.barrier();
        comm.takeStats();
        CommHandle h = comm.startAllReduce(buf.data(), buf.size(), CommDType::F32);
        const double D = pass.time();
        h.wait();
        const double E = comm.takeStats()[Collective::AllReduce].ms / 1e3;
        if (round > 0 && E > 0) {
            const double r = E <= D ? alone_s / E : (alone_s - (E - D)) / D;
            rate.push_back(std::clamp(r, 0.001, 1.0));
        }
        if (!compute_rate)
            continue;
        comm.barrier();
        const double D0 = pass.time();
        // As many all-reduces as outlast the pass alone by half again; every rank the same
        // count (rank 0's), so that all issue the same collectives.
        double n[1] = {comm.rank() == 0 ? std::ceil(1.5 * D0 / std::max(alone_s, 1e-6)) : 0.0};
        comm.sumDoubles(n, 1);
        const double cap = std::max(1.0, std::floor(256.0 * 1024 * 1024 / std::max(bytes, 4.0)));
        const auto calls = static_cast<std::size_t>(std::clamp(n[0], 1.0, std::min(256.0, cap)));
        queued.resize(calls, std::vector<float>(count, 1.0f));
        for (auto& q : queued)
            std::fill(q.begin(), q.end(), 1.0f);
        comm.barrier();
        comm.takeStats();
        std::vector<CommHandle> hs;
        for (std::size_t i = 0; i < calls; ++i)
            hs.push_back(comm.startAllReduce(queued[i].data(), count, CommDType::F32));
        const double D1 = pass.time();
        for (CommHandle& x : hs)
            x.wait();
        const double E1 = comm.takeStats()[Collective::AllReduce].ms / 1e3;
        if (round > 0 && E1 > 0 && D1 > 0) {
            const double overlapped = std::min(E1, D1);
            compute.push_back(std::clamp(1 - (D1 - D0) / overlapped, 0.001, 1.0));
        }
    }
    comm.barrier();
    // Every rank's median; the ranks' mean, on every rank.
    double v[2] = {rate.empty() ? 1.0 : median(rate), compute.empty() ? 1.0 : median(compute)};
    comm.sumDoubles(v, 2);
    if (compute_rate)
        *compute_rate = v[1] / comm.size();
    return v[0] / comm.size();
}

} // namespace zerolab
