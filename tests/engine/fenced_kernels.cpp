// Page protection around every device region; see fenced_kernels.h.
#include "tests/engine/fenced_kernels.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace zerolab::test {

FencedKernels::FencedKernels(std::unique_ptr<Kernels> inner)
    : ForwardingKernels(std::move(inner)) {}

FencedKernels::~FencedKernels() {
    for (auto& [p, len] : m_regions)
        munmap(p, len);
}

void FencedKernels::protectAll(int prot) {
    for (auto& [p, len] : m_regions)
        if (mprotect(p, len, prot) != 0)
            throw KernelError(std::string("FencedKernels: mprotect failed: ") +
                              std::strerror(errno));
}

void FencedKernels::run(Completion, std::function<void()> op) {
    struct Open {
        FencedKernels& k;
        explicit Open(FencedKernels& kernels) : k(kernels) {
            k.protectAll(PROT_READ | PROT_WRITE);
            ++k.m_ops;
        }
        ~Open() { k.protectAll(PROT_NONE); }
        Open(const Open&) = delete;
        Open& operator=(const Open&) = delete;
    } open(*this);
    op();
}

void* FencedKernels::allocate(std::size_t bytes) {
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t len = (bytes + page - 1) / page * page + (bytes == 0 ? page : 0);
    void* p = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw KernelError("FencedKernels: mmap of " + std::to_string(len) + " bytes failed");
    m_regions[p] = len;
    return p;
}

void FencedKernels::release(void* p) {
    const auto it = m_regions.find(p);
    if (it == m_regions.end())
        throw KernelError("FencedKernels: release of a pointer it did not allocate");
    munmap(it->first, it->second);
    m_regions.erase(it);
}

} // namespace zerolab::test
