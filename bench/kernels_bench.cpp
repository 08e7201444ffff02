// kernels_bench: median milliseconds of every CPU kernel op at the `micro`
// GPT-2 shape (B=8, T=128, C=256, NH=4, V=Vp=256), the GFLOP/s of the matmuls
// against the measured sgemm peak, and the kernel time of one whole training
// step summed from them (what bounds tokens/s and MFU of the runtime).
//   kernels_bench [--threads N] [--reps N]
#include "kernels/cpu/blas_coretype.h"
#include "kernels/cpu/gemm_peak.h"
#include "kernels/kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace zerolab {
namespace {

struct Options {
    int threads = 1;
    int reps = 21;
};

Options parseOptions(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--threads" || a == "--reps") && i + 1 < argc) {
            const int v = std::atoi(argv[++i]);
            if (v < 1)
                throw std::invalid_argument(a + " needs a positive integer");
            (a == "--threads" ? o.threads : o.reps) = v;
        } else {
            throw std::invalid_argument("unknown argument '" + a +
                                        "'; usage: kernels_bench [--threads N] [--reps N]");
        }
    }
    return o;
}

// A device buffer filled with uniform values in [-scale, scale).
class Buffer {
public:
    Buffer(Kernels& k, std::size_t n, std::mt19937& gen, float scale = 1.0f) : m_k(k), m_n(n) {
        std::vector<float> host(n);
        std::uniform_real_distribution<float> dist(-scale, scale);
        for (auto& x : host)
            x = dist(gen);
        m_p = static_cast<float*>(k.allocate(n * sizeof(float)));
        k.copyToDevice(m_p, host.data(), n * sizeof(float));
    }
    ~Buffer() { m_k.release(m_p); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    float* get() const { return m_p; }
    std::size_t size() const { return m_n; }

private:
    Kernels& m_k;
    std::size_t m_n;
    float* m_p;
};

// Median and best of `reps` timed calls. The median is the figure of record; the
// best shows what the kernel does when the machine is not shared.
struct Timing {
    double median, best;
};

Timing timeMs(Kernels& k, int reps, const std::function<void()>& op) {
    using Clock = std::chrono::steady_clock;
    op(); // warm caches, pages and thread pools
    op();
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        op();
        k.synchronize();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

// nccl-tests' rule: a benchmark also checks its data. Every output must be
// finite, and sampled matmul outputs must match a double dot product.
void requireFinite(Kernels& k, const Buffer& b, const char* what) {
    std::vector<float> host(b.size());
    k.copyToHost(host.data(), b.get(), b.size() * sizeof(float));
    for (float x : host)
        if (!std::isfinite(x))
            throw std::runtime_error(std::string("kernels_bench: non-finite output of ") + what);
}

void requireMatmul(Kernels& k, const Buffer& out, const Buffer& inp, const Buffer& w,
                   const Buffer& bias, int N, int C, int OC) {
    std::vector<float> o(out.size()), x(inp.size()), wt(w.size()), bs(bias.size());
    k.copyToHost(o.data(), out.get(), o.size() * sizeof(float));
    k.copyToHost(x.data(), inp.get(), x.size() * sizeof(float));
    k.copyToHost(wt.data(), w.get(), wt.size() * sizeof(float));
    k.copyToHost(bs.data(), bias.get(), bs.size() * sizeof(float));
    for (int s = 0; s < 64; ++s) {
        const int n = (s * 7919) % N, j = (s * 104729) % OC;
        double acc = bs[j];
        for (int c = 0; c < C; ++c)
            acc += static_cast<double>(x[static_cast<std::size_t>(n) * C + c]) *
                   wt[static_cast<std::size_t>(j) * C + c];
        if (std::abs(acc - o[static_cast<std::size_t>(n) * OC + j]) > 1e-3 * (1.0 + std::abs(acc)))
            throw std::runtime_error("kernels_bench: matmul output differs from its check");
    }
}

struct Row {
    std::string op;
    int perStep; // calls in one forward + backward of the micro model (L = 4)
    Timing fwd, bwd;
    double flops; // forward FLOPs of one call (0 when not a matmul); backward does twice that
};

int run(const Options& opt) {
    constexpr int B = 8, T = 128, C = 256, NH = 4, L = 4, V = 256, Vp = 256;
    constexpr int N = B * T;
    auto k = makeCpuKernels(opt.threads);
    const double peak = measureSgemmPeakFlops();
    std::mt19937 gen(1234);
    const int reps = opt.reps;

    std::vector<Row> rows;
    std::vector<int> tokens(N), targets(N);
    for (int i = 0; i < N; ++i) {
        tokens[i] = (i * 31) % Vp;
        targets[i] = (i * 17 + 3) % V;
    }
    auto* inp = static_cast<int*>(k->allocate(N * sizeof(int)));
    auto* tgt = static_cast<int*>(k->allocate(N * sizeof(int)));
    k->copyToDevice(inp, tokens.data(), N * sizeof(int));
    k->copyToDevice(tgt, targets.data(), N * sizeof(int));

    {
        Buffer wte(*k, Vp * C, gen), wpe(*k, T * C, gen), out(*k, N * C, gen);
        Buffer dwte(*k, Vp * C, gen), dwpe(*k, T * C, gen);
        rows.push_back(
            {"encoder", 1,
             timeMs(*k, reps,
                    [&] { k->encoderForward(out.get(), inp, wte.get(), wpe.get(), B, T, C); }),
             timeMs(*k, reps,
                    [&] { k->encoderBackward(dwte.get(), dwpe.get(), out.get(), inp, B, T, C); }),
             0.0});
        requireFinite(*k, out, "encoder");
    }
    {
        Buffer x(*k, N * C, gen), out(*k, N * C, gen), mean(*k, N, gen), rstd(*k, N, gen);
        Buffer w(*k, C, gen), b(*k, C, gen), dx(*k, N * C, gen), dw(*k, C, gen), db(*k, C, gen);
        rows.push_back({"layernorm", 2 * L + 1,
                        timeMs(*k, reps,
                               [&] {
                                   k->layernormForward(out.get(), mean.get(), rstd.get(), x.get(),
                                                       w.get(), b.get(), N, C);
                               }),
                        timeMs(*k, reps,
                               [&] {
                                   k->layernormBackward(dx.get(), dw.get(), db.get(), out.get(),
                                                        x.get(), w.get(), mean.get(), rstd.get(), N,
                                                        C);
                               }),
                        0.0});
        requireFinite(*k, out, "layernorm");
    }
    struct Linear {
        const char* name;
        int C, OC, perStep;
        bool bias;
    };
    for (const Linear& lin :
         {Linear{"matmul qkv", C, 3 * C, L, true}, Linear{"matmul attproj", C, C, L, true},
          Linear{"matmul fc", C, 4 * C, L, true}, Linear{"matmul fcproj", 4 * C, C, L, true},
          Linear{"matmul lm head", C, Vp, 1, false}}) {
        Buffer x(*k, static_cast<std::size_t>(N) * lin.C, gen),
            w(*k, static_cast<std::size_t>(lin.OC) * lin.C, gen, 0.05f), b(*k, lin.OC, gen);
        Buffer out(*k, static_cast<std::size_t>(N) * lin.OC, gen);
        Buffer dx(*k, x.size(), gen), dw(*k, w.size(), gen), db(*k, lin.OC, gen);
        float* bias = lin.bias ? b.get() : nullptr;
        const Timing fwd = timeMs(*k, reps, [&] {
            k->matmulForward(out.get(), x.get(), w.get(), bias, N, lin.C, lin.OC);
        });
        if (lin.bias)
            requireMatmul(*k, out, x, w, b, N, lin.C, lin.OC);
        const Timing bwd = timeMs(*k, reps, [&] {
            k->matmulBackward(dx.get(), dw.get(), lin.bias ? db.get() : nullptr, out.get(), x.get(),
                              w.get(), N, lin.C, lin.OC);
        });
        requireFinite(*k, dw, lin.name);
        rows.push_back({lin.name, lin.perStep, fwd, bwd, 2.0 * N * lin.C * lin.OC});
    }
    {
        const std::size_t attSize = static_cast<std::size_t>(B) * NH * T * T;
        Buffer qkv(*k, N * 3 * C, gen), out(*k, N * C, gen), pre(*k, attSize, gen),
            att(*k, attSize, gen);
        Buffer dqkv(*k, N * 3 * C, gen), dpre(*k, attSize, gen), datt(*k, attSize, gen);
        const Timing fwd = timeMs(*k, reps, [&] {
            k->attentionForward(out.get(), pre.get(), att.get(), qkv.get(), B, T, C, NH);
        });
        requireFinite(*k, out, "attention");
        const Timing bwd = timeMs(*k, reps, [&] {
            k->attentionBackward(dqkv.get(), dpre.get(), datt.get(), out.get(), qkv.get(),
                                 att.get(), B, T, C, NH);
        });
        // Causal attention as counted by llm.c's 6*L*T*C per token: 2*T*C per token forward.
        rows.push_back({"attention", L, fwd, bwd, 2.0 * N * T * C});
    }
    {
        const std::size_t n = static_cast<std::size_t>(N) * 4 * C;
        Buffer x(*k, n, gen, 4.0f), out(*k, n, gen), dx(*k, n, gen);
        rows.push_back({"gelu", L, timeMs(*k, reps, [&] { k->geluForward(out.get(), x.get(), n); }),
                        timeMs(*k, reps, [&] { k->geluBackward(dx.get(), x.get(), out.get(), n); }),
                        0.0});
        requireFinite(*k, out, "gelu");
    }
    {
        const std::size_t n = static_cast<std::size_t>(N) * C;
        Buffer a(*k, n, gen), b(*k, n, gen), out(*k, n, gen);
        rows.push_back(
            {"residual", 2 * L,
             timeMs(*k, reps, [&] { k->residualForward(out.get(), a.get(), b.get(), n); }),
             timeMs(*k, reps, [&] { k->residualBackward(a.get(), b.get(), out.get(), n); }), 0.0});
    }
    {
        Buffer logits(*k, N * Vp, gen, 4.0f), probs(*k, N * Vp, gen), losses(*k, N, gen),
            dlosses(*k, N, gen), dlogits(*k, N * Vp, gen);
        rows.push_back({"softmax+xent", 1,
                        timeMs(*k, reps,
                               [&] {
                                   k->softmaxCrossEntropyForward(losses.get(), probs.get(),
                                                                 logits.get(), tgt, B, T, V, Vp);
                               }),
                        timeMs(*k, reps,
                               [&] {
                                   k->crossEntropySoftmaxBackward(dlogits.get(), dlosses.get(),
                                                                  probs.get(), tgt, B, T, V, Vp);
                               }),
                        0.0});
        requireFinite(*k, losses, "softmax+xent");
    }
    // Parameters of micro: 12 C^2 + 13 C per layer, wte, wpe and the final layernorm.
    const std::size_t psi = static_cast<std::size_t>(L) * (12 * C * C + 13 * C) +
                            static_cast<std::size_t>(Vp) * C + static_cast<std::size_t>(T) * C +
                            2 * C;
    Timing adam{};
    {
        Buffer p(*k, psi, gen), g(*k, psi, gen), m(*k, psi, gen), v(*k, psi, gen, 1.0f);
        k->scale(v.get(), 0.0f, psi); // v >= 0
        AdamParams hp;
        hp.weightDecay = 0.1f;
        hp.step = 10;
        adam = timeMs(*k, reps, [&] { k->adamw(p.get(), g.get(), m.get(), v.get(), psi, hp); });
        requireFinite(*k, p, "adamw");
    }
    k->release(inp);
    k->release(tgt);

    std::printf("zerolab kernels_bench: micro shape B=%d T=%d C=%d NH=%d L=%d Vp=%d, threads=%d, "
                "median of %d\n",
                B, T, C, NH, L, Vp, opt.threads, reps);
    std::printf("sgemm peak (measureSgemmPeakFlops, n=1024): %.1f GFLOP/s\n\n", peak / 1e9);
    std::printf("%-14s %5s %8s %8s %8s %8s %8s %8s %7s %7s\n", "op", "calls", "fwd med", "fwd best",
                "bwd med", "bwd best", "fwd GF/s", "bwd GF/s", "fwd %pk", "bwd %pk");
    double stepMedian = adam.median, stepBest = adam.best;
    for (const Row& r : rows) {
        stepMedian += r.perStep * (r.fwd.median + r.bwd.median);
        stepBest += r.perStep * (r.fwd.best + r.bwd.best);
        std::printf("%-14s %5d %8.3f %8.3f %8.3f %8.3f", r.op.c_str(), r.perStep, r.fwd.median,
                    r.fwd.best, r.bwd.median, r.bwd.best);
        if (r.flops > 0) {
            // GFLOP/s from the medians; backward does twice the forward's FLOPs.
            const double fg = r.flops / (r.fwd.median * 1e6),
                         bg = 2 * r.flops / (r.bwd.median * 1e6);
            std::printf(" %8.1f %8.1f %6.0f%% %6.0f%%\n", fg, bg, 100 * fg * 1e9 / peak,
                        100 * bg * 1e9 / peak);
        } else {
            std::printf(" %8s %8s %7s %7s\n", "-", "-", "-", "-");
        }
    }
    std::printf("%-14s %5d %8.3f %8.3f %8s %8s %8s %8s %7s %7s\n", "adamw (psi)", 1, adam.median,
                adam.best, "-", "-", "-", "-", "-", "-");
    // docs/architecture.md: FLOPs per token = 6 psi + 6 L T C.
    const double flopsPerToken = 6.0 * psi + 6.0 * L * T * C;
    for (const auto& [label, ms] : {std::pair{"median", stepMedian}, std::pair{"best", stepBest}}) {
        const double tokensPerS = N / (ms / 1e3);
        std::printf("\nstep kernel time (%s): %.1f ms for %d tokens => at most %.0f tokens/s, "
                    "MFU %.1f%% of the sgemm peak",
                    label, ms, N, tokensPerS, 100.0 * tokensPerS * flopsPerToken / peak);
    }
    std::printf("\n(psi = %zu, %.1f MFLOP per token; calls = per forward+backward of micro)\n", psi,
                flopsPerToken / 1e6);
    return 0;
}

} // namespace
} // namespace zerolab

int main(int argc, char** argv) {
    zerolab::runWithBestBlasKernels(argv);
    try {
        return zerolab::run(zerolab::parseOptions(argc, argv));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "kernels_bench: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "kernels_bench: %s\n", e.what());
        return 1;
    }
}
