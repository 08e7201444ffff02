// SyntheticDataLoader: blocks of the built-in grammar's stream, generated on
// demand from (seed, block index) and cached two at a time.
#include "runtime/data/data_synthetic.h"

#include "runtime/data/data_synthetic_grammar.h"

#include <algorithm>
#include <cstdio>

namespace zerolab {

namespace {

// Mixes the user's seed and the block index into one generator seed, so that
// neighbouring seeds and neighbouring blocks give unrelated walks.
std::uint64_t blockSeed(std::uint64_t seed, long long index) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(index);
    z = (z ^ (z >> 33)) * 0xFF51AFD7ED558CCDull;
    z = (z ^ (z >> 33)) * 0xC4CEB9FE1A85EC53ull;
    return z ^ (z >> 33);
}

} // namespace

SyntheticDataLoader::SyntheticDataLoader(std::uint64_t seed, int vocab_size) : m_seed(seed) {
    if (vocab_size < 256) {
        throw DataError("synthetic data: tokens are bytes (0..255) but the model's vocab_size "
                        "is " +
                        std::to_string(vocab_size) + " (needs >= 256)");
    }
}

double SyntheticDataLoader::entropyNatsPerToken() {
    return SyntheticGrammar::builtIn().entropyNatsPerToken();
}

std::string SyntheticDataLoader::describe() const {
    char entropy[32];
    std::snprintf(entropy, sizeof(entropy), "%.4f", entropyNatsPerToken());
    return "synthetic grammar (seed " + std::to_string(m_seed) + ", entropy " + entropy +
           " nats/token)";
}

const SyntheticDataLoader::Block& SyntheticDataLoader::block(long long index) {
    for (int i = 0; i < 2; ++i) {
        if (m_cache[i].index == index) {
            m_lastUsed = i;
            return m_cache[i];
        }
    }
    Block& b = m_cache[1 - m_lastUsed];
    b.index = index;
    b.bytes.resize(kBlockTokens);
    SyntheticGrammar::builtIn().generate(blockSeed(m_seed, index), b.bytes.size(), b.bytes.data());
    m_lastUsed = 1 - m_lastUsed;
    return b;
}

void SyntheticDataLoader::readTokens(long long first, long long count, int* out) {
    while (count > 0) {
        const Block& b = block(first / kBlockTokens);
        const long long offset = first % kBlockTokens;
        const long long n = std::min(count, kBlockTokens - offset);
        std::copy_n(b.bytes.data() + offset, n, out);
        out += n;
        first += n;
        count -= n;
    }
}

} // namespace zerolab
