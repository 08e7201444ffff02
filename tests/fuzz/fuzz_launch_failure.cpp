// libFuzzer target: a failed job's stderr as the launcher reads it (parseLaunchFailure).
// It never throws: any exception escaping is a crash.
#include "runtime/launch/launch_failure.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    zerolab::parseLaunchFailure(std::string(reinterpret_cast<const char*>(data), size));
    return 0;
}
