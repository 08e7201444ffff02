// The kernel, sharing and collective measurements of zerolab-calibrate (calibrate_kernels.h).
#include "runtime/train/calibrate_kernels.h"

#include "kernels/rope.h"
#include "runtime/model/param_layout.h"
#include "runtime/planner/step_ops.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

namespace zerolab {

namespace {

using Clock = std::chrono::steady_clock;

// Median seconds of `call` over `reps` timed calls after one warm-up.
double timeCall(Kernels& k, int reps, const std::function<void()>& call) {
    call();
    k.synchronize();
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        call();
        k.synchronize();
        t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    return median(t);
}

// A device buffer of n floats (zeroed), released with the object.
struct Buffer {
    Buffer(Kernels& k, std::size_t n) : m_k(k), m_p(static_cast<float*>(k.allocate(n * 4 + 64))) {
        k.fillZero(m_p, n * 4 + 64);
    }
    ~Buffer() { m_k.release(m_p); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    float* get() const { return m_p; }
    Bf16* half() const { return reinterpret_cast<Bf16*>(m_p); }
    Kernels& m_k;
    float* m_p;
};

std::string rateText(double r, bool flops) {
    char buf[48];
    std::snprintf(buf, sizeof buf, flops ? "%.3g GFLOP/s" : "%.3g Melem/s",
                  r / (flops ? 1e9 : 1e6));
    return buf;
}

} // namespace

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void measureKernelRates(Kernels& k, const std::vector<ModelShape>& shapes,
                        const std::vector<int>& micros, int reps, MachineProfile& profile,
                        const CalibrationProgress& progress) {
    std::map<std::tuple<long long, long long, long long>, MatmulRate> matmuls;
    for (const ModelShape& s : shapes) {
        for (int B : micros) {
            for (const KernelOp& op : modelMatmuls(s, B, s.seq_len)) {
                const auto key = std::make_tuple(op.m, op.k, op.n);
                if (matmuls.count(key))
                    continue;
                const int M = static_cast<int>(op.m), K = static_cast<int>(op.k),
                          N = static_cast<int>(op.n);
                Buffer in(k, op.m * op.k), w(k, op.n * op.k), b(k, op.n), out(k, op.m * op.n),
                    din(k, op.m * op.k), dw(k, op.n * op.k), db(k, op.n);
                const double flops = 2.0 * op.m * op.k * op.n;
                MatmulRate r{op.m, op.k, op.n, 0, 0};
                r.forward_flops_per_s =
                    flops / timeCall(k, reps, [&] {
                        k.matmulForward(out.get(), in.get(), w.get(), b.get(), M, K, N);
                    });
                r.backward_flops_per_s =
                    2 * flops / timeCall(k, reps, [&] {
                        k.matmulBackward(din.get(), dw.get(), db.get(), out.get(), in.get(),
                                         w.get(), M, K, N);
                    });
                progress("kernels: matmul " + std::to_string(M) + "x" + std::to_string(K) + "x" +
                         std::to_string(N) + ": forward " + rateText(r.forward_flops_per_s, true) +
                         ", backward " + rateText(r.backward_flops_per_s, true));
                matmuls[key] = r;
            }
        }
    }
    profile.matmuls.clear();
    double fwd = 0, bwd = 0, fwdFlops = 0, bwdFlops = 0;
    for (const auto& [key, r] : matmuls) {
        profile.matmuls.push_back(r);
        const double f = 2.0 * r.m * r.k * r.n;
        fwd += f / r.forward_flops_per_s;
        bwd += 2 * f / r.backward_flops_per_s;
        fwdFlops += f;
        bwdFlops += 2 * f;
    }
    auto at = [&](OpKind o) -> double& { return profile.rates[static_cast<std::size_t>(o)]; };
    // Shapes the profile does not hold: the FLOP-weighted rate of those it does.
    at(OpKind::MatmulForward) = fwdFlops / fwd;
    at(OpKind::MatmulBackward) = bwdFlops / bwd;

    // The other kernels at the largest micro-batch of the largest shape.
    const ModelShape& s =
        *std::max_element(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
            return paramCount(a) < paramCount(b);
        });
    const int B = *std::max_element(micros.begin(), micros.end()), T = s.seq_len, C = s.n_embd,
              NH = s.n_head, Vp = s.padded_vocab_size, V = s.vocab_size;
    const std::size_t N = static_cast<std::size_t>(B) * T, btc = N * C, logits = N * Vp;
    const std::size_t big = std::max({4 * btc, logits, static_cast<std::size_t>(paramCount(s))});
    Buffer x(k, big), y(k, big), z(k, big), m(k, big), v(k, big), mean(k, N), rstd(k, N), wc(k, C),
        bc(k, C), att(k, static_cast<std::size_t>(B) * NH * T * T),
        att2(k, static_cast<std::size_t>(B) * NH * T * T), wte(k, static_cast<std::size_t>(Vp) * C),
        wpe(k, static_cast<std::size_t>(T) * C);
    // Flash attention, RoPE, RMSNorm and SwiGLU (the Llama family's kernels; GPT-2's flash
    // attention) on the same shape: flash over the packed qkv in x, RoPE over its q part.
    const std::size_t rows = static_cast<std::size_t>(B) * NH * T;
    Buffer lse(k, rows), delta(k, rows), cosSin(k, ropeTableFloats(T, C / NH));
    {
        const std::vector<float> table = ropeTable(T, ropeInvFreq(C / NH, 10000.0));
        k.copyToDevice(cosSin.get(), table.data(), table.size() * sizeof(float));
    }
    const FlashAttentionDims dims = FlashAttentionDims::packedQkv(B, T, C, NH);
    std::vector<int> tokens(N * 2);
    for (std::size_t i = 0; i < N; ++i)
        tokens[i] = tokens[N + i] = static_cast<int>(i % static_cast<std::size_t>(V));
    int* tok = static_cast<int*>(k.allocate(tokens.size() * sizeof(int)));
    k.copyToDevice(tok, tokens.data(), tokens.size() * sizeof(int));
    const double attFlops = 2.0 * B * static_cast<double>(T) * T * C;
    const std::size_t owned = static_cast<std::size_t>(paramCount(s));
    AdamParams hp;
    struct Probe {
        OpKind kind;
        double work;
        std::function<void()> call;
    };
    const int Ni = static_cast<int>(N);
    const std::vector<Probe> probes = {
        {OpKind::AttentionForward, attFlops,
         [&] { k.attentionForward(y.get(), att.get(), att2.get(), x.get(), B, T, C, NH); }},
        {OpKind::AttentionBackward, 2 * attFlops,
         [&] {
             k.attentionBackward(y.get(), att.get(), z.get(), x.get(), x.get(), att2.get(), B, T, C,
                                 NH);
         }},
        {OpKind::LayernormForward, double(btc),
         [&] {
             k.layernormForward(y.get(), mean.get(), rstd.get(), x.get(), wc.get(), bc.get(), Ni,
                                C);
         }},
        {OpKind::LayernormBackward, double(btc),
         [&] {
             k.layernormBackward(y.get(), wc.get(), bc.get(), x.get(), z.get(), wc.get(),
                                 mean.get(), rstd.get(), Ni, C);
         }},
        {OpKind::GeluForward, 4.0 * btc, [&] { k.geluForward(y.get(), x.get(), 4 * btc); }},
        {OpKind::GeluBackward, 4.0 * btc,
         [&] { k.geluBackward(y.get(), x.get(), z.get(), 4 * btc); }},
        {OpKind::Residual, double(btc), [&] { k.residualForward(y.get(), x.get(), z.get(), btc); }},
        {OpKind::EncoderForward, double(btc),
         [&] { k.encoderForward(y.get(), tok, wte.get(), wpe.get(), B, T, C); }},
        {OpKind::EncoderBackward, double(btc),
         [&] { k.encoderBackward(wte.get(), wpe.get(), x.get(), tok, B, T, C); }},
        {OpKind::SoftmaxCrossEntropy, double(logits),
         [&] { k.softmaxCrossEntropyForward(mean.get(), y.get(), x.get(), tok + N, B, T, V, Vp); }},
        {OpKind::CrossEntropyBackward, double(logits),
         [&] {
             k.crossEntropySoftmaxBackward(y.get(), mean.get(), z.get(), tok + N, B, T, V, Vp);
         }},
        {OpKind::Adamw, double(owned),
         [&] { k.adamw(x.get(), y.get(), m.get(), v.get(), owned, hp); }},
        {OpKind::AdamwMixed, double(owned),
         [&] { k.adamwMixed(x.get(), z.half(), y.half(), m.get(), v.get(), owned, hp); }},
        {OpKind::Cast, double(owned), [&] { k.toFloat(x.get(), y.half(), owned); }},
        {OpKind::Zero, double(big), [&] { k.zero(x.get(), big); }},
        {OpKind::Axpy, double(owned), [&] { k.axpy(x.get(), 1.0f, y.get(), owned); }},
        {OpKind::SumSquares, double(owned), [&] { k.sumSquares(x.get(), owned); }},
        // The families' convention (gpt2_family.cpp, llama_family.cpp): flash forward 2 B T^2 C
        // FLOPs, backward 5 (it recomputes the scores); the others per element written.
        {OpKind::FlashAttentionForward, attFlops,
         [&] {
             k.flashAttentionForward(y.get(), lse.get(), x.get(), x.get() + C, x.get() + 2 * C,
                                     dims);
         }},
        {OpKind::FlashAttentionBackward, 2.5 * attFlops,
         [&] {
             k.flashAttentionBackward(z.get(), z.get() + C, z.get() + 2 * C, delta.get(), v.get(),
                                      y.get(), lse.get(), x.get(), x.get() + C, x.get() + 2 * C,
                                      dims);
         }},
        {OpKind::RmsnormForward, double(btc),
         [&] { k.rmsnormForward(y.get(), rstd.get(), x.get(), wc.get(), Ni, C, 1e-5f); }},
        {OpKind::RmsnormBackward, double(btc),
         [&] {
             k.rmsnormBackward(y.get(), bc.get(), z.get(), x.get(), wc.get(), rstd.get(), Ni, C);
         }},
        {OpKind::Rope, double(btc),
         [&] { k.ropeForward(y.get(), cosSin.get(), B, T, NH, C / NH, 3 * C); }},
        {OpKind::SwigluForward, 4.0 * btc,
         [&] { k.swigluForward(y.get(), x.get(), z.get(), 4 * btc); }},
        {OpKind::SwigluBackward, 4.0 * btc,
         [&] { k.swigluBackward(y.get(), m.get(), v.get(), x.get(), z.get(), 4 * btc); }},
    };
    for (const Probe& p : probes) {
        const double rate = p.work / timeCall(k, reps, p.call);
        at(p.kind) = rate;
        progress("kernels: " + std::string(kOpKindNames[static_cast<std::size_t>(p.kind)]) + ": " +
                 rateText(rate, opCountsFlops(p.kind)));
    }
    k.release(tok);
}

std::size_t kernelMeasurementCount(const std::vector<ModelShape>& shapes,
                                   const std::vector<int>& micros) {
    std::set<std::tuple<long long, long long, long long>> distinct;
    for (const ModelShape& s : shapes)
        for (int B : micros)
            for (const KernelOp& op : modelMatmuls(s, B, s.seq_len))
                distinct.insert({op.m, op.k, op.n});
    // measureKernelRates probes every kernel but the two matmul kinds once (flash attention
    // and the Llama kinds included).
    return distinct.size() + (kOpKindCount - 2);
}

std::vector<double> collectiveSizes(double max_bytes, const std::vector<ModelShape>& shapes,
                                    int ranks) {
    std::vector<double> sizes;
    for (double bytes = 1024; bytes <= max_bytes; bytes *= 4)
        sizes.push_back(bytes);
    constexpr double kFrom = 64 * 1024, kNear = 0.05;
    for (const ModelShape& s : shapes)
        for (const UnitLayout& u : makeParamLayout(s, std::max(1, ranks)).units)
            for (const double element_bytes : {2.0, 4.0}) {
                const double bytes = element_bytes * static_cast<double>(u.padded_elems);
                const bool near = std::any_of(sizes.begin(), sizes.end(), [&](double x) {
                    return std::abs(x - bytes) <= kNear * x;
                });
                if (bytes >= kFrom && bytes <= max_bytes && !near)
                    sizes.push_back(bytes);
            }
    std::sort(sizes.begin(), sizes.end());
    return sizes;
}

namespace {

constexpr int kSingleCalls = 5;
constexpr double kSingleCallBytes = 64.0 * 1024 * 1024; // the regions the single calls rotate over

// One call of `c` on `count` elements of `buf`, to its end.
void callCollective(Communicator& comm, Collective c, float* buf, std::size_t count) {
    switch (c) {
    case Collective::AllReduce:
        comm.startAllReduce(buf, count, CommDType::F32).wait();
        break;
    case Collective::ReduceScatter:
        comm.startReduceScatter(buf, count, CommDType::F32).wait();
        break;
    case Collective::AllGather:
        comm.startAllGather(buf, count, CommDType::F32).wait();
        break;
    case Collective::Broadcast:
        comm.broadcast(buf, count, CommDType::F32, 0);
        break;
    }
}

// The slowest rank's value of s, on every rank.
double slowest(Communicator& comm, double s) {
    double mine[1] = {s};
    std::vector<double> every(static_cast<std::size_t>(comm.size()));
    comm.gatherBytes(mine, sizeof mine, comm.rank() == 0 ? every.data() : nullptr);
    if (comm.rank() == 0)
        s = *std::max_element(every.begin(), every.end());
    comm.broadcastBytes(&s, sizeof s, 0);
    return s;
}

} // namespace

std::vector<std::pair<double, double>>
measureCollective(Communicator& comm, Collective c, const std::vector<double>& sizes,
                  double max_call_s,
                  const std::function<void(double bytes, double seconds)>& measured) {
    std::vector<std::pair<double, double>> points;
    const int n = comm.size();
    const double max_bytes = sizes.empty() ? 0 : sizes.back(); // ascending
    std::vector<float> buf(static_cast<std::size_t>(max_bytes / 4) + static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const double bytes = sizes[i];
        const std::size_t all = static_cast<std::size_t>(bytes / 4);
        const std::size_t count = c == Collective::AllReduce || c == Collective::Broadcast
                                      ? all
                                      : std::max<std::size_t>(1, all / static_cast<std::size_t>(n));
        const double whole = static_cast<double>(count) * 4 *
                             (c == Collective::AllReduce || c == Collective::Broadcast ? 1 : n);
        // The warm-up call sets the batch: calls back to back, as a step issues them, so
        // that a link's burst allowance (a token bucket, tc tbf) is a small share of it.
        comm.barrier();
        auto t0 = Clock::now();
        callCollective(comm, c, buf.data(), count);
        const int calls = steadyBatchCalls(
            whole, slowest(comm, std::chrono::duration<double>(Clock::now() - t0).count()));
        std::vector<double> t;
        for (int rep = 0; rep < 3; ++rep) {
            comm.barrier();
            t0 = Clock::now();
            for (int i = 0; i < calls; ++i)
                callCollective(comm, c, buf.data(), count);
            t.push_back(slowest(comm, std::chrono::duration<double>(Clock::now() - t0).count()) /
                        calls);
        }
        // Single calls, as a step makes most of them: the buffer just written (a gradient
        // bucket fresh from the backward), the ranks met at a barrier, one call. Back to
        // back, calls pipeline through the transport with the buffers hot; alone, a 2 MB
        // reduce-scatter over 2 ranks took 2.6x its batch's time per call here. A step's
        // call pays at least the single call's time, and a stream of calls at least the
        // batch's rate (a link's sustained rate past its burst allowance): the larger.
        // Each on memory of its own, as a step's calls each reduce or gather another unit's
        // slice, written before the previous call (not hot in this core's cache).
        const std::size_t span = static_cast<std::size_t>(whole / 4) + 16;
        const int regions = static_cast<int>(
            std::clamp(kSingleCallBytes / std::max(whole, 1.0), 2.0, double(kSingleCalls)));
        std::vector<float> fresh(span * static_cast<std::size_t>(regions), 1.0f);
        std::vector<double> single;
        for (int rep = 0; rep < kSingleCalls; ++rep) {
            float* at = fresh.data() + span * static_cast<std::size_t>(rep % regions);
            float* next = fresh.data() + span * static_cast<std::size_t>((rep + 1) % regions);
            std::fill_n(next, span, 1.0f);
            comm.barrier();
            t0 = Clock::now();
            callCollective(comm, c, at, count);
            single.push_back(
                slowest(comm, std::chrono::duration<double>(Clock::now() - t0).count()));
        }
        const double med = std::max(median(t), median(single));
        points.push_back({whole, med});
        if (measured)
            measured(whole, med);
        // The next size would take about its share of bytes more: past max_call_s, stop.
        if (i + 1 < sizes.size() && med * sizes[i + 1] / whole > max_call_s)
            break;
    }
    return points;
}

} // namespace zerolab
