// The GPU choice (runtime/comm/gpu_choice.h): shared GPUs, one GPU per rank, and a
// per-rank CUDA_VISIBLE_DEVICES, where every rank sees one "device 0" but the GPUs differ.
#include "runtime/comm/gpu_choice.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace zerolab {
namespace {

const std::string kUuid[] = {
    "GPU-8c6b0a4e-0000-0000-0000-000000000000", "GPU-1f0a77d2-0000-0000-0000-000000000001",
    "GPU-3e9d1c05-0000-0000-0000-000000000002", "GPU-44b2a9f1-0000-0000-0000-000000000003"};

// `n` ranks on `host`, each seeing the same `ids` (no CUDA_VISIBLE_DEVICES).
std::vector<RankGpus> sameView(int n, const std::vector<std::string>& ids,
                               const std::string& host = "node-a") {
    return std::vector<RankGpus>(static_cast<std::size_t>(n), RankGpus{host, std::nullopt, ids});
}

TEST(GpuChoice, FourRanksOnOneGpuShareItAndTakeTheStagedPath) {
    const auto all = sameView(4, {kUuid[0]});
    for (int r = 0; r < 4; ++r) {
        const GpuChoice c = chooseGpu(all, r);
        EXPECT_EQ(c.device, 0);
        EXPECT_EQ(c.ranks_on_device, 4);
        EXPECT_FALSE(c.nccl);
        EXPECT_EQ(c.reason, "ranks 0, 1, 2 and 3 share the GPU node-a " + kUuid[0] +
                                "; NCCL takes one GPU per rank, so the job's collectives go "
                                "through MPI staged in host memory");
    }
}

TEST(GpuChoice, RanksGoRoundRobinOverTheHostsGpus) {
    // Three ranks, two GPUs: 0 and 2 share device 0, 1 has device 1 alone; one shared
    // GPU sends the whole job to the staged path (every rank takes part in every
    // collective).
    const auto all = sameView(3, {kUuid[0], kUuid[1]});
    EXPECT_EQ(chooseGpu(all, 0).device, 0);
    EXPECT_EQ(chooseGpu(all, 0).ranks_on_device, 2);
    EXPECT_EQ(chooseGpu(all, 1).device, 1);
    EXPECT_EQ(chooseGpu(all, 1).ranks_on_device, 1);
    EXPECT_EQ(chooseGpu(all, 2).device, 0);
    EXPECT_FALSE(chooseGpu(all, 1).nccl);
    EXPECT_EQ(chooseGpu(all, 1).reason, chooseGpu(all, 0).reason);
}

TEST(GpuChoice, OneGpuPerRankIsNccl) {
    const auto all = sameView(4, {kUuid[0], kUuid[1], kUuid[2], kUuid[3]});
    for (int r = 0; r < 4; ++r) {
        const GpuChoice c = chooseGpu(all, r);
        EXPECT_EQ(c.device, r);
        EXPECT_EQ(c.ranks_on_device, 1);
        EXPECT_TRUE(c.nccl);
        EXPECT_EQ(c.reason, "each of the 4 ranks has a GPU of its own (told apart by UUID or "
                            "PCI id)");
    }
}

// The defect: a launcher giving each rank one GPU through CUDA_VISIBLE_DEVICES makes
// every rank see one device 0; the old arithmetic (local rank 1 of 2 on a host with 1
// device) saw two ranks on one GPU and sent the job down the staged path.
TEST(GpuChoice, PerRankVisibleDevicesAreDifferentGpusToldApartByUuid) {
    std::vector<RankGpus> all;
    for (int r = 0; r < 4; ++r)
        all.push_back({"node-a", std::to_string(r), {kUuid[r]}});
    for (int r = 0; r < 4; ++r) {
        const GpuChoice c = chooseGpu(all, r);
        EXPECT_EQ(c.device, 0);
        EXPECT_EQ(c.gpu, "node-a " + kUuid[r]);
        EXPECT_EQ(c.ranks_on_device, 1);
        EXPECT_TRUE(c.nccl) << c.reason;
    }
    EXPECT_EQ(chooseGpu(all, 2).reason,
              "each of the 4 ranks has a GPU of its own (told apart by UUID or PCI id, through "
              "each rank's own CUDA_VISIBLE_DEVICES)");
    // The same per-rank setting naming one GPU twice is a shared GPU, found by its UUID.
    all[3].device_ids = {kUuid[1]};
    EXPECT_FALSE(chooseGpu(all, 0).nccl);
    EXPECT_EQ(chooseGpu(all, 1).ranks_on_device, 2);
    EXPECT_EQ(chooseGpu(all, 3).ranks_on_device, 2);
    EXPECT_EQ(chooseGpu(all, 0).ranks_on_device, 1);
}

TEST(GpuChoice, WithoutIdsTheVisibleDevicesEntryNamesTheGpu) {
    // No UUID or PCI id: each rank's CUDA_VISIBLE_DEVICES entry says which GPU it is.
    std::vector<RankGpus> all = {{"node-a", "0", {""}}, {"node-a", "1", {""}}};
    EXPECT_TRUE(chooseGpu(all, 1).nccl);
    EXPECT_EQ(chooseGpu(all, 1).gpu, "node-a CUDA_VISIBLE_DEVICES entry 1");
    all[1].cuda_visible_devices = " 0";
    EXPECT_FALSE(chooseGpu(all, 1).nccl);
    // Neither: the index, which every rank numbers alike.
    EXPECT_EQ(chooseGpu(sameView(2, {"", ""}), 1).gpu, "node-a device 1");
    EXPECT_TRUE(chooseGpu(sameView(2, {"", ""}), 1).nccl);
    EXPECT_FALSE(chooseGpu(sameView(2, {""}), 1).nccl);
}

TEST(GpuChoice, RanksOnOtherHostsNeverShareAGpu) {
    // PCI bus ids repeat from host to host: the same id on two hosts is two GPUs.
    std::vector<RankGpus> all = sameView(2, {"0000:3b:00.0", "0000:5e:00.0"}, "node-a");
    for (const RankGpus& g : sameView(2, {"0000:3b:00.0", "0000:5e:00.0"}, "node-b"))
        all.push_back(g);
    for (int r = 0; r < 4; ++r) {
        EXPECT_EQ(chooseGpu(all, r).device, r % 2);
        EXPECT_TRUE(chooseGpu(all, r).nccl);
    }
    EXPECT_EQ(chooseGpu(all, 3).gpu, "node-b 0000:5e:00.0");
}

TEST(GpuChoice, ARankWithoutDevicesOrOutsideTheJobIsRefused) {
    EXPECT_THROW(chooseGpu(sameView(2, {}), 0), std::invalid_argument);
    EXPECT_THROW(chooseGpu(sameView(2, {kUuid[0]}), 2), std::invalid_argument);
}

TEST(GpuChoice, ViewsCrossTheExchangeWhole) {
    const std::vector<RankGpus> views = {{"node-a", std::nullopt, {kUuid[0], ""}},
                                         {"node-b", "", {}},
                                         {"node-c", "GPU-8c6b,1", {kUuid[1]}}};
    // A fake all-gather: rank r's bytes from views[r].
    const auto gather = [&](const char* in, char* out, std::size_t bytes) {
        for (std::size_t r = 0; r < views.size(); ++r) {
            std::string s = encodeRankGpus(views[r]);
            s.resize(bytes, '\0');
            std::copy(s.begin(), s.end(), out + r * bytes);
        }
        EXPECT_EQ(std::string(in), encodeRankGpus(views[0]));
    };
    EXPECT_EQ(exchangeRankGpus(views[0], 3, gather), views);
    EXPECT_THROW(decodeRankGpus("host=a\n"), std::invalid_argument);
    EXPECT_THROW(decodeRankGpus("host=a\ncuda_visible_devices unset\nuuid=x\n"),
                 std::invalid_argument);
    EXPECT_THROW(encodeRankGpus({std::string(kRankGpusBytes, 'h'), std::nullopt, {}}),
                 std::invalid_argument);
    EXPECT_THROW(encodeRankGpus({"a", "0\n1", {}}), std::invalid_argument);
}

} // namespace
} // namespace zerolab
