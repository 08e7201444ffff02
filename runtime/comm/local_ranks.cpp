// Local placement from a host-name exchange.
#include "runtime/comm/local_ranks.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace zerolab {

LocalPlacement findLocalPlacement(Communicator& comm) {
    constexpr std::size_t kNameBytes = 256;
    const int world = comm.size();
    char name[kNameBytes] = {};
    std::snprintf(name, kNameBytes, "%s", comm.host().c_str());
    std::vector<char> names(comm.rank() == 0 ? world * kNameBytes : 0);
    comm.gatherBytes(name, kNameBytes, comm.rank() == 0 ? names.data() : nullptr);
    std::vector<LocalPlacement> all(world);
    if (comm.rank() == 0) {
        for (int r = 0; r < world; ++r) {
            const char* mine = names.data() + r * kNameBytes;
            for (int q = 0; q < world; ++q) {
                if (std::strncmp(mine, names.data() + q * kNameBytes, kNameBytes) != 0)
                    continue;
                if (q < r)
                    ++all[r].local_rank;
                if (q != r)
                    ++all[r].local_size;
            }
        }
    }
    comm.broadcastBytes(all.data(), all.size() * sizeof(LocalPlacement), 0);
    return all[comm.rank()];
}

GpuShare gpuShareFor(const LocalPlacement& p, int devices) {
    if (devices < 1)
        throw std::invalid_argument("gpuShareFor: no devices");
    GpuShare s;
    s.device = p.local_rank % devices;
    // Local ranks d, d + devices, d + 2*devices, ... below local_size share device d.
    s.ranks_on_device = (p.local_size - s.device + devices - 1) / devices;
    return s;
}

} // namespace zerolab
