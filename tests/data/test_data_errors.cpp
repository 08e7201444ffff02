// Every data error is a DataError whose message names the file (or source) and
// the problem: missing, short or malformed shards, tokens outside the vocabulary,
// files shorter than a batch, byte sources for a model with vocab < 256.
#include "data_test_files.h"
#include "runtime/data/data_loader.h"
#include "tests/support/hostile_files.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace zerolab {
namespace {

using test::ShardHeader;
using test::TempDir;
using test::writeBytes;
using test::writeShard;

// Runs fn, which must throw DataError mentioning every one of `parts`.
void expectDataError(const std::function<void()>& fn, const std::vector<std::string>& parts) {
    try {
        fn();
    } catch (const DataError& e) {
        const std::string msg = e.what();
        for (const auto& p : parts) {
            EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
        }
        return;
    }
    ADD_FAILURE() << "no DataError thrown";
}

std::vector<std::uint16_t> tokens(int n) {
    return std::vector<std::uint16_t>(n, 7);
}

void readOneBatch(DataLoader& d, int G, int T) {
    std::vector<int> in(static_cast<std::size_t>(G) * T), out(in.size());
    d.batch(0, G, 0, G, T, in.data(), out.data());
}

TEST(DataErrors, LlmcMissingFile) {
    TempDir dir;
    const std::string path = dir.file("absent.bin");
    expectDataError([&] { makeDataLoader("llmc", path, 50257, 0); }, {path, "cannot open"});
}

TEST(DataErrors, LlmcShortHeader) {
    TempDir dir;
    const std::string path = dir.file("short.bin");
    writeBytes(path, std::string(100, '\0'));
    expectDataError([&] { makeDataLoader("llmc", path, 50257, 0); },
                    {path, "100 bytes", "1024-byte header"});
}

TEST(DataErrors, LlmcBadMagic) {
    TempDir dir;
    const std::string path = dir.file("magic.bin");
    writeShard(path, tokens(10), ShardHeader{20240326, 1, -1});
    expectDataError([&] { makeDataLoader("llmc", path, 50257, 0); },
                    {path, "bad magic 20240326", "20240520"});
}

TEST(DataErrors, LlmcBadVersion) {
    TempDir dir;
    const std::string path = dir.file("version.bin");
    writeShard(path, tokens(10), ShardHeader{kLlmcShardMagic, 2, -1});
    expectDataError([&] { makeDataLoader("llmc", path, 50257, 0); }, {path, "version 2"});
}

TEST(DataErrors, LlmcCountDisagreesWithFileSize) {
    TempDir dir;
    const std::string path = dir.file("count.bin");
    writeShard(path, tokens(9), ShardHeader{kLlmcShardMagic, kLlmcShardVersion, 10});
    expectDataError([&] { makeDataLoader("llmc", path, 50257, 0); },
                    {path, "header says 10 tokens", "1044 bytes", "1042 bytes"});
}

TEST(DataErrors, LlmcTokenOutsideVocabulary) {
    TempDir dir;
    const std::string path = dir.file("vocab.bin");
    std::vector<std::uint16_t> t = tokens(40);
    t[5] = 300;
    writeShard(path, t);
    auto d = makeDataLoader("llmc", path, 256, 0);
    expectDataError([&] { readOneBatch(*d, 2, 4); },
                    {path, "token 300 at position 5", "vocab_size 256"});
    // A model with a larger vocabulary reads the same shard.
    auto wide = makeDataLoader("llmc", path, 301, 0);
    EXPECT_NO_THROW(readOneBatch(*wide, 2, 4));
}

TEST(DataErrors, LlmcGlobAndDirectoryWithoutShards) {
    TempDir dir;
    expectDataError([&] { makeDataLoader("llmc", dir.file("*.bin"), 256, 0); },
                    {dir.file("*.bin"), "matches no file"});
    expectDataError([&] { makeDataLoader("llmc", dir.path(), 256, 0); },
                    {dir.path(), "no *.bin shards"});
    expectDataError([&] { makeDataLoader("llmc", "", 256, 0); }, {"data.path"});
}

TEST(DataErrors, LlmcBadShardAmongGoodOnesIsNamed) {
    TempDir dir;
    writeShard(dir.file("a.bin"), tokens(10));
    writeShard(dir.file("b.bin"), tokens(10), ShardHeader{1, 1, -1});
    expectDataError([&] { makeDataLoader("llmc", dir.path(), 256, 0); },
                    {dir.file("b.bin"), "bad magic 1"});
}

TEST(DataErrors, StreamShorterThanOneBatch) {
    TempDir dir;
    const std::string text = dir.file("short.txt");
    writeBytes(text, "0123456789");
    auto d = makeDataLoader("text", text, 256, 0);
    // 2 sequences of 5 need 11 tokens; the file has 10.
    expectDataError([&] { readOneBatch(*d, 2, 5); }, {text, "10 tokens", "2 x 5 + 1 = 11"});
    EXPECT_NO_THROW(readOneBatch(*d, 1, 9));

    const std::string shard = dir.file("short.bin");
    writeShard(shard, tokens(8));
    auto l = makeDataLoader("llmc", shard, 256, 0);
    expectDataError([&] { readOneBatch(*l, 1, 8); }, {shard, "8 tokens", "1 x 8 + 1 = 9"});
}

TEST(DataErrors, TextMissingOrEmptyPath) {
    TempDir dir;
    const std::string path = dir.file("absent.txt");
    expectDataError([&] { makeDataLoader("text", path, 256, 0); }, {path, "cannot open"});
    expectDataError([&] { makeDataLoader("text", "", 256, 0); }, {"data.path"});
    expectDataError([&] { makeDataLoader("text", dir.path(), 256, 0); },
                    {dir.path(), "not a regular file"});
}

// Issue 17: a FIFO as a data path blocked forever in open().
TEST(DataErrors, FifoIsRefusedWithoutWaitingForAWriter) {
    TempDir dir;
    const std::string fifo = dir.file("shard.bin");
    test::makeFifo(fifo);
    for (const char* type : {"llmc", "text"}) {
        const bool returned = test::returnsWithoutWaitingOnFifo(fifo, [&] {
            expectDataError([&] { makeDataLoader(type, fifo, 50257, 0); },
                            {fifo, "not a regular file"});
        });
        EXPECT_TRUE(returned) << type << ": blocked opening a FIFO";
    }
}

TEST(DataErrors, ByteSourcesNeedVocab256) {
    TempDir dir;
    const std::string path = dir.file("t.txt");
    writeBytes(path, "some text");
    expectDataError([&] { makeDataLoader("text", path, 100, 0); },
                    {path, "vocab_size is 100", ">= 256"});
    expectDataError([&] { makeDataLoader("synthetic", "", 255, 0); },
                    {"synthetic", "vocab_size is 255", ">= 256"});
    EXPECT_NO_THROW(makeDataLoader("synthetic", "", 50257, 0));
}

TEST(DataErrors, UnknownTypeAndBadRequest) {
    expectDataError([&] { makeDataLoader("parquet", "x", 256, 0); },
                    {"data.type", "parquet", "synthetic, text or llmc"});
    auto d = makeDataLoader("synthetic", "", 256, 0);
    std::vector<int> in(64), out(64);
    expectDataError([&] { d->batch(0, 4, 3, 2, 8, in.data(), out.data()); },
                    {"first_seq 3", "n_seq 2", "global_batch 4"});
    expectDataError([&] { d->batch(-1, 4, 0, 1, 8, in.data(), out.data()); }, {"step -1"});
}

} // namespace
} // namespace zerolab
