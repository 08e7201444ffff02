// The memory-ledger categories of docs/architecture.md, in their canonical order. They live
// in storage/ because every layer names them (runtime ledger, planner JSON, store
// columns, GUI legend) and storage is the one library all of those may include.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace zerolab {

enum class MemCategory : int {
    Params = 0,
    MasterParams,
    Grads,
    OptimM,
    OptimV,
    Activations,
    CommBuffers,
    Workspace,
};

inline constexpr std::size_t kMemCategoryCount = 8;

// JSON keys and store column names, indexed by MemCategory.
inline constexpr std::array<std::string_view, kMemCategoryCount> kMemCategoryNames = {
    "params",  "master_params", "grads",        "optim_m",
    "optim_v", "activations",   "comm_buffers", "workspace",
};

inline constexpr std::string_view memCategoryName(MemCategory c) {
    return kMemCategoryNames[static_cast<std::size_t>(c)];
}

inline std::optional<MemCategory> memCategoryFromName(std::string_view name) {
    for (std::size_t i = 0; i < kMemCategoryCount; ++i)
        if (kMemCategoryNames[i] == name)
            return static_cast<MemCategory>(i);
    return std::nullopt;
}

// The model states ZeRO shards: params, the fp32 master, grads, Adam's m and v.
inline constexpr bool isModelState(MemCategory c) {
    return static_cast<int>(c) <= static_cast<int>(MemCategory::OptimV);
}

// Bytes per category; index with MemCategory.
struct MemBreakdown {
    std::array<long long, kMemCategoryCount> bytes{};
    long long& operator[](MemCategory c) { return bytes[static_cast<std::size_t>(c)]; }
    long long operator[](MemCategory c) const { return bytes[static_cast<std::size_t>(c)]; }
    long long total() const {
        long long t = 0;
        for (long long b : bytes)
            t += b;
        return t;
    }
    // This breakdown with activations, comm buffers and workspace set to 0.
    MemBreakdown modelStatesOnly() const {
        MemBreakdown m;
        for (std::size_t i = 0; i < bytes.size(); ++i)
            m.bytes[i] = isModelState(static_cast<MemCategory>(i)) ? bytes[i] : 0;
        return m;
    }
};

} // namespace zerolab
