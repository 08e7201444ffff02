// The model timed in situ for zerolab-calibrate (calibrate_pieces.h).
#include "runtime/train/calibrate_pieces.h"

#include "runtime/train/calibrate_kernels.h"

#include "runtime/memory/ledger.h"
#include "runtime/model/gpt2.h"
#include "runtime/model/unit_calls.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
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

// A Gpt2 at B, T = shape.seq_len, its parameters and a batch of tokens.
struct Pass {
    Pass(Kernels& k, const ModelShape& shape, int B, Recompute recompute)
        : kernels(k), model(shape, B, shape.seq_len, k, ledger, recompute),
          access(k, shape, model.layout()), tokens(static_cast<std::size_t>(B) * shape.seq_len) {
        for (std::size_t i = 0; i < tokens.size(); ++i)
            tokens[i] = static_cast<int>((i * 7919) % static_cast<std::size_t>(shape.vocab_size));
    }
    // One forward and backward; (forward start, forward end, backward start, backward end).
    std::array<Clock::time_point, 4> run() {
        std::array<Clock::time_point, 4> t;
        access.marks.clear();
        kernels.synchronize();
        t[0] = Clock::now();
        model.forward(tokens.data(), tokens.data(), access);
        kernels.synchronize();
        t[1] = t[2] = Clock::now();
        model.backward(tokens.data(), tokens.data(), access, 1.0f);
        kernels.synchronize();
        t[3] = Clock::now();
        return t;
    }
    Kernels& kernels;
    MemoryLedger ledger;
    Gpt2 model;
    ClockedAccess access;
    std::vector<int> tokens;
};

} // namespace

ModelPieceTimes measureModelPieces(Kernels& k, const ModelShape& shape, int B, int reps) {
    Pass pass(k, shape, B, Recompute::Full);
    const std::vector<UnitCall> calls = gpt2UnitCalls(pass.model.layout(), Recompute::Full);
    std::size_t forwardCalls = 0;
    while (forwardCalls < calls.size() && calls[forwardCalls].then != ModelCompute::HeadForward)
        ++forwardCalls;
    forwardCalls += 2; // the lm head's params and release end the forward
    std::array<double, kModelComputeCount> perPass{};
    for (const UnitCall& c : calls)
        perPass[static_cast<std::size_t>(c.then)] += 1;
    perPass[static_cast<std::size_t>(ModelCompute::HeadBackward)] = 1;

    std::array<std::vector<double>, kModelComputeCount> samples;
    for (int rep = -1; rep < reps; ++rep) {
        const auto t = pass.run();
        const auto& m = pass.access.marks;
        if (m.size() != calls.size())
            throw std::logic_error("calibrate: the model made " + std::to_string(m.size()) +
                                   " calls to its access, gpt2UnitCalls lists " +
                                   std::to_string(calls.size()));
        if (rep < 0)
            continue; // the warm-up
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
    ModelPieceTimes out;
    out.n_layer = shape.n_layer;
    out.n_head = shape.n_head;
    out.n_embd = shape.n_embd;
    out.vocab_size = shape.vocab_size;
    out.padded_vocab_size = shape.padded_vocab_size;
    out.seq_len = shape.seq_len;
    out.micro_batch = B;
    for (std::size_t c = 1; c < kModelComputeCount; ++c)
        if (!samples[c].empty())
            out.seconds[c] = median(samples[c]);
    return out;
}

double sharedPassSeconds(Kernels& k, const ModelShape& shape, int B, int reps, Communicator* comm) {
    Pass pass(k, shape, B, Recompute::None);
    std::vector<double> t;
    for (int rep = -1; rep < reps; ++rep) {
        if (comm)
            comm->barrier();
        const auto at = pass.run();
        if (rep >= 0)
            t.push_back(seconds(at[0], at[3]));
    }
    if (comm)
        comm->barrier();
    return median(t);
}

} // namespace zerolab
