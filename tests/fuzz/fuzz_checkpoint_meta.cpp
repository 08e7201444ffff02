// libFuzzer target: a checkpoint's meta.json, read as a resume reads it
// (readCheckpointMeta: checksum, ranges, file entries). CheckpointError is its answer
// to bad input; anything else escaping, or a sanitizer report, is a crash.
#include "runtime/engine/checkpoint_meta.h"
#include "tests/fuzz/fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("meta.json", data, size);
    try {
        zerolab::readCheckpointMeta(path);
    } catch (const zerolab::CheckpointError&) {
    }
    return 0;
}
