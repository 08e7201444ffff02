// libFuzzer target: one line of rank 0's stdout as the GUI's live view reads it
// (readMetricLine). It never throws: any exception escaping is a crash.
#include "storage/metric_line_reader.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    zerolab::readMetricLine(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
