// The synthetic source: deterministic per seed and addressable in any order,
// different seeds differ, and the documented entropy rate agrees with what the
// stream really does (its own log-likelihood, byte frequencies, and plug-in
// conditional entropies, which can never be below the true rate).
#include "runtime/data/data_loader.h"
#include "runtime/data/data_synthetic.h"
#include "runtime/data/data_synthetic_grammar.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace zerolab {
namespace {

std::vector<int> tokensAt(DataLoader& d, long long step, int G = 8, int T = 64) {
    std::vector<int> in(static_cast<std::size_t>(G) * T), out(in.size());
    d.batch(step, G, 0, G, T, in.data(), out.data());
    return in;
}

// A long stretch of the stream as bytes: steps of one sequence of 1 MiB.
std::vector<unsigned char> streamBytes(unsigned long long seed, int mib) {
    auto d = makeDataLoader("synthetic", "", 256, seed);
    constexpr int kT = 1 << 20;
    std::vector<int> in(kT), out(kT);
    std::vector<unsigned char> bytes;
    for (int step = 0; step < mib; ++step) {
        d->batch(step, 1, 0, 1, kT, in.data(), out.data());
        bytes.insert(bytes.end(), in.begin(), in.end());
    }
    return bytes;
}

TEST(DataSynthetic, SameSeedSameStreamInAnyOrder) {
    auto a = makeDataLoader("synthetic", "", 256, 42);
    auto b = makeDataLoader("synthetic", "", 256, 42);
    // b reads a far step first: the stream is addressable, not replayed.
    const auto far = tokensAt(*b, 500000);
    EXPECT_EQ(tokensAt(*a, 0), tokensAt(*b, 0));
    EXPECT_EQ(tokensAt(*a, 3), tokensAt(*b, 3));
    EXPECT_EQ(tokensAt(*a, 500000), far);
    EXPECT_EQ(a->epoch(), 0);
    EXPECT_FALSE(a->tokenCount().has_value());
    EXPECT_EQ(a->vocabSize(), 256);
}

TEST(DataSynthetic, DifferentSeedsDiffer) {
    auto a = makeDataLoader("synthetic", "", 256, 1);
    auto b = makeDataLoader("synthetic", "", 256, 2);
    EXPECT_NE(tokensAt(*a, 0), tokensAt(*b, 0));
    EXPECT_NE(tokensAt(*a, 1000), tokensAt(*b, 1000));
    // Neighbouring steps of one seed differ too.
    EXPECT_NE(tokensAt(*a, 0), tokensAt(*a, 1));
}

TEST(DataSynthetic, StreamIsTheGrammarsText) {
    const auto bytes = streamBytes(5, 1);
    const std::string text(bytes.begin(), bytes.begin() + 2000);
    for (unsigned char c : bytes) {
        ASSERT_TRUE(c == '\n' || (c >= 32 && c < 127)) << int(c);
    }
    // A block opens at a sentence start.
    EXPECT_TRUE(text[0] >= 'A' && text[0] <= 'Z') << text;
    EXPECT_NE(text.find(". "), std::string::npos) << text;
    // The whole block parses back into grammar edges.
    const auto s = SyntheticGrammar::builtIn().score(bytes.data(), bytes.size());
    EXPECT_GT(s.bytes, static_cast<long long>(bytes.size()) - 20);
}

TEST(DataSynthetic, GrammarValidationRejectsAmbiguousEdges) {
    using E = SyntheticGrammar::Edge;
    EXPECT_THROW(SyntheticGrammar({{E{"a", 0.5, 0}, E{"ab", 0.5, 0}}}), DataError);
    EXPECT_THROW(SyntheticGrammar({{E{"a", 0.4, 0}, E{"b", 0.5, 0}}}), DataError);
    EXPECT_THROW(SyntheticGrammar({{E{"a", 1.0, 1}}}), DataError);
    // Two symbols, equally likely, one byte each: log 2 nats per token.
    const SyntheticGrammar coin({{E{"a", 0.5, 0}, E{"b", 0.5, 0}}});
    EXPECT_NEAR(coin.entropyNatsPerToken(), std::log(2.0), 1e-15);
}

TEST(DataSynthetic, HandComputedGrammarEntropy) {
    using E = SyntheticGrammar::Edge;
    // State 0 emits "x" (p 1/2, stay) or "yy" (p 1/2, to state 1); state 1
    // emits "zzz" back to 0. Stationary pi = (2/3, 1/3); nats per edge
    // (2/3) log 2; bytes per edge (2/3)(1.5) + (1/3)(3) = 2.
    const SyntheticGrammar g({{E{"x", 0.5, 0}, E{"yy", 0.5, 1}}, {E{"zzz", 1.0, 0}}});
    EXPECT_NEAR(g.stationary()[0], 2.0 / 3.0, 1e-14);
    EXPECT_NEAR(g.meanEdgeBytes(), 2.0, 1e-14);
    EXPECT_NEAR(g.entropyNatsPerToken(), std::log(2.0) / 3.0, 1e-14);
    EXPECT_NEAR(g.byteFrequencies()['z'], 0.5, 1e-14);
}

TEST(DataSynthetic, EntropyMatchesTheStreamsLogLikelihood) {
    const double h = SyntheticDataLoader::entropyNatsPerToken();
    std::printf("synthetic entropy rate: %.6f nats/token (%.6f bits)\n", h, h / std::log(2.0));
    EXPECT_GT(h, 0.1);
    EXPECT_LT(h, std::log(256.0));
    // -log p per byte of the stream is an unbiased estimate of the rate; over
    // 8 MiB its standard error is about 0.04%, the tolerance 0.2% (weighting the
    // states uniformly instead of by pi would be off by 0.5%).
    for (unsigned long long seed : {11ull, 12ull}) {
        const auto bytes = streamBytes(seed, 8);
        double nats = 0;
        long long covered = 0;
        for (std::size_t off = 0; off < bytes.size(); off += SyntheticDataLoader::kBlockTokens) {
            const auto s = SyntheticGrammar::builtIn().score(bytes.data() + off,
                                                             SyntheticDataLoader::kBlockTokens);
            nats += s.nats;
            covered += s.bytes;
        }
        const double empirical = nats / static_cast<double>(covered);
        std::printf("seed %llu: stream log-likelihood %.6f nats/token\n", seed, empirical);
        EXPECT_NEAR(empirical, h, 0.002 * h) << "seed " << seed;
    }
}

TEST(DataSynthetic, EntropyIsConsistentWithByteStatistics) {
    const auto& g = SyntheticGrammar::builtIn();
    const double h = g.entropyNatsPerToken();
    const auto bytes = streamBytes(3, 8);
    const double n = static_cast<double>(bytes.size());

    // Byte histogram against the grammar's analytic frequencies.
    std::array<double, 256> counts{};
    for (unsigned char c : bytes) {
        counts[c] += 1;
    }
    double tv = 0;
    double unigram = 0;
    for (int b = 0; b < 256; ++b) {
        tv += 0.5 * std::abs(counts[b] / n - g.byteFrequencies()[b]);
        if (counts[b] > 0) {
            unigram -= counts[b] / n * std::log(counts[b] / n);
        }
    }
    EXPECT_LT(tv, 0.003);

    // Plug-in conditional entropies H(X | k previous bytes) fall with k but
    // stay above the true rate (the bias of the plug-in estimate at these
    // context counts is far below the margins here).
    std::vector<double> conditional = {unigram};
    for (int k : {2, 4, 8}) {
        // Key: the k context bytes packed into 64 bits, then the next byte.
        std::unordered_map<std::uint64_t, double> contextCounts;
        std::unordered_map<std::uint64_t, std::unordered_map<unsigned char, double>> pairCounts;
        for (std::size_t i = k; i < bytes.size(); ++i) {
            std::uint64_t ctx = 0;
            for (int j = k; j > 0; --j) {
                ctx = (ctx << 8) | bytes[i - j];
            }
            contextCounts[ctx] += 1;
            pairCounts[ctx][bytes[i]] += 1;
        }
        double hk = 0;
        const double total = n - k;
        for (const auto& [ctx, next] : pairCounts) {
            for (const auto& [b, m] : next) {
                hk -= m / total * std::log(m / contextCounts[ctx]);
            }
        }
        conditional.push_back(hk);
    }
    std::printf("plug-in H(X|k bytes), k = 0,2,4,8: %.4f %.4f %.4f %.4f; rate %.4f\n",
                conditional[0], conditional[1], conditional[2], conditional[3], h);
    for (std::size_t i = 0; i < conditional.size(); ++i) {
        EXPECT_GT(conditional[i], h) << "k index " << i;
        if (i > 0) {
            EXPECT_LT(conditional[i], conditional[i - 1]);
        }
    }
    // With 8 bytes of context most of a word's spelling is known: the estimate
    // comes within 35% of the rate (a wrongly normalised rate would not).
    EXPECT_LT(conditional.back(), 1.35 * h);
}

TEST(DataSynthetic, DocumentedFigureIsTheComputedOne) {
    std::ifstream doc(std::string(ZEROLAB_SOURCE_DIR) + "/docs/data.md");
    ASSERT_TRUE(doc) << "docs/data.md is missing";
    std::stringstream text;
    text << doc.rdbuf();
    char figure[32];
    std::snprintf(figure, sizeof(figure), "%.4f nats/token",
                  SyntheticDataLoader::entropyNatsPerToken());
    EXPECT_NE(text.str().find(figure), std::string::npos)
        << "docs/data.md should state the entropy as '" << figure << "'";
}

} // namespace
} // namespace zerolab
