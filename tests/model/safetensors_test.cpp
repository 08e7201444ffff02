// safetensors files (runtime/model/safetensors.h): written then read back bit for bit,
// the reference layout (8-byte length, header padded with spaces, tensors tiling the
// data), exact bf16/f16 conversions, a sharded index, and a SafetensorsError naming the
// file, the tensor and the value for each hostile header.
#include "runtime/model/safetensors.h"
#include "tests/support/hostile_files.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

namespace zerolab {
namespace {

namespace fs = std::filesystem;

std::string readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), {}};
}

// A file of 8-byte length + `header` verbatim + `data`.
void writeRaw(const std::string& path, const std::string& header, const std::string& data,
              std::uint64_t length_override = 0) {
    const std::uint64_t n = length_override ? length_override : header.size();
    std::string bytes(8, '\0');
    for (int i = 0; i < 8; ++i)
        bytes[static_cast<std::size_t>(i)] = static_cast<char>((n >> (8 * i)) & 0xffu);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes << header << data;
}

class Safetensors : public ::testing::Test {
protected:
    std::string path(const std::string& name) const { return m_dir.file(name); }

    // Expects opening `file` to throw a SafetensorsError starting with its path and
    // containing every needle.
    void expectRefused(const std::string& file, const std::vector<std::string>& needles) {
        try {
            SafetensorsFile f(file);
            ADD_FAILURE() << "accepted; expected: " << needles.front();
        } catch (const SafetensorsError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
            for (const std::string& n : needles)
                EXPECT_NE(what.find(n), std::string::npos) << "missing \"" << n << "\" in " << what;
        }
    }
    // A raw file from header and data, then expectRefused.
    void expectHeaderRefused(const std::string& header, const std::string& data,
                             const std::vector<std::string>& needles) {
        const std::string file = path("hostile.safetensors");
        writeRaw(file, header, data);
        expectRefused(file, needles);
    }

    test::TempDir m_dir{"safetensors"};
};

TEST_F(Safetensors, WrittenTensorsReadBackBitForBit) {
    std::vector<float> a(6), b(5), c(1);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = std::ldexp(static_cast<float>(i) - 2.5f, static_cast<int>(i) - 3);
    b = {1.0f, -0.0f, std::numeric_limits<float>::infinity(), 3.0e-39f, 65504.0f};
    c = {42.0f};
    const std::vector<SafetensorsTensorToWrite> tensors = {
        {"model.layers.0.mlp.up_proj.weight", {2, 3}, a, SafetensorsDtype::F32},
        {"model.norm.weight", {5}, b, SafetensorsDtype::F32},
        {"scalar", {}, c, SafetensorsDtype::F32},
        {"empty", {0, 4}, {}, SafetensorsDtype::F32}};
    const std::string file = path("model.safetensors");
    writeSafetensors(file, tensors, {{"format", "pt"}});

    const SafetensorsFile f(file);
    EXPECT_EQ(f.tensors().size(), 4u);
    EXPECT_EQ(f.metadata(), (std::map<std::string, std::string>{{"format", "pt"}}));
    const SafetensorsTensorInfo* up = f.find("model.layers.0.mlp.up_proj.weight");
    ASSERT_NE(up, nullptr);
    EXPECT_EQ(up->shape, (std::vector<std::int64_t>{2, 3}));
    EXPECT_EQ(up->elements, 6);
    EXPECT_EQ(f.find("scalar")->elements, 1); // shape [] is one element
    EXPECT_EQ(f.find("empty")->elements, 0);
    const std::vector<float> ra = f.readF32("model.layers.0.mlp.up_proj.weight");
    const std::vector<float> rb = f.readF32("model.norm.weight");
    EXPECT_EQ(std::memcmp(ra.data(), a.data(), a.size() * 4), 0);
    EXPECT_EQ(std::memcmp(rb.data(), b.data(), b.size() * 4), 0);
    EXPECT_EQ(f.readF32("scalar"), c);
    EXPECT_TRUE(f.readF32("empty").empty());
    EXPECT_EQ(f.find("absent"), nullptr);
    // One file is one checkpoint too.
    const SafetensorsCheckpoint ck(file);
    EXPECT_EQ(ck.names(), (std::vector<std::string>{"empty", "model.layers.0.mlp.up_proj.weight",
                                                    "model.norm.weight", "scalar"}));
    EXPECT_EQ(ck.readF32("scalar"), c);
}

// The reference layout: length = header bytes, a multiple of 8 padded with spaces, the
// metadata first, tensors ordered by dtype (F32 before BF16) then name, and offsets
// that tile the data.
TEST_F(Safetensors, TheLayoutIsTheReferenceImplementations) {
    const std::vector<float> one = {1.0f}, two = {2.0f, 3.0f};
    const std::vector<SafetensorsTensorToWrite> tensors = {{"b", {2}, two, SafetensorsDtype::BF16},
                                                           {"z", {1}, one, SafetensorsDtype::F32},
                                                           {"a", {1}, one, SafetensorsDtype::F32}};
    const std::string file = path("layout.safetensors");
    writeSafetensors(file, tensors);
    const std::string bytes = readAll(file);
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i)
        n = (n << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    EXPECT_EQ(n % 8, 0u);
    const std::string header = bytes.substr(8, n);
    const std::string json = R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                             R"("z":{"dtype":"F32","shape":[1],"data_offsets":[4,8]},)"
                             R"("b":{"dtype":"BF16","shape":[2],"data_offsets":[8,12]}})";
    EXPECT_EQ(header.substr(0, json.size()), json);
    EXPECT_EQ(header.find_first_not_of(' ', json.size()), std::string::npos);
    EXPECT_EQ(bytes.size(), 8 + n + 12);
    // bf16 of 2.0 and 3.0: 0x4000, 0x4040, little-endian.
    EXPECT_EQ(bytes.substr(8 + n + 8), std::string("\x00\x40\x40\x40", 4));
}

TEST_F(Safetensors, Bf16AndF16ConvertExactly) {
    // Widening is exact, subnormals, infinities and NaNs included.
    EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
    EXPECT_EQ(bf16ToFloat(0xc040), -3.0f);
    EXPECT_EQ(bf16ToFloat(0x0001), std::bit_cast<float>(0x00010000u));
    EXPECT_EQ(f16ToFloat(0x3c00), 1.0f);
    EXPECT_EQ(f16ToFloat(0xc000), -2.0f);
    EXPECT_EQ(f16ToFloat(0x7bff), 65504.0f);
    EXPECT_EQ(f16ToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
    EXPECT_EQ(f16ToFloat(0x03ff), std::ldexp(1023.0f, -24));
    EXPECT_EQ(f16ToFloat(0x0400), std::ldexp(1.0f, -14)); // smallest normal
    EXPECT_EQ(std::bit_cast<std::uint32_t>(f16ToFloat(0x8000)), 0x80000000u);
    EXPECT_EQ(f16ToFloat(0x7c00), std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(f16ToFloat(0x7e00)));
    // Narrowing rounds to nearest, ties to even.
    EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3f808000u)), 0x3f80); // tie, even below
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3f818000u)), 0x3f82); // tie, even above
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3f808001u)), 0x3f81); // above half
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x3f807fffu)), 0x3f80); // below half
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x7f7fffffu)), 0x7f80); // rounds to inf
    EXPECT_EQ(floatToBf16(-std::numeric_limits<float>::infinity()), 0xff80);
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0x7f800001u)) & 0x7fc0, 0x7fc0); // NaN stays
    EXPECT_EQ(floatToBf16(std::bit_cast<float>(0xff800001u)) & 0x8000, 0x8000);

    // Through files: BF16 written and read; F16 read from bytes written by hand.
    const std::vector<float> v = {1.0f, std::bit_cast<float>(0x3f808000u), -3.0f};
    const SafetensorsTensorToWrite t{"w", {3}, v, SafetensorsDtype::BF16};
    writeSafetensors(path("bf16.safetensors"), std::span(&t, 1));
    EXPECT_EQ(SafetensorsFile(path("bf16.safetensors")).readF32("w"),
              (std::vector<float>{1.0f, 1.0f, -3.0f}));
    writeRaw(path("f16.safetensors"), R"({"h":{"dtype":"F16","shape":[3],"data_offsets":[0,6]}})",
             std::string("\x00\x3c\x01\x00\x00\xc0", 6));
    EXPECT_EQ(SafetensorsFile(path("f16.safetensors")).readF32("h"),
              (std::vector<float>{1.0f, std::ldexp(1.0f, -24), -2.0f}));
}

TEST_F(Safetensors, OtherDtypesAreListedButNotRead) {
    writeRaw(path("i64.safetensors"), R"({"ids":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}})",
             std::string(8, '\0'));
    const SafetensorsFile f(path("i64.safetensors"));
    EXPECT_EQ(f.find("ids")->dtype, SafetensorsDtype::I64);
    try {
        f.readF32("ids");
        ADD_FAILURE() << "read an I64 tensor as fp32";
    } catch (const SafetensorsError& e) {
        EXPECT_NE(std::string(e.what()).find("tensor \"ids\": dtype I64 is not read"),
                  std::string::npos)
            << e.what();
    }
    std::vector<float> wrong(2);
    EXPECT_THROW(SafetensorsFile(path("bf16.none")), SafetensorsError); // absent file
    writeRaw(path("one.safetensors"), R"({"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
             std::string(4, '\0'));
    EXPECT_THROW(SafetensorsFile(path("one.safetensors")).readF32("x", wrong), SafetensorsError);
}

TEST_F(Safetensors, HostileLengthsAreRefusedBeforeAnyAllocation) {
    const std::string file = path("len.safetensors");
    writeRaw(file, "{}", "", 1000);
    expectRefused(file, {"header length 1000 runs past the end of the file (10 bytes)"});
    writeRaw(file, "{}", "", 0xffffffffffffff00ull);
    expectRefused(file, {"exceeds the format's limit of 100000000 bytes"});
    writeRaw(file, "{}", "", 200'000'000ull);
    expectRefused(file, {"header length 200000000 exceeds"});
    std::ofstream(file, std::ios::trunc) << "abc";
    expectRefused(file, {"truncated: 3 bytes"});
    const std::string fifo = path("fifo.safetensors");
    test::makeFifo(fifo);
    expectRefused(fifo, {"not a regular file"});
}

TEST_F(Safetensors, HostileHeadersAreRefusedNamingTensorAndValue) {
    const std::string four(4, '\0');
    expectHeaderRefused("not json", "", {"does not start with '{'"});
    expectHeaderRefused("{\"a\": ", "", {"header is not JSON"});
    expectHeaderRefused("{\"a\":[[[[1]]]]}", "", {"nested deeper than 3 levels"});
    expectHeaderRefused(R"({"a":1})", "", {"tensor \"a\": expected an object", "got 1"});
    expectHeaderRefused(R"({"a":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})", four,
                        {"tensor \"a\": unknown dtype \"F33\""});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})", four,
                        {"tensor \"a\": shape [-1] has a dimension", "-1"});
    expectHeaderRefused(
        R"({"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,4]}})", four,
        {"tensor \"a\": shape [4294967296, 4294967296] of F32 overflows 64 bits"});
    expectHeaderRefused(
        R"({"a":{"dtype":"F32","shape":[1073741824,1073741824,8],"data_offsets":[0,4]}})", four,
        {"overflows 64 bits"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", four,
                        {"tensor \"a\": data_offsets [0,4] hold 4 bytes, its shape [2] of F32 "
                         "needs 8"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,0]}})", four,
                        {"tensor \"a\": data_offsets [4,0] end before they begin"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0]}})", four,
                        {"data_offsets must be [begin, end]", "got [0]"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})", four,
                        {"tensor \"a\": data_offsets [8, 12] run past the data section's 4 bytes"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                        R"("b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                        std::string(8, '\0'), {"overlap tensor \"a\" [0, 8]"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                        std::string(8, '\0'), {"leave bytes 0-4 of the data section unused"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                        std::string(8, '\0'), {"the tensors hold 4 bytes, the data section has 8"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                        R"("a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}})",
                        std::string(8, '\0'), {"tensor \"a\" appears twice"});
    expectHeaderRefused(R"({"a":{"dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4]}})",
                        four, {"key \"dtype\" appears twice in \"a\""});
    expectHeaderRefused(R"({"__metadata__":{"format":1}})", "",
                        {"__metadata__ \"format\": expected a string, got 1"});
    expectHeaderRefused("[1]", "", {"does not start with '{'"});
}

TEST_F(Safetensors, AShardedIndexReadsEachTensorFromItsShard) {
    const std::vector<float> a = {1, 2, 3, 4}, b = {5, 6};
    const SafetensorsTensorToWrite first{"model.embed_tokens.weight", {2, 2}, a};
    const SafetensorsTensorToWrite second{"lm_head.weight", {1, 2}, b};
    writeSafetensors(path("model-00001-of-00002.safetensors"), std::span(&first, 1));
    writeSafetensors(path("model-00002-of-00002.safetensors"), std::span(&second, 1));
    const std::string index = path("model.safetensors.index.json");
    std::ofstream(index) << R"({"metadata": {"total_size": 24}, "weight_map": {
        "lm_head.weight": "model-00002-of-00002.safetensors",
        "model.embed_tokens.weight": "model-00001-of-00002.safetensors"}})";
    const SafetensorsCheckpoint ck(index);
    EXPECT_EQ(ck.shardCount(), 2u);
    EXPECT_EQ(ck.names(),
              (std::vector<std::string>{"lm_head.weight", "model.embed_tokens.weight"}));
    EXPECT_EQ(ck.readF32("model.embed_tokens.weight"), a);
    EXPECT_EQ(ck.readF32("lm_head.weight"), b);
    EXPECT_EQ(ck.fileOf("lm_head.weight").path(), path("model-00002-of-00002.safetensors"));
    EXPECT_EQ(ck.find("absent"), nullptr);
}

TEST_F(Safetensors, AMissingOrWrongShardIsNamed) {
    const std::vector<float> a = {1};
    const SafetensorsTensorToWrite t{"x", {1}, a};
    writeSafetensors(path("s1.safetensors"), std::span(&t, 1));
    const auto expectIndexRefused = [&](const std::string& json,
                                        const std::vector<std::string>& needles) {
        const std::string index = path("bad.index.json");
        std::ofstream(index, std::ios::trunc) << json;
        try {
            SafetensorsCheckpoint ck(index);
            ADD_FAILURE() << "accepted " << json;
        } catch (const SafetensorsError& e) {
            const std::string what = e.what();
            EXPECT_EQ(what.rfind(index + ": ", 0), 0u) << what;
            for (const std::string& n : needles)
                EXPECT_NE(what.find(n), std::string::npos) << "missing \"" << n << "\" in " << what;
        }
    };
    expectIndexRefused(R"({"weight_map": {"x": "s1.safetensors", "y": "s2.safetensors"}})",
                       {"weight_map[\"y\"] names \"s2.safetensors\", which cannot be used",
                        path("s2.safetensors") + ": cannot open"});
    expectIndexRefused(R"({"weight_map": {"w": "s1.safetensors"}})",
                       {"weight_map[\"w\"] names \"s1.safetensors\", which has no tensor \"w\""});
    expectIndexRefused(R"({"weight_map": {"x": "../s1.safetensors"}})",
                       {"is not a file name in the index's folder"});
    expectIndexRefused(R"({"weight_map": {"x": 3}})", {"expected a shard file name, got 3"});
    expectIndexRefused(R"({"metadata": {}})", {"weight_map missing"});
    expectIndexRefused(R"({"weight_map": {"x": "s1.safetensors", "x": "s1.safetensors"}})",
                       {"appears twice"});
}

TEST_F(Safetensors, WritingBadTensorsIsRefusedAndLeavesTheFileAsItWas) {
    const std::vector<float> v = {1, 2, 3};
    const std::string file = path("keep.safetensors");
    const SafetensorsTensorToWrite ok{"ok", {3}, v};
    writeSafetensors(file, std::span(&ok, 1));
    const std::string before = readAll(file);
    const auto expectWriteRefused = [&](std::vector<SafetensorsTensorToWrite> ts,
                                        const std::string& needle) {
        try {
            writeSafetensors(file, ts);
            ADD_FAILURE() << "wrote; expected " << needle;
        } catch (const SafetensorsError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
        EXPECT_EQ(readAll(file), before);
    };
    expectWriteRefused({{"a", {2}, v}}, "shape [2] needs 2 values, 3 given");
    expectWriteRefused({{"a", {3}, v}, {"a", {3}, v}}, "tensor \"a\" twice");
    expectWriteRefused({{"__metadata__", {3}, v}}, "not a tensor name");
    expectWriteRefused({{"a", {3}, v, SafetensorsDtype::F16}}, "as F16");
    // An unwritable place: the error names the step, and nothing is left behind.
    const std::string nowhere = path("no/such/dir/m.safetensors");
    EXPECT_THROW(writeSafetensors(nowhere, std::span(&ok, 1)), SafetensorsError);
    std::size_t leftovers = 0;
    for (const auto& entry : fs::directory_iterator(m_dir.path()))
        leftovers += entry.path().filename().string().find(".tmp-") != std::string::npos;
    EXPECT_EQ(leftovers, 0u);
}

} // namespace
} // namespace zerolab
