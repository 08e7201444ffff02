// The built-in probabilistic grammar behind the `synthetic` data source: a
// finite-state machine whose edges emit English-like words, so a byte stream has
// real structure (agreement, phrases, sentences) and an exactly known entropy.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

// At each state one edge is drawn with its probability; it emits its text (a
// word plus a separator) and moves to its next state. Within a state the edge
// texts are prefix-free, so a stream parses back into exactly one edge path and
// the byte stream's entropy rate is the edge entropy per byte emitted:
//   H = sum_s pi(s) H(edges of s) / sum_s pi(s) E[len of edge text at s]
// with pi the stationary distribution of the state chain (renewal-reward).
// Immutable after construction; safe to share across threads.
class SyntheticGrammar {
public:
    struct Edge {
        std::string text;
        double prob = 0;
        int next = 0;
    };

    // Checks that every state's probabilities sum to 1, targets exist and texts
    // are non-empty and prefix-free; throws DataError naming the state otherwise.
    explicit SyntheticGrammar(std::vector<std::vector<Edge>> states);

    // The grammar the synthetic source uses (built once, on first use).
    static const SyntheticGrammar& builtIn();

    int stateCount() const { return static_cast<int>(m_states.size()); }
    const std::vector<Edge>& edges(int state) const { return m_states[state]; }
    static constexpr int kStartState = 0;

    // Stationary distribution of the state chain, one entry per state.
    const std::vector<double>& stationary() const { return m_stationary; }
    // Entropy rate of the emitted byte stream, in nats per byte (= per token).
    double entropyNatsPerToken() const { return m_entropy; }
    // Mean bytes emitted per edge under the stationary distribution.
    double meanEdgeBytes() const { return m_meanBytes; }
    // Long-run frequency of each byte value in the stream (sums to 1).
    const std::array<double, 256>& byteFrequencies() const { return m_byteFreq; }

    // Writes `count` bytes: the walk from kStartState drawn with a generator
    // seeded by `seed`, its last edge cut at `count`. Deterministic in seed.
    void generate(std::uint64_t seed, std::size_t count, unsigned char* out) const;

    // Parses bytes as a walk from kStartState. nats: sum of -log p of the
    // complete edges, bytes: the bytes they cover (a trailing partial edge is
    // left out). Throws DataError at the first byte no edge matches.
    struct Score {
        double nats = 0;
        long long bytes = 0;
        long long edges = 0;
    };
    Score score(const unsigned char* bytes, std::size_t count) const;

private:
    std::vector<std::vector<Edge>> m_states;
    std::vector<std::vector<double>> m_cumulative; // per state, upper bound of each edge
    std::vector<double> m_stationary;
    double m_entropy = 0;
    double m_meanBytes = 0;
    std::array<double, 256> m_byteFreq{};
};

} // namespace zerolab
