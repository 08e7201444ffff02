// The device peak table and its name matching. Sources: NVIDIA datasheets (A100,
// H100, H200, L40S, L40, L4, A10, A40, V100) and the Ada and Ampere GeForce
// whitepapers (RTX 4090, RTX 3090: bf16 and TF32 with fp32 accumulate, which
// GeForce parts run at half the rate of fp16 accumulate). Dense, no sparsity.
#include "runtime/train/device_info.h"

#include <array>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

namespace zerolab {

namespace {

constexpr double kT = 1e12;

constexpr std::array<std::string_view, 1> kH100{"H100"};
constexpr std::array<std::string_view, 2> kH100Pcie{"H100", "PCIe"};
constexpr std::array<std::string_view, 2> kH100Nvl{"H100", "NVL"};
constexpr std::array<std::string_view, 2> kH100Excl{"PCIe", "NVL"};
constexpr std::array<std::string_view, 1> kH200{"H200"};
constexpr std::array<std::string_view, 2> kH200Nvl{"H200", "NVL"};
constexpr std::array<std::string_view, 1> kNvl{"NVL"};
constexpr std::array<std::string_view, 1> kGh200{"GH200"};
constexpr std::array<std::string_view, 1> kA100{"A100"};
constexpr std::array<std::string_view, 1> kA10{"A10"};
constexpr std::array<std::string_view, 1> kA40{"A40"};
constexpr std::array<std::string_view, 1> kL40s{"L40S"};
constexpr std::array<std::string_view, 1> kL40{"L40"};
constexpr std::array<std::string_view, 1> kL4{"L4"};
constexpr std::array<std::string_view, 2> kRtx4090{"RTX", "4090"};
constexpr std::array<std::string_view, 2> kRtx3090{"RTX", "3090"};
// The 4090 D and the laptop parts share the number but not the peaks.
constexpr std::array<std::string_view, 2> kGeForceExcl{"D", "Laptop"};
constexpr std::array<std::string_view, 2> kRtx3090Excl{"Ti", "Laptop"};
constexpr std::array<std::string_view, 2> kV100Sxm{"V100", "SXM2"};
constexpr std::array<std::string_view, 2> kV100Pcie{"V100", "PCIE"};
constexpr std::array<std::string_view, 0> kNone{};

const std::array<DevicePeak, 16> kTable = {{
    {"H100 NVL", kH100Nvl, kNone, 835.5 * kT, 417.5 * kT, 60 * kT},
    {"H100 PCIe", kH100Pcie, kNone, 756 * kT, 378 * kT, 51 * kT},
    {"H100 SXM", kH100, kH100Excl, 989.4 * kT, 494.7 * kT, 67 * kT},
    {"H200 NVL", kH200Nvl, kNone, 835.5 * kT, 417.5 * kT, 60 * kT},
    {"H200 SXM", kH200, kNvl, 989.4 * kT, 494.7 * kT, 67 * kT},
    {"GH200", kGh200, kNone, 989.4 * kT, 494.7 * kT, 67 * kT},
    {"A100", kA100, kNone, 312 * kT, 156 * kT, 19.5 * kT},
    {"A10", kA10, kNone, 125 * kT, 62.5 * kT, 31.2 * kT},
    {"A40", kA40, kNone, 149.7 * kT, 74.8 * kT, 37.4 * kT},
    {"L40S", kL40s, kNone, 362.05 * kT, 183 * kT, 91.6 * kT},
    {"L40", kL40, kNone, 181.05 * kT, 90.5 * kT, 90.5 * kT},
    {"L4", kL4, kNone, 121 * kT, 60 * kT, 30.3 * kT},
    {"GeForce RTX 4090", kRtx4090, kGeForceExcl, 165.2 * kT, 82.6 * kT, 82.6 * kT},
    {"GeForce RTX 3090", kRtx3090, kRtx3090Excl, 71 * kT, 35.6 * kT, 35.6 * kT},
    {"V100 SXM2", kV100Sxm, kNone, 0, 0, 15.7 * kT},
    {"V100 PCIe", kV100Pcie, kNone, 0, 0, 14 * kT},
}};

std::string upper(std::string_view s) {
    std::string r(s);
    for (char& c : r)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return r;
}

std::vector<std::string> tokens(std::string_view name) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : name) {
        if (c == ' ' || c == '-' || c == '_') {
            if (!cur.empty())
                out.push_back(upper(cur));
            cur.clear();
        } else {
            cur.push_back(c);
        }
    }
    if (!cur.empty())
        out.push_back(upper(cur));
    return out;
}

bool has(const std::vector<std::string>& toks, std::string_view t) {
    const std::string u = upper(t);
    for (const auto& x : toks)
        if (x == u)
            return true;
    return false;
}

bool matches(const DevicePeak& d, const std::vector<std::string>& toks) {
    for (auto t : d.required)
        if (!has(toks, t))
            return false;
    for (auto t : d.excluded)
        if (has(toks, t))
            return false;
    return true;
}

} // namespace

std::span<const DevicePeak> devicePeakTable() {
    return kTable;
}

std::optional<DevicePeak> findDevicePeak(std::string_view deviceName) {
    const auto toks = tokens(deviceName);
    for (const auto& d : devicePeakTable())
        if (matches(d, toks))
            return d;
    return std::nullopt;
}

std::optional<double> devicePeakFlops(std::string_view deviceName, PeakPrecision precision) {
    const auto d = findDevicePeak(deviceName);
    if (!d)
        return std::nullopt;
    const double peak = precision == PeakPrecision::Bf16   ? d->bf16
                        : precision == PeakPrecision::Tf32 ? d->tf32
                                                           : d->fp32;
    if (peak <= 0)
        return std::nullopt;
    return peak;
}

std::optional<double> modelFlopsUtilisation(double achievedFlops, std::optional<double> peakFlops) {
    if (!peakFlops || !(*peakFlops > 0) || !std::isfinite(achievedFlops) || achievedFlops < 0)
        return std::nullopt;
    return achievedFlops / *peakFlops;
}

} // namespace zerolab
