// Inverse frequencies (HF's default and "llama3" RoPE), the cos/sin table, and the
// shape check shared by every backend's rope kernels.
#include "kernels/rope.h"

#include "kernels/kernels.h"

#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

namespace zerolab {

namespace {

void checkHeadSize(const char* op, int hs) {
    if (hs <= 0 || hs % 2 != 0) {
        std::ostringstream msg;
        msg << op << ": head size hs = " << hs
            << (hs <= 0 ? " is not positive" : " is odd; rotate_half needs an even head size");
        throw KernelError(msg.str());
    }
}

void requirePositive(const char* what, double v) {
    if (!(v > 0.0) || !std::isfinite(v)) {
        std::ostringstream msg;
        msg << "ropeInvFreq: " << what << " must be a positive number, got " << v;
        throw KernelError(msg.str());
    }
}

} // namespace

std::vector<double> ropeInvFreq(int hs, double theta, const std::optional<RopeScaling>& scaling) {
    checkHeadSize("ropeInvFreq", hs);
    requirePositive("rope_theta", theta);
    const int half = hs / 2;
    std::vector<double> f(static_cast<std::size_t>(half));
    for (int i = 0; i < half; ++i)
        f[i] = 1.0 / std::pow(theta, (2.0 * i) / hs);
    if (!scaling)
        return f;

    const RopeScaling& s = *scaling;
    requirePositive("rope_scaling.factor", s.factor);
    requirePositive("rope_scaling.low_freq_factor", s.lowFreqFactor);
    requirePositive("rope_scaling.high_freq_factor", s.highFreqFactor);
    requirePositive("rope_scaling.original_max_position_embeddings",
                    s.originalMaxPositionEmbeddings);
    if (!(s.highFreqFactor > s.lowFreqFactor)) {
        std::ostringstream msg;
        msg << "ropeInvFreq: rope_scaling.high_freq_factor (" << s.highFreqFactor
            << ") must exceed low_freq_factor (" << s.lowFreqFactor << ")";
        throw KernelError(msg.str());
    }
    const double lowFreqWavelen = s.originalMaxPositionEmbeddings / s.lowFreqFactor;
    const double highFreqWavelen = s.originalMaxPositionEmbeddings / s.highFreqFactor;
    for (double& fi : f) {
        const double wavelen = 2.0 * std::numbers::pi / fi;
        if (wavelen < highFreqWavelen)
            continue; // high frequencies: unchanged
        if (wavelen > lowFreqWavelen) {
            fi /= s.factor; // low frequencies: interpolated by the full factor
            continue;
        }
        const double smooth = (s.originalMaxPositionEmbeddings / wavelen - s.lowFreqFactor) /
                              (s.highFreqFactor - s.lowFreqFactor);
        fi = (1.0 - smooth) * fi / s.factor + smooth * fi;
    }
    return f;
}

std::size_t ropeTableFloats(int T, int hs) {
    return static_cast<std::size_t>(T < 0 ? 0 : T) * static_cast<std::size_t>(hs < 0 ? 0 : hs);
}

std::vector<float> ropeTable(int T, const std::vector<double>& invFreq) {
    if (T < 0)
        throw KernelError("ropeTable: T = " + std::to_string(T) + " is negative");
    if (invFreq.empty())
        throw KernelError("ropeTable: invFreq is empty (head size 0)");
    const std::size_t half = invFreq.size();
    std::vector<float> table(static_cast<std::size_t>(T) * 2 * half);
    for (int t = 0; t < T; ++t) {
        float* row = table.data() + static_cast<std::size_t>(t) * 2 * half;
        for (std::size_t i = 0; i < half; ++i) {
            const double angle = static_cast<double>(t) * invFreq[i];
            row[i] = static_cast<float>(std::cos(angle));
            row[half + i] = static_cast<float>(std::sin(angle));
        }
    }
    return table;
}

void checkRopeShape(const char* op, int B, int T, int H, int hs, int rowStride) {
    checkHeadSize(op, hs);
    if (B < 0 || T < 0 || H < 0) {
        std::ostringstream msg;
        msg << op << ": negative shape B = " << B << ", T = " << T << ", H = " << H;
        throw KernelError(msg.str());
    }
    if (static_cast<long long>(rowStride) < static_cast<long long>(H) * hs) {
        std::ostringstream msg;
        msg << op << ": rowStride " << rowStride << " is shorter than H * hs = " << H << " * "
            << hs;
        throw KernelError(msg.str());
    }
}

} // namespace zerolab
