// The device peak table: names as CUDA reports them map to the right part (SXM
// vs PCIe vs NVL, L40S vs L40 vs L4, A100 vs A10), unknown devices and missing
// units give no peak, and MFU is unknown rather than made up.
#include "runtime/train/device_info.h"

#include <gtest/gtest.h>

#include <cmath>

namespace zerolab {
namespace {

std::string labelOf(std::string_view name) {
    const auto d = findDevicePeak(name);
    return d ? std::string(d->label) : std::string("<none>");
}

TEST(DeviceInfo, CudaNamesMapToTheirPart) {
    EXPECT_EQ(labelOf("NVIDIA H100 80GB HBM3"), "H100 SXM");
    EXPECT_EQ(labelOf("NVIDIA H100 PCIe"), "H100 PCIe");
    EXPECT_EQ(labelOf("NVIDIA H100 NVL"), "H100 NVL");
    EXPECT_EQ(labelOf("NVIDIA H200"), "H200 SXM");
    EXPECT_EQ(labelOf("NVIDIA H200 NVL"), "H200 NVL");
    EXPECT_EQ(labelOf("NVIDIA GH200 480GB"), "GH200");
    EXPECT_EQ(labelOf("NVIDIA A100-SXM4-80GB"), "A100");
    EXPECT_EQ(labelOf("NVIDIA A100 80GB PCIe"), "A100");
    EXPECT_EQ(labelOf("NVIDIA A10"), "A10");
    EXPECT_EQ(labelOf("NVIDIA A40"), "A40");
    EXPECT_EQ(labelOf("NVIDIA L40S"), "L40S");
    EXPECT_EQ(labelOf("NVIDIA L40"), "L40");
    EXPECT_EQ(labelOf("NVIDIA L4"), "L4");
    EXPECT_EQ(labelOf("NVIDIA GeForce RTX 4090"), "GeForce RTX 4090");
    EXPECT_EQ(labelOf("NVIDIA GeForce RTX 3090"), "GeForce RTX 3090");
    EXPECT_EQ(labelOf("Tesla V100-SXM2-32GB"), "V100 SXM2");
    EXPECT_EQ(labelOf("Tesla V100-PCIE-16GB"), "V100 PCIe");
}

TEST(DeviceInfo, LookalikesAndUnknownDevicesHaveNoPeak) {
    for (const char* name : {"NVIDIA A10G", "NVIDIA GeForce RTX 4090 D", "Tesla V100S-PCIE-32GB",
                             "NVIDIA GeForce RTX 3090 Ti", "NVIDIA H800", "", "cpu"})
        EXPECT_EQ(labelOf(name), "<none>") << name;
    EXPECT_FALSE(devicePeakFlops("NVIDIA B9000", PeakPrecision::Bf16));
}

TEST(DeviceInfo, PeaksByPrecision) {
    EXPECT_DOUBLE_EQ(*devicePeakFlops("NVIDIA H200", PeakPrecision::Bf16), 989.4e12);
    EXPECT_DOUBLE_EQ(*devicePeakFlops("NVIDIA H200", PeakPrecision::Tf32), 494.7e12);
    EXPECT_DOUBLE_EQ(*devicePeakFlops("NVIDIA H200", PeakPrecision::Fp32), 67e12);
    EXPECT_DOUBLE_EQ(*devicePeakFlops("NVIDIA A100-SXM4-40GB", PeakPrecision::Bf16), 312e12);
    // V100 has no bf16 or TF32 units: unknown, not zero.
    EXPECT_FALSE(devicePeakFlops("Tesla V100-SXM2-16GB", PeakPrecision::Bf16));
    EXPECT_TRUE(devicePeakFlops("Tesla V100-SXM2-16GB", PeakPrecision::Fp32));
}

TEST(DeviceInfo, EveryEntryIsConsistent) {
    ASSERT_GE(devicePeakTable().size(), 10u);
    for (const auto& d : devicePeakTable()) {
        EXPECT_FALSE(d.required.empty()) << d.label;
        EXPECT_GT(d.fp32, 0) << d.label;
        // Tensor-core bf16 is never slower than TF32, which is never slower than fp32.
        if (d.bf16 > 0) {
            EXPECT_GE(d.bf16, d.tf32) << d.label;
            EXPECT_GE(d.tf32, d.fp32) << d.label;
        }
        // Each entry's own label-like name finds an entry with the same peaks.
        std::string name = "NVIDIA";
        for (auto t : d.required)
            name += " " + std::string(t);
        const auto found = findDevicePeak(name);
        ASSERT_TRUE(found) << name;
        EXPECT_EQ(found->label, d.label) << name;
    }
}

TEST(DeviceInfo, MfuIsUnknownWithoutAPeak) {
    EXPECT_DOUBLE_EQ(*modelFlopsUtilisation(494.7e12, 989.4e12), 0.5);
    EXPECT_FALSE(modelFlopsUtilisation(1e12, std::nullopt));
    EXPECT_FALSE(modelFlopsUtilisation(1e12, 0.0));
    EXPECT_FALSE(modelFlopsUtilisation(-1.0, 1e12));
    EXPECT_FALSE(modelFlopsUtilisation(std::nan(""), 1e12));
    EXPECT_FALSE(modelFlopsUtilisation(1e12, devicePeakFlops("unknown", PeakPrecision::Bf16)));
}

} // namespace
} // namespace zerolab
