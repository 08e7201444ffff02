// The one check of FlashAttentionDims, shared by the CPU and CUDA implementations.
#include "kernels/kernels.h"

#include <limits>
#include <string>

namespace zerolab {

void checkFlashAttentionDims(const char* op, const FlashAttentionDims& d) {
    const auto fail = [op](const std::string& what) {
        throw KernelError(std::string(op) + ": " + what);
    };
    if (d.B < 1 || d.T < 1 || d.NH < 1 || d.NKV < 1 || d.hs < 1)
        fail("B, T, NH, NKV and hs must all be >= 1, got B=" + std::to_string(d.B) +
             " T=" + std::to_string(d.T) + " NH=" + std::to_string(d.NH) +
             " NKV=" + std::to_string(d.NKV) + " hs=" + std::to_string(d.hs));
    if (d.NH % d.NKV != 0)
        fail("key/value heads NKV=" + std::to_string(d.NKV) +
             " must divide query heads NH=" + std::to_string(d.NH));
    const long long qWidth = static_cast<long long>(d.NH) * d.hs;
    const long long kvWidth = static_cast<long long>(d.NKV) * d.hs;
    if (d.qStride < qWidth)
        fail("qStride=" + std::to_string(d.qStride) + " is below NH*hs=" + std::to_string(qWidth));
    if (d.kStride < kvWidth)
        fail("kStride=" + std::to_string(d.kStride) +
             " is below NKV*hs=" + std::to_string(kvWidth));
    if (d.vStride < kvWidth)
        fail("vStride=" + std::to_string(d.vStride) +
             " is below NKV*hs=" + std::to_string(kvWidth));
    // BLAS leading dimensions are int.
    constexpr long long kMaxStride = std::numeric_limits<int>::max();
    if (d.qStride > kMaxStride || d.kStride > kMaxStride || d.vStride > kMaxStride)
        fail("strides must be at most 2^31-1, got qStride=" + std::to_string(d.qStride) +
             " kStride=" + std::to_string(d.kStride) + " vStride=" + std::to_string(d.vStride));
}

} // namespace zerolab
