// Local placement from a host-name exchange.
#include "runtime/comm/local_ranks.h"

#include <cstdio>
#include <cstring>
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

} // namespace zerolab
