// libFuzzer target: a file opened as a run store (RunStore::open), read-only as
// zerolab-runs and the GUI open one, then read-write (validation, then the forward
// migrations) on a fresh copy. StoreError is its answer to a file that is not a store.
#include "storage/run_store.h"
#include "tests/fuzz/fuzz_file.h"

namespace {

void openAs(const std::uint8_t* data, std::size_t size, zerolab::OpenMode mode) {
    for (const char* stale : {"store.db-wal", "store.db-shm", "store.db-journal"})
        std::filesystem::remove(zerolab::fuzz::fuzzDir() / stale);
    const std::string path = zerolab::fuzz::writeInput("store.db", data, size);
    try {
        zerolab::RunStore::open(path, mode);
    } catch (const zerolab::StoreError&) {
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    openAs(data, size, zerolab::OpenMode::ReadOnly);
    openAs(data, size, zerolab::OpenMode::ReadWrite);
    return 0;
}
