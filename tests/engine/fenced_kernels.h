// Kernels whose device memory the host cannot touch: a wrapper around the CPU kernels
// that maps every allocation on pages of its own and keeps them PROT_NONE except
// while one of its own ops runs. Code that reads or writes a device pointer outside
// the Kernels interface (as it could not on a GPU) dies with SIGSEGV. The engine
// tests train through it to show the engine, the model, the trainer and the staged
// communicator go through Kernels for every access, as the CUDA backend needs.
// Every op runs at once on the calling thread (delayed_device.h queues them instead).
#pragma once

#include "tests/engine/forwarding_kernels.h"

#include <cstddef>
#include <map>
#include <memory>

namespace zerolab::test {

class FencedKernels final : public ForwardingKernels {
public:
    explicit FencedKernels(std::unique_ptr<Kernels> inner);
    ~FencedKernels() override;

    std::string_view name() const override { return "fenced-cpu"; }
    void* allocate(std::size_t bytes) override;
    void release(void* p) override;
    std::optional<DeviceMemory> deviceMemory() override { return std::nullopt; }
    void synchronize() override {}

    // Ops run so far (a run that made none proves nothing).
    long long opCount() const { return m_ops; }

private:
    // Opens every region for the lifetime of one op, then closes them again.
    void run(Completion c, std::function<void()> op) override;
    void protectAll(int prot);

    std::map<void*, std::size_t> m_regions; // start -> mapped length
    long long m_ops = 0;
};

} // namespace zerolab::test
