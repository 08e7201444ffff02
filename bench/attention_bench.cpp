// attention_bench: today's attention (attentionForward + attentionBackward, the (T,T)
// preatt and att kept) against the online-softmax flash attention (flashAttentionForward
// + flashAttentionBackward, O and the row log-sum-exp kept) on the CPU kernels, at the
// mini preset's shape (B=4, NH=6, C=384, hs=64) for T = 256, 1024 and 2048. The two run
// alternately, rep by rep, so that load from other processes hits both alike; printed are
// the medians of forward, backward and their sum, the ratio old/flash of the sums, what
// each keeps for the backward, and how far their outputs and gradients differ. With
// --cpu-time the times are the calling thread's CPU time instead of wall time: with
// --threads 1 (the default) the op runs on that thread, and time the machine gave other
// processes is not counted, which makes a loaded machine's ratios steadier.
//   attention_bench [--threads N] [--reps N] [--cpu-time] [--seq T]...
#include "kernels/cpu/blas_coretype.h"
#include "kernels/kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <time.h>
#include <vector>

namespace zerolab {
namespace {

struct Options {
    int threads = 1;
    int reps = 21; // at T = 256; fewer at longer T (same total work, roughly)
    std::vector<int> seqs{256, 1024, 2048};
    bool cpuTime = false;
};

int positive(const std::string& flag, const char* value) {
    const int v = std::atoi(value);
    if (v < 1)
        throw std::invalid_argument(flag + " needs a positive integer, got '" + value + "'");
    return v;
}

Options parseOptions(int argc, char** argv) {
    Options o;
    bool seqGiven = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--cpu-time") {
            o.cpuTime = true;
        } else if ((a == "--threads" || a == "--reps" || a == "--seq") && i + 1 < argc) {
            const int v = positive(a, argv[++i]);
            if (a == "--threads")
                o.threads = v;
            else if (a == "--reps")
                o.reps = v;
            else {
                if (!seqGiven)
                    o.seqs.clear();
                seqGiven = true;
                o.seqs.push_back(v);
            }
        } else {
            throw std::invalid_argument(
                "unknown argument '" + a +
                "'; usage: attention_bench [--threads N] [--reps N] [--cpu-time] [--seq T]...");
        }
    }
    return o;
}

std::vector<float> uniform(std::mt19937& gen, std::size_t n, float lo, float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v)
        x = dist(gen);
    return v;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double maxAbsDiff(const std::vector<float>& a, const std::vector<float>& b) {
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double d = std::abs(static_cast<double>(a[i]) - b[i]);
        if (!(d <= worst)) // NaN too
            worst = std::isnan(d) ? INFINITY : d;
    }
    return worst;
}

double maxAbs(const std::vector<float>& a) {
    double m = 0.0;
    for (float x : a)
        m = std::max(m, static_cast<double>(std::abs(x)));
    return m;
}

double mib(std::size_t floats) {
    return static_cast<double>(floats) * sizeof(float) / (1024.0 * 1024.0);
}

// Milliseconds on the steady clock, or of the calling thread's CPU time.
double nowMs(bool cpuTime) {
    if (cpuTime) {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
    }
    return std::chrono::duration<double, std::milli>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

void runShape(Kernels& k, int B, int T, int C, int NH, int reps, bool cpuTime) {
    const auto ms = [](double a, double b) { return b - a; };
    std::mt19937 gen(1234 + T);
    const std::size_t nQkv = static_cast<std::size_t>(B) * T * 3 * C;
    const std::size_t nOut = static_cast<std::size_t>(B) * T * C;
    const std::size_t nAtt = static_cast<std::size_t>(B) * NH * T * T;
    const auto d = FlashAttentionDims::packedQkv(B, T, C, NH);
    const std::vector<float> qkv = uniform(gen, nQkv, -1.0f, 1.0f),
                             dout = uniform(gen, nOut, -1.0f, 1.0f);
    std::vector<float> out(nOut), preatt(nAtt), att(nAtt), dpreatt(nAtt), datt(nAtt), dqkv(nQkv);
    std::vector<float> fOut(nOut), lse(d.rowCount()), delta(d.rowCount()), fDqkv(nQkv);
    const float* q = qkv.data();

    std::vector<double> oldF, oldB, newF, newB;
    for (int r = -1; r < reps; ++r) { // r = -1 warms caches, pages and thread pools
        std::fill(dqkv.begin(), dqkv.end(), 0.0f);
        std::fill(fDqkv.begin(), fDqkv.end(), 0.0f);
        const double t0 = nowMs(cpuTime);
        k.attentionForward(out.data(), preatt.data(), att.data(), q, B, T, C, NH);
        const double t1 = nowMs(cpuTime);
        k.attentionBackward(dqkv.data(), dpreatt.data(), datt.data(), dout.data(), q, att.data(), B,
                            T, C, NH);
        const double t2 = nowMs(cpuTime);
        k.flashAttentionForward(fOut.data(), lse.data(), q, q + C, q + 2 * C, d);
        const double t3 = nowMs(cpuTime);
        k.flashAttentionBackward(fDqkv.data(), fDqkv.data() + C, fDqkv.data() + 2 * C, delta.data(),
                                 dout.data(), fOut.data(), lse.data(), q, q + C, q + 2 * C, d);
        const double t4 = nowMs(cpuTime);
        if (r < 0)
            continue;
        oldF.push_back(ms(t0, t1));
        oldB.push_back(ms(t1, t2));
        newF.push_back(ms(t2, t3));
        newB.push_back(ms(t3, t4));
    }
    std::vector<double> oldSum(reps), newSum(reps);
    for (int r = 0; r < reps; ++r) {
        oldSum[r] = oldF[r] + oldB[r];
        newSum[r] = newF[r] + newB[r];
    }
    const double oldMed = median(oldSum), newMed = median(newSum);
    std::printf("%5d %5d %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %8.2fx %10.1f %9.3f %9.1e %9.1e\n", T,
                reps, median(oldF), median(oldB), oldMed, median(newF), median(newB), newMed,
                oldMed / newMed, mib(2 * nAtt), mib(d.rowCount()),
                maxAbsDiff(fOut, out) / maxAbs(out), maxAbsDiff(fDqkv, dqkv) / maxAbs(dqkv));
}

int run(const Options& opt) {
    constexpr int B = 4, C = 384, NH = 6; // the mini preset
    auto k = makeCpuKernels(opt.threads);
    std::printf("zerolab attention_bench: mini shape B=%d C=%d NH=%d hs=%d, threads=%d; "
                "%s in ms, medians over reps (old and flash alternate)\n",
                B, C, NH, C / NH, opt.threads, opt.cpuTime ? "thread CPU times" : "times");
    std::printf("%5s %5s %9s %9s %9s %9s %9s %9s %9s %10s %9s %9s %9s\n", "T", "reps", "old fwd",
                "old bwd", "old f+b", "flash fwd", "flash bwd", "flash f+b", "old/flash",
                "kept MiB", "kept MiB", "out diff", "grad diff");
    std::printf("%5s %5s %9s %9s %9s %9s %9s %9s %9s %10s %9s %9s %9s\n", "", "", "", "", "", "",
                "", "", "", "(old att)", "(lse)", "(rel)", "(rel)");
    for (int T : opt.seqs) {
        // Work grows ~T^2: fewer reps at longer sequences, never under 3.
        const int reps = std::max(3, opt.reps * 256 * 256 / (T * T));
        runShape(*k, B, T, C, NH, std::min(opt.reps, reps), opt.cpuTime);
    }
    std::printf("(kept: what each forward keeps for its backward besides out: old preatt + att "
                "(B,NH,T,T) x2, flash lse (B,NH,T); both backwards also take scratch: old dpreatt "
                "+ datt (B,NH,T,T) x2, flash delta (B,NH,T))\n");
    return 0;
}

} // namespace
} // namespace zerolab

int main(int argc, char** argv) {
    zerolab::runWithBestBlasKernels(argv);
    try {
        return zerolab::run(zerolab::parseOptions(argc, argv));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "attention_bench: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "attention_bench: %s\n", e.what());
        return 1;
    }
}
