// SyntheticGrammar: validation, the stationary distribution (a direct linear
// solve), the exact entropy rate and byte frequencies, seeded generation and
// scoring. The built-in word lists live in data_synthetic_english.cpp.
#include "runtime/data/data_synthetic_grammar.h"

#include "runtime/data/data_loader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace zerolab {

namespace {

// SplitMix64: a tiny, fully specified generator, so a seed gives the same
// stream with every compiler and standard library.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    std::uint64_t m_state;
};

std::string stateName(int s) {
    return "synthetic grammar state " + std::to_string(s);
}

void validate(const std::vector<std::vector<SyntheticGrammar::Edge>>& states) {
    const int n = static_cast<int>(states.size());
    if (n == 0) {
        throw DataError("synthetic grammar: no states");
    }
    for (int s = 0; s < n; ++s) {
        double sum = 0;
        for (const auto& e : states[s]) {
            if (e.text.empty() || e.prob <= 0 || e.next < 0 || e.next >= n) {
                throw DataError(stateName(s) + ": edge '" + e.text +
                                "' has empty text, probability <= 0 or a bad target");
            }
            sum += e.prob;
            for (const auto& other : states[s]) {
                if (&other != &e && other.text.size() >= e.text.size() &&
                    other.text.compare(0, e.text.size(), e.text) == 0) {
                    throw DataError(stateName(s) + ": edge '" + e.text + "' is a prefix of edge '" +
                                    other.text + "'");
                }
            }
        }
        if (std::abs(sum - 1.0) > 1e-12) {
            throw DataError(stateName(s) + ": edge probabilities sum to " + std::to_string(sum));
        }
    }
}

// Solves pi P = pi, sum(pi) = 1 by Gaussian elimination with partial pivoting on
// (P^T - I) with the last row replaced by the normalisation. Needs an
// irreducible chain (the grammar returns to its start state).
std::vector<double> stationaryOf(const std::vector<std::vector<SyntheticGrammar::Edge>>& states) {
    const int n = static_cast<int>(states.size());
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    for (int s = 0; s < n; ++s) {
        a[s][s] -= 1.0;
        for (const auto& e : states[s]) {
            a[e.next][s] += e.prob;
        }
    }
    for (int j = 0; j <= n; ++j) {
        a[n - 1][j] = 1.0;
    }
    for (int col = 0; col < n; ++col) {
        int pivot = col;
        for (int r = col + 1; r < n; ++r) {
            if (std::abs(a[r][col]) > std::abs(a[pivot][col])) {
                pivot = r;
            }
        }
        if (std::abs(a[pivot][col]) < 1e-14) {
            throw DataError("synthetic grammar: the state chain is not irreducible");
        }
        std::swap(a[col], a[pivot]);
        for (int r = 0; r < n; ++r) {
            if (r != col) {
                const double f = a[r][col] / a[col][col];
                for (int j = col; j <= n; ++j) {
                    a[r][j] -= f * a[col][j];
                }
            }
        }
    }
    std::vector<double> pi(n);
    for (int s = 0; s < n; ++s) {
        pi[s] = a[s][n] / a[s][s];
    }
    return pi;
}

} // namespace

SyntheticGrammar::SyntheticGrammar(std::vector<std::vector<Edge>> states)
    : m_states(std::move(states)) {
    validate(m_states);
    m_stationary = stationaryOf(m_states);
    double nats = 0;
    std::array<double, 256> byteCounts{};
    for (int s = 0; s < stateCount(); ++s) {
        std::vector<double> cum;
        double acc = 0;
        for (const auto& e : m_states[s]) {
            acc += e.prob;
            cum.push_back(acc);
            const double w = m_stationary[s] * e.prob;
            nats -= w * std::log(e.prob);
            m_meanBytes += w * static_cast<double>(e.text.size());
            for (unsigned char c : e.text) {
                byteCounts[c] += w;
            }
        }
        cum.back() = 1.0; // a draw of u in [0,1) always lands on an edge
        m_cumulative.push_back(std::move(cum));
    }
    m_entropy = nats / m_meanBytes;
    for (int b = 0; b < 256; ++b) {
        m_byteFreq[b] = byteCounts[b] / m_meanBytes;
    }
}

void SyntheticGrammar::generate(std::uint64_t seed, std::size_t count, unsigned char* out) const {
    SplitMix64 rng(seed);
    int state = kStartState;
    std::size_t pos = 0;
    while (pos < count) {
        const auto& cum = m_cumulative[state];
        const double u = rng.uniform();
        const auto i =
            static_cast<std::size_t>(std::upper_bound(cum.begin(), cum.end(), u) - cum.begin());
        const Edge& e = m_states[state][i];
        const std::size_t n = std::min(e.text.size(), count - pos);
        std::memcpy(out + pos, e.text.data(), n);
        pos += n;
        state = e.next;
    }
}

SyntheticGrammar::Score SyntheticGrammar::score(const unsigned char* bytes,
                                                std::size_t count) const {
    Score score;
    int state = kStartState;
    std::size_t pos = 0;
    while (pos < count) {
        const Edge* match = nullptr;
        bool partial = false;
        for (const auto& e : m_states[state]) {
            const std::size_t n = std::min(e.text.size(), count - pos);
            if (std::memcmp(bytes + pos, e.text.data(), n) == 0) {
                partial = n < e.text.size();
                match = &e;
                if (!partial) {
                    break;
                }
            }
        }
        if (!match) {
            throw DataError("synthetic grammar: no edge of state " + std::to_string(state) +
                            " matches the stream at byte " + std::to_string(pos));
        }
        if (partial) {
            break;
        }
        score.nats -= std::log(match->prob);
        score.bytes += static_cast<long long>(match->text.size());
        ++score.edges;
        pos += match->text.size();
        state = match->next;
    }
    return score;
}

} // namespace zerolab
