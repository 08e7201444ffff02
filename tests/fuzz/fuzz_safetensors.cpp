// libFuzzer target: a safetensors file (model.init_from): its header checked on opening
// (SafetensorsFile), then, for a header it accepts, every tensor read as fp32 as the
// loader reads them (a dtype it does not convert is refused, never crashed on).
#include "runtime/model/safetensors.h"
#include "tests/fuzz/fuzz_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = zerolab::fuzz::writeInput("model.safetensors", data, size);
    try {
        const zerolab::SafetensorsFile file(path);
        for (const zerolab::SafetensorsTensorInfo& t : file.tensors()) {
            try {
                file.readF32(t.name);
            } catch (const zerolab::SafetensorsError&) {
            }
        }
    } catch (const zerolab::SafetensorsError&) {
    }
    return 0;
}
