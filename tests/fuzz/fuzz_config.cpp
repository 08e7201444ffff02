// libFuzzer target: a config file, read as every tool reads one (loadConfigFile: size and
// file-type bounds, bounded JSON, the schema, the batch rule), with and without a world.
#include "runtime/config/config.h"
#include "tests/fuzz/fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("config.json", data, size);
    zerolab::loadConfigFile(path, std::nullopt);
    zerolab::loadConfigFile(path, 4);
    return 0;
}
