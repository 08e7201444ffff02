// libFuzzer target: a sweep file, read as `zerolab-sweep run FILE` reads one
// (parseSweepFile: bounded file, JSON, every key, the axes with their repeats, the
// candidate cap, the name's rules), and an accepted spec written as the store keeps it
// and read back (parseSweepJson of toJson, what a resume reads). SweepError is its answer
// to a file that is not a sweep.
#include "runtime/tune/sweep_spec.h"
#include "tests/fuzz/fuzz_file.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("sweep.json", data, size);
    try {
        const zerolab::SweepSpec spec = zerolab::parseSweepFile(path);
        const zerolab::SweepSpec back = zerolab::parseSweepJson(spec.toJson(), path);
        if (back.axes.size() != spec.axes.size() || back.name != spec.name)
            std::abort(); // the stored definition must read back as the file did
    } catch (const zerolab::SweepError&) {
    }
    return 0;
}
