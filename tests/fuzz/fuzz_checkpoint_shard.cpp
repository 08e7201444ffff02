// libFuzzer target: a checkpoint's optimizer shard file (optim-rank1.bin of a 2-rank
// ZeRO-1 fp32 run), its header read and checked as loadCheckpoint does
// (readOptimShardHeader) against the file's real size.
#include "runtime/engine/checkpoint_shard.h"
#include "tests/fuzz/fuzz_file.h"

#include <fstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("optim-rank1.bin", data, size);
    std::ifstream in(path, std::ios::binary);
    try {
        zerolab::readOptimShardHeader(in, path, {1, 2, 1, 2, static_cast<std::int64_t>(size)});
    } catch (const zerolab::CheckpointError&) {
    }
    return 0;
}
