// Peak dense FLOP/s of GPUs by their CUDA device name, for MFU on a GPU (on the
// CPU the peak comes from a GEMM probe instead). Figures are NVIDIA's datasheet
// numbers without structured sparsity; a device or precision not in the table
// has no peak, and its MFU is unknown, never guessed.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace zerolab {

// The arithmetic a step's matrix products run in: bf16 tensor cores (fp32
// accumulate), TF32 tensor cores, or plain fp32 CUDA cores.
enum class PeakPrecision { Bf16, Tf32, Fp32 };

struct DevicePeak {
    std::string_view label; // e.g. "H100 SXM"
    // Tokens that must all appear in the device name (case-insensitive, whole tokens
    // split at spaces and dashes), and tokens that must not: "NVIDIA H100 PCIe" is
    // H100 + PCIe, "NVIDIA H100 80GB HBM3" is the SXM part (H100, neither PCIe nor NVL).
    std::span<const std::string_view> required;
    std::span<const std::string_view> excluded;
    // Peaks in FLOP/s; 0 where the device has no such unit (V100: no bf16, no TF32).
    double bf16;
    double tf32;
    double fp32;
};

// Every entry, most specific first (the order lookups use).
std::span<const DevicePeak> devicePeakTable();

// The first entry that matches `deviceName` (cudaDeviceProp::name), or nullopt.
std::optional<DevicePeak> findDevicePeak(std::string_view deviceName);

// The peak for a precision, or nullopt when the device or that unit is unknown.
std::optional<double> devicePeakFlops(std::string_view deviceName, PeakPrecision precision);

// Model FLOP utilisation: achieved / peak, or nullopt when the peak is unknown
// (nullopt or not positive) or achieved is negative or not finite.
std::optional<double> modelFlopsUtilisation(double achievedFlops, std::optional<double> peakFlops);

} // namespace zerolab
