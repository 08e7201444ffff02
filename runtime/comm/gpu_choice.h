// Which GPU each rank takes, whether ranks share one, and so whether NCCL can carry the
// job: decided from every rank's own view of its GPUs, gathered across the job. A
// per-rank CUDA_VISIBLE_DEVICES (a launcher giving each rank one GPU) makes every rank
// see a single "device 0"; those are different GPUs, told apart by their UUIDs (or PCI
// bus ids), never by the index each rank sees. A pure function, so that the choice is
// tested without a GPU; runtime/comm/visible_gpus.h reads a rank's view from CUDA.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// What one rank sees.
struct RankGpus {
    std::string host;
    // The rank's CUDA_VISIBLE_DEVICES; nullopt where it is unset.
    std::optional<std::string> cuda_visible_devices;
    // One id per device the rank sees, in its own CUDA numbering: the GPU's UUID
    // ("GPU-8c6b..."), else its PCI bus id, else empty (unknown).
    std::vector<std::string> device_ids;
    int devices() const { return static_cast<int>(device_ids.size()); }
    bool operator==(const RankGpus&) const = default;
};

struct GpuChoice {
    int device = 0;          // this rank's CUDA device index (for cudaSetDevice)
    std::string gpu;         // the physical GPU, as the choice tells them apart
    int ranks_on_device = 1; // the job's ranks on that physical GPU, this one included
    bool nccl = false;       // every rank of the job has a GPU of its own
    // Why NCCL or the host-staged path, for the log: names ranks that share a GPU.
    std::string reason;
};

// `all`: every rank's view, in rank order; `rank`: this one. Local rank i of a host takes
// its device i mod (devices it sees); ranks on one host whose devices have the same id
// share that GPU. Where an id is unknown, the entry of the rank's CUDA_VISIBLE_DEVICES
// names the GPU, else the index (every such rank sees the same numbering). Every rank
// comes to the same `nccl` and `reason`. Throws std::invalid_argument when `rank` is not
// in `all` or a rank sees no device.
GpuChoice chooseGpu(const std::vector<RankGpus>& all, int rank);

// Fixed-size text form for the exchange: one field per line. Throws std::invalid_argument
// when it does not fit kRankGpusBytes or does not parse.
inline constexpr std::size_t kRankGpusBytes = 4096;
std::string encodeRankGpus(const RankGpus& g);
RankGpus decodeRankGpus(std::string_view text);

// Every rank's view to every rank. `allGather(in, out, bytes)`: the communicator's
// all-gather of `bytes` from each rank into `out` in rank order (MPI_Allgather, or a
// gather and a broadcast).
using AllGatherBytes = std::function<void(const char* in, char* out, std::size_t bytes)>;
std::vector<RankGpus> exchangeRankGpus(const RankGpus& mine, int world,
                                       const AllGatherBytes& allGather);

} // namespace zerolab
