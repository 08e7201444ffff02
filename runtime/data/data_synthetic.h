// The `synthetic` data source (the default): an unbounded, seeded byte stream
// from the built-in grammar, so training works with no download and the loss
// has a known floor.
#pragma once

#include "runtime/data/data_loader.h"

#include <cstdint>
#include <vector>

namespace zerolab {

// The stream is a sequence of blocks of kBlockTokens bytes; block b is the
// grammar's walk seeded by (seed, b), so any step is addressable without
// generating the past. Each block restarts at a sentence start and cuts its
// last word: one cut per MiB, a negligible change to the entropy rate.
class SyntheticDataLoader : public DataLoader {
public:
    static constexpr long long kBlockTokens = 1 << 20;

    // Throws DataError if vocab_size < 256 (tokens are bytes).
    SyntheticDataLoader(std::uint64_t seed, int vocab_size);

    // The loss floor: entropy rate of the stream, nats per token (seed-independent).
    static double entropyNatsPerToken();

    int vocabSize() const override { return 256; }
    std::optional<long long> tokenCount() const override { return std::nullopt; }
    std::string describe() const override;

protected:
    void readTokens(long long first, long long count, int* out) override;

private:
    struct Block {
        long long index = -1;
        std::vector<unsigned char> bytes;
    };
    const Block& block(long long index);

    std::uint64_t m_seed;
    Block m_cache[2]; // the two most recent blocks: a sequence spans at most two
    int m_lastUsed = 0;
};

} // namespace zerolab
