// DataLoader's batch addressing (llm.c order, epochs) and the factory that maps
// the config's data.type to a source.
#include "runtime/data/data_loader.h"

#include "runtime/data/data_llmc.h"
#include "runtime/data/data_synthetic.h"
#include "runtime/data/data_text.h"

#include <string>

namespace zerolab {

void DataLoader::batch(long long step, int global_batch, int first_seq, int n_seq, int T,
                       int* inputs, int* targets) {
    if (step < 0 || global_batch <= 0 || T <= 0 || first_seq < 0 || n_seq < 0 ||
        first_seq + n_seq > global_batch) {
        throw DataError(describe() + ": invalid batch request (step " + std::to_string(step) +
                        ", global_batch " + std::to_string(global_batch) + ", first_seq " +
                        std::to_string(first_seq) + ", n_seq " + std::to_string(n_seq) + ", T " +
                        std::to_string(T) + ")");
    }
    const long long batchTokens = static_cast<long long>(global_batch) * T;
    long long start = 0;
    m_epoch = 0;
    if (const auto count = tokenCount()) {
        // Each sequence needs T+1 tokens, so a batch needs batchTokens + 1.
        const long long perEpoch = (*count - 1) / batchTokens;
        if (perEpoch < 1) {
            throw DataError(describe() + ": " + std::to_string(*count) +
                            " tokens are fewer than one global batch needs (" +
                            std::to_string(global_batch) + " x " + std::to_string(T) +
                            " + 1 = " + std::to_string(batchTokens + 1) + ")");
        }
        m_epoch = step / perEpoch;
        start = (step % perEpoch) * batchTokens;
    } else {
        start = step * batchTokens;
    }
    for (int i = 0; i < n_seq; ++i) {
        const long long pos = start + static_cast<long long>(first_seq + i) * T;
        readTokens(pos, T, inputs + static_cast<long long>(i) * T);
        readTokens(pos + 1, T, targets + static_cast<long long>(i) * T);
    }
}

std::unique_ptr<DataLoader> makeDataLoader(const std::string& type, const std::string& path,
                                           int vocab_size, unsigned long long seed) {
    if (type == "synthetic") {
        return std::make_unique<SyntheticDataLoader>(seed, vocab_size);
    }
    if (type == "text") {
        return std::make_unique<TextDataLoader>(path, vocab_size);
    }
    if (type == "llmc") {
        return std::make_unique<LlmcDataLoader>(path, vocab_size);
    }
    throw DataError("data.type '" + type + "' is unknown (expected synthetic, text or llmc)");
}

} // namespace zerolab
