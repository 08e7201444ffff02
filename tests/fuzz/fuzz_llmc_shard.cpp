// libFuzzer target: an llm.c token shard (data.type "llmc"): opened and checked by the
// loader (makeDataLoader), then two global batches read from it (tokens checked against
// the vocabulary, the stream wrapping around), as a rank reads them.
#include "runtime/data/data_loader.h"
#include "tests/fuzz/fuzz_file.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("shard.bin", data, size);
    try {
        const auto loader = zerolab::makeDataLoader("llmc", path, 256, 0);
        constexpr int kSeqs = 2, kT = 4;
        std::vector<int> inputs(kSeqs * kT), targets(kSeqs * kT);
        loader->batch(0, kSeqs, 0, kSeqs, kT, inputs.data(), targets.data());
        loader->batch(3, kSeqs, 1, 1, kT, inputs.data(), targets.data());
    } catch (const zerolab::DataError&) {
    }
    return 0;
}
