// The optimizer shard header check; see checkpoint_shard.h.
#include "runtime/engine/checkpoint_shard.h"

namespace zerolab {

OptimHeader readOptimShardHeader(std::istream& in, const std::string& path,
                                 const OptimShardExpectation& expect) {
    OptimHeader h;
    in.read(reinterpret_cast<char*>(&h), sizeof h);
    // elems sizes every seek of the loader: it must describe exactly this file's length.
    const std::int64_t body = expect.file_size - static_cast<std::int64_t>(sizeof h);
    const std::int64_t arrayBytes = expect.arrays * static_cast<std::int64_t>(sizeof(float));
    if (!in || h.magic != kOptimMagic || h.version != kOptimVersion || h.arrays != expect.arrays ||
        h.stage != expect.stage || h.world != expect.world || h.rank != expect.rank ||
        h.elems < 0 || body < 0 || arrayBytes <= 0 || body % arrayBytes != 0 ||
        h.elems != body / arrayBytes)
        throw CheckpointError(path + ": not a matching optimizer shard");
    return h;
}

} // namespace zerolab
