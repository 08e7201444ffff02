// The hostile files of hostile_files.h.
#include "tests/support/hostile_files.h"

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <future>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace zerolab::test {

namespace {

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out)
        throw std::runtime_error(path + ": cannot write the test file");
}

} // namespace

void writeDoubleOverflowConfig(const std::string& path) {
    writeText(path, R"({"train_batch_size": 4, "gradient_clipping": 1e999})");
}

void writeDeepConfig(const std::string& path) {
    constexpr std::size_t kLevels = 100'000;
    writeText(path, R"({"train_batch_size": 4, "model": )" + std::string(kLevels, '[') +
                        std::string(kLevels, ']') + "}");
}

void writeLlmcModelHeader(const std::string& path, int max_t, int vocab, int layers, int heads,
                          int channels, int padded_vocab, std::size_t body_bytes) {
    std::array<std::int32_t, 256> header{};
    header[0] = 20240326;
    header[1] = 3;
    header[2] = max_t;
    header[3] = vocab;
    header[4] = layers;
    header[5] = heads;
    header[6] = channels;
    header[7] = padded_vocab;
    std::string bytes(reinterpret_cast<const char*>(header.data()), sizeof header);
    bytes.append(body_bytes, '\0');
    writeText(path, bytes);
}

void makeFifo(const std::string& path) {
    if (::mkfifo(path.c_str(), 0600) != 0)
        throw std::runtime_error(path + ": mkfifo: " + std::strerror(errno));
}

bool returnsWithoutWaitingOnFifo(const std::string& fifo, const std::function<void()>& fn,
                                 std::chrono::milliseconds wait) {
    std::packaged_task<void()> task(fn);
    std::future<void> done = task.get_future();
    std::thread worker(std::move(task));
    const bool inTime = done.wait_for(wait) == std::future_status::ready;
    // A reader blocked in open() counts as a reader: a non-blocking writer then opens.
    while (done.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0)
            ::close(fd);
    }
    worker.join();
    return inTime;
}

} // namespace zerolab::test
