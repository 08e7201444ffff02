// The per-rank memory ledger: every allocation of model states, activations,
// communication buffers and workspace is counted under one MemCategory, so that
// what the GUI plots is what this rank really holds. Buffers live in the memory of
// the rank's Kernels (host memory for the CPU kernels, the GPU's for CUDA). Also
// measures RSS and peak.
#pragma once

#include "kernels/kernels.h"
#include "storage/mem_category.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace zerolab {

class MemoryLedger;

// A zero-filled device buffer of `kernels` (Kernels::allocate) whose bytes are counted in
// a ledger for its lifetime. Move-only; ownership is exclusive.
template <typename T> class LedgerBuffer {
public:
    LedgerBuffer() = default;
    LedgerBuffer(MemoryLedger& ledger, Kernels& kernels, MemCategory cat, std::size_t count);
    LedgerBuffer(LedgerBuffer&& o) noexcept { *this = std::move(o); }
    LedgerBuffer& operator=(LedgerBuffer&& o) noexcept;
    LedgerBuffer(const LedgerBuffer&) = delete;
    LedgerBuffer& operator=(const LedgerBuffer&) = delete;
    ~LedgerBuffer() { reset(); }

    T* data() { return m_data; }
    const T* data() const { return m_data; }
    std::size_t size() const { return m_count; }
    T& operator[](std::size_t i) { return m_data[i]; }
    const T& operator[](std::size_t i) const { return m_data[i]; }
    void reset();

private:
    MemoryLedger* m_ledger = nullptr;
    Kernels* m_kernels = nullptr;
    MemCategory m_cat = MemCategory::Workspace;
    T* m_data = nullptr;
    std::size_t m_count = 0;
};

class MemoryLedger {
public:
    void add(MemCategory c, long long bytes);
    void sub(MemCategory c, long long bytes);
    // Bytes currently counted per category.
    const MemBreakdown& current() const { return m_current; }
    // Highest total counted since the last resetPeak().
    long long peakCounted() const { return m_peak; }
    void resetPeak() { m_peak = m_current.total(); }

    // Resident set size of this process now, and its high-water mark (VmHWM), from /proc.
    static long long processRss();
    static long long processPeakRss();

private:
    MemBreakdown m_current;
    long long m_peak = 0;
};

template <typename T>
LedgerBuffer<T>::LedgerBuffer(MemoryLedger& ledger, Kernels& kernels, MemCategory cat,
                              std::size_t count)
    : m_ledger(&ledger), m_kernels(&kernels), m_cat(cat), m_count(count) {
    if (count == 0)
        return;
    m_data = static_cast<T*>(kernels.allocate(count * sizeof(T)));
    kernels.fillZero(m_data, count * sizeof(T));
    m_ledger->add(m_cat, static_cast<long long>(count * sizeof(T)));
}

template <typename T> LedgerBuffer<T>& LedgerBuffer<T>::operator=(LedgerBuffer&& o) noexcept {
    if (this != &o) {
        reset();
        m_ledger = o.m_ledger;
        m_kernels = o.m_kernels;
        m_cat = o.m_cat;
        m_data = o.m_data;
        m_count = o.m_count;
        o.m_data = nullptr;
        o.m_count = 0;
        o.m_ledger = nullptr;
    }
    return *this;
}

template <typename T> void LedgerBuffer<T>::reset() {
    if (m_data) {
        m_ledger->sub(m_cat, static_cast<long long>(m_count * sizeof(T)));
        m_kernels->release(m_data);
    }
    m_data = nullptr;
    m_count = 0;
}

} // namespace zerolab
