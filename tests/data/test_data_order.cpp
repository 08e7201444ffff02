// Batch addressing: llm.c's sequential order checked token by token on a
// hand-written shard, multi-shard concatenation, epochs, and a global batch that
// is the same whatever the world size N and the accumulation steps.
#include "data_test_files.h"
#include "runtime/data/data_loader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace zerolab {
namespace {

using test::TempDir;
using test::writeBytes;
using test::writeShard;

// Tokens 1000, 1001, ...: the value says its stream position.
std::vector<std::uint16_t> countingTokens(int n, int base = 1000) {
    std::vector<std::uint16_t> t;
    for (int i = 0; i < n; ++i) {
        t.push_back(static_cast<std::uint16_t>(base + i));
    }
    return t;
}

struct Batch {
    std::vector<int> inputs;
    std::vector<int> targets;
};

Batch readBatch(DataLoader& d, long long step, int G, int first, int n, int T) {
    Batch b{std::vector<int>(static_cast<std::size_t>(n) * T),
            std::vector<int>(static_cast<std::size_t>(n) * T)};
    d.batch(step, G, first, n, T, b.inputs.data(), b.targets.data());
    return b;
}

TEST(DataOrder, LlmcStepIsSequentialLikeLlmc) {
    TempDir dir;
    writeShard(dir.file("tiny.bin"), countingTokens(100));
    auto d = makeDataLoader("llmc", dir.file("tiny.bin"), 50257, 0);
    EXPECT_EQ(d->tokenCount(), 100);
    // G=2, T=4: step 3 starts at token 3*2*4 = 24.
    const Batch b = readBatch(*d, 3, 2, 0, 2, 4);
    EXPECT_EQ(b.inputs, (std::vector<int>{1024, 1025, 1026, 1027, 1028, 1029, 1030, 1031}));
    EXPECT_EQ(b.targets, (std::vector<int>{1025, 1026, 1027, 1028, 1029, 1030, 1031, 1032}));
    // The second sequence alone is the same tokens.
    const Batch second = readBatch(*d, 3, 2, 1, 1, 4);
    EXPECT_EQ(second.inputs, (std::vector<int>{1028, 1029, 1030, 1031}));
    EXPECT_EQ(d->epoch(), 0);
}

TEST(DataOrder, WrapsToTheStartAndCountsEpochs) {
    TempDir dir;
    writeShard(dir.file("tiny.bin"), countingTokens(100));
    auto d = makeDataLoader("llmc", dir.file("tiny.bin"), 50257, 0);
    // 8 tokens per batch: (100 - 1) / 8 = 12 batches per epoch, the tail is skipped.
    const Batch last = readBatch(*d, 11, 2, 0, 2, 4);
    EXPECT_EQ(last.inputs.front(), 1088);
    EXPECT_EQ(last.targets.back(), 1096);
    EXPECT_EQ(d->epoch(), 0);
    const Batch wrapped = readBatch(*d, 13, 2, 0, 1, 4);
    EXPECT_EQ(wrapped.inputs, (std::vector<int>{1008, 1009, 1010, 1011}));
    EXPECT_EQ(d->epoch(), 1);
    readBatch(*d, 12 * 5 + 2, 2, 0, 1, 4);
    EXPECT_EQ(d->epoch(), 5);
}

TEST(DataOrder, ShardsAreConcatenatedInSortedOrder) {
    TempDir dir;
    // Written out of order: the loader must sort by path.
    writeShard(dir.file("train_000002.bin"), countingTokens(10, 2000));
    writeShard(dir.file("train_000001.bin"), countingTokens(10, 1000));
    writeBytes(dir.file("README.txt"), "not a shard");
    for (const std::string& path : {dir.path().string(), dir.file("train_*.bin")}) {
        auto d = makeDataLoader("llmc", path, 65536, 0);
        EXPECT_EQ(d->tokenCount(), 20) << path;
        // Step 1 with G=1, T=6 spans the shard boundary: tokens 6..12.
        const Batch b = readBatch(*d, 1, 1, 0, 1, 6);
        EXPECT_EQ(b.inputs, (std::vector<int>{1006, 1007, 1008, 1009, 2000, 2001})) << path;
        EXPECT_EQ(b.targets, (std::vector<int>{1007, 1008, 1009, 2000, 2001, 2002})) << path;
    }
}

TEST(DataOrder, TextTokensAreTheFileBytes) {
    TempDir dir;
    writeBytes(dir.file("t.txt"), std::string("hello, world\xff", 13));
    auto d = makeDataLoader("text", dir.file("t.txt"), 256, 0);
    // 13 bytes, G=2, T=3: step 1 starts at byte 6, the space before "world".
    const Batch b = readBatch(*d, 1, 2, 0, 2, 3);
    EXPECT_EQ(b.inputs, (std::vector<int>{' ', 'w', 'o', 'r', 'l', 'd'}));
    EXPECT_EQ(b.targets, (std::vector<int>{'w', 'o', 'r', 'l', 'd', 255}));
}

// scripts/make-llmc-shard writes a file's bytes as a shard that reads back as
// the same tokens as the text source gives for the file.
TEST(DataOrder, MakeLlmcShardScriptMatchesTextSource) {
    if (std::system("python3 -c 'import sys' > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "python3 is not installed";
    }
    TempDir dir;
    writeBytes(dir.file("in.txt"), "The cat sleeps. Bob sees the dog.\n");
    const std::string cmd = std::string("python3 ") + ZEROLAB_SOURCE_DIR +
                            "/scripts/make-llmc-shard " + dir.file("in.txt") + " " +
                            dir.file("in.bin") + " 2> /dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    auto text = makeDataLoader("text", dir.file("in.txt"), 256, 0);
    auto shard = makeDataLoader("llmc", dir.file("in.bin"), 256, 0);
    EXPECT_EQ(shard->tokenCount(), text->tokenCount());
    for (long long step : {0, 1, 2}) {
        const Batch a = readBatch(*text, step, 2, 0, 2, 8);
        const Batch b = readBatch(*shard, step, 2, 0, 2, 8);
        EXPECT_EQ(a.inputs, b.inputs) << step;
        EXPECT_EQ(a.targets, b.targets) << step;
    }
}

// Every rank r at micro-step a reads first_seq = r*(G/N) + a*micro; stitched
// together the slices must be the N = 1 batch, each sequence exactly once.
void expectGlobalBatchIndependentOfWorld(DataLoader& d, const std::vector<long long>& steps) {
    constexpr int G = 36; // divisible by N * accumulation for N in 1..4, accumulation 1, 3
    constexpr int T = 5;
    for (long long step : steps) {
        const Batch whole = readBatch(d, step, G, 0, G, T);
        for (int N = 1; N <= 4; ++N) {
            for (int accum : {1, 3}) {
                const int micro = G / (N * accum);
                Batch stitched{std::vector<int>(G * T, -1), std::vector<int>(G * T, -1)};
                std::vector<int> seen(G, 0);
                for (int r = 0; r < N; ++r) {
                    for (int a = 0; a < accum; ++a) {
                        const int first = r * (G / N) + a * micro;
                        const Batch part = readBatch(d, step, G, first, micro, T);
                        std::copy(part.inputs.begin(), part.inputs.end(),
                                  stitched.inputs.begin() + first * T);
                        std::copy(part.targets.begin(), part.targets.end(),
                                  stitched.targets.begin() + first * T);
                        for (int i = 0; i < micro; ++i) {
                            ++seen[first + i];
                        }
                    }
                }
                EXPECT_EQ(seen, std::vector<int>(G, 1)) << "N=" << N << " accum=" << accum;
                EXPECT_EQ(stitched.inputs, whole.inputs)
                    << d.describe() << " step " << step << " N=" << N << " accum=" << accum;
                EXPECT_EQ(stitched.targets, whole.targets)
                    << d.describe() << " step " << step << " N=" << N << " accum=" << accum;
            }
        }
    }
}

TEST(DataOrder, GlobalBatchIndependentOfWorldSizeText) {
    TempDir dir;
    std::string bytes;
    for (int i = 0; i < 5000; ++i) {
        bytes.push_back(static_cast<char>((i * 37 + i / 251) & 0xff));
    }
    writeBytes(dir.file("t.bin"), bytes);
    auto d = makeDataLoader("text", dir.file("t.bin"), 256, 0);
    // 180 tokens a batch: 27 batches an epoch, so steps 27.. wrap.
    expectGlobalBatchIndependentOfWorld(*d, {0, 1, 26, 27, 55});
    // And the N = 1 batch is the file in order: step 28 = epoch 1, batch 1.
    const Batch b = readBatch(*d, 28, 36, 0, 36, 5);
    for (int i = 0; i < 36 * 5; ++i) {
        ASSERT_EQ(b.inputs[i], static_cast<unsigned char>(bytes[180 + i])) << i;
        ASSERT_EQ(b.targets[i], static_cast<unsigned char>(bytes[181 + i])) << i;
    }
}

TEST(DataOrder, GlobalBatchIndependentOfWorldSizeLlmc) {
    TempDir dir;
    writeShard(dir.file("a.bin"), countingTokens(500, 0));
    writeShard(dir.file("b.bin"), countingTokens(700, 10000));
    auto d = makeDataLoader("llmc", dir.file("*.bin"), 65536, 0);
    expectGlobalBatchIndependentOfWorld(*d, {0, 2, 3, 6, 7, 13});
}

TEST(DataOrder, GlobalBatchIndependentOfWorldSizeSynthetic) {
    auto d = makeDataLoader("synthetic", "", 256, 7);
    // Step 5825 spans the first block boundary (1 MiB / (36*5) = 5825.4).
    expectGlobalBatchIndependentOfWorld(*d, {0, 1, 5825, 100000});
}

} // namespace
} // namespace zerolab
