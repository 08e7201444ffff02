// The UUIDs and PCI bus ids of the devices CUDA shows this process.
#include "runtime/comm/visible_gpus.h"

#include "runtime/comm/communicator.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

namespace zerolab {

namespace {

void check(cudaError_t rc, const std::string& what) {
    if (rc != cudaSuccess)
        throw CommError(what + " failed: " + cudaGetErrorName(rc) + " (" + cudaGetErrorString(rc) +
                        ")");
}

// "GPU-8c6b0a4e-...", as nvidia-smi -L and CUDA_VISIBLE_DEVICES write it; empty when the
// driver reports no UUID (all zero).
std::string uuidText(const cudaUUID_t& u) {
    const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
    bool any = false;
    for (int i = 0; i < 16; ++i)
        any = any || b[i] != 0;
    if (!any)
        return {};
    std::string s = "GPU-";
    char hex[3];
    for (int i = 0; i < 16; ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            s += '-';
        std::snprintf(hex, sizeof hex, "%02x", b[i]);
        s += hex;
    }
    return s;
}

} // namespace

RankGpus visibleGpus(const std::string& host) {
    RankGpus g;
    g.host = host;
    if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"))
        g.cuda_visible_devices = v;
    int count = 0;
    check(cudaGetDeviceCount(&count), "cudaGetDeviceCount on " + host);
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, d),
              "cudaGetDeviceProperties(" + std::to_string(d) + ") on " + host);
        std::string id = uuidText(prop.uuid);
        if (id.empty()) {
            char bus[32] = {};
            if (cudaDeviceGetPCIBusId(bus, sizeof bus, d) == cudaSuccess)
                id = bus;
            else
                cudaGetLastError(); // not sticky: leave no stale error for a later check
        }
        g.device_ids.push_back(id);
    }
    return g;
}

} // namespace zerolab
