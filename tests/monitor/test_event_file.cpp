// The event file without TensorBoard: CRC-32C's check value, the TFRecord framing, every
// tag and value read back, and a flipped byte or a cut file refused with its offset.
#include "tests/support/temp_dir.h"

#include "runtime/monitor/crc32c.h"
#include "runtime/monitor/event_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace zerolab;
namespace fs = std::filesystem;

namespace {

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST(EventFile, Crc32cCheckValue) {
    EXPECT_EQ(crc32c("123456789"), 0xE3069283u); // the CRC-32C catalogue's check value
    EXPECT_EQ(crc32c(""), 0u);
    const std::uint32_t c = crc32c("abc");
    EXPECT_EQ(maskedCrc32c("abc"), ((c >> 15) | (c << 17)) + 0xa282ead8u);
}

TEST(EventFile, ScalarEventBytesAreTheProtoWireFormat) {
    // Event{wall_time = 1.5, step = 300, summary {value {tag: "a", simple_value: 2}}}
    const std::string e = encodeScalarEvent(1.5, 300, {{"a", 2.0}});
    const std::string expected = std::string("\x09\x00\x00\x00\x00\x00\x00\xf8\x3f", 9) + // 1.5
                                 std::string("\x10\xac\x02", 3) +                         // 300
                                 std::string("\x2a\x0a\x0a\x08\x0a\x01"
                                             "a\x15\x00\x00\x00\x40",
                                             12);
    EXPECT_EQ(e, expected);
    const std::string framed = frameRecord(e);
    ASSERT_EQ(framed.size(), 8 + 4 + e.size() + 4);
    EXPECT_EQ(framed[0], static_cast<char>(e.size()));
}

TEST(EventFile, WrittenFileReadsBackEveryTagAndValue) {
    const test::TempDir temp("monitor-roundtrip");
    const fs::path dir = temp.path();
    std::string path;
    {
        EventFileWriter w((dir / "job").string(), "node-1");
        path = w.path();
        w.addScalars(16, 1e9, {{"Train/Samples/train_loss", 5.25}});
        w.addScalars(32, 1e9 + 1, {{"Train/Samples/lr", 1e-3}, {"Zerolab/Samples/mfu", 0.125}});
    }
    EXPECT_EQ(fs::path(path).parent_path(), dir / "job");
    EXPECT_EQ(fs::path(path).filename().string().rfind("events.out.tfevents.", 0), 0u) << path;
    EXPECT_NE(path.find(".node-1." + std::to_string(getpid()) + ".0"), std::string::npos);
    const std::vector<ScalarEvent> events = readEventFile(path);
    ASSERT_EQ(events.size(), 4u);
    EXPECT_EQ(events[0].file_version, "brain.Event:2");
    EXPECT_EQ(events[1].tag, "Train/Samples/train_loss");
    EXPECT_EQ(events[1].step, 16);
    EXPECT_FLOAT_EQ(events[1].value, 5.25f);
    EXPECT_DOUBLE_EQ(events[1].wall_time, 1e9);
    EXPECT_EQ(events[2].tag, "Train/Samples/lr");
    EXPECT_FLOAT_EQ(events[2].value, 1e-3f);
    EXPECT_EQ(events[3].tag, "Zerolab/Samples/mfu");
    EXPECT_EQ(events[3].step, 32);
}

TEST(EventFile, CorruptOrCutRecordsAreRefusedWithTheirOffset) {
    const test::TempDir temp("monitor-corrupt");
    const fs::path dir = temp.path();
    std::string path;
    {
        EventFileWriter w(dir.string(), "h");
        path = w.path();
        w.addScalars(1, 0, {{"x", 1}});
    }
    const std::string good = readAll(path);
    const std::size_t second = frameRecord(encodeFileVersionEvent(0)).size();
    for (std::size_t at : {std::size_t{2}, second + 14, good.size() - 1}) {
        std::string bad = good;
        bad[at] ^= 0x20;
        std::ofstream(path, std::ios::binary | std::ios::trunc) << bad;
        try {
            readEventFile(path);
            ADD_FAILURE() << "a flipped byte at " << at << " was read";
        } catch (const EventFileError& e) {
            EXPECT_NE(std::string(e.what()).find("CRC-32C does not match"), std::string::npos)
                << e.what();
        }
    }
    std::ofstream(path, std::ios::binary | std::ios::trunc) << good.substr(0, good.size() - 3);
    try {
        readEventFile(path);
        ADD_FAILURE() << "a cut file was read";
    } catch (const EventFileError& e) {
        EXPECT_NE(std::string(e.what()).find("at byte " + std::to_string(second)),
                  std::string::npos)
            << e.what();
    }
}

TEST(EventFile, AFolderThatCannotBeMadeIsAnErrorNamingTheFile) {
    const test::TempDir temp("monitor-blocked");
    const fs::path dir = temp.path();
    std::ofstream(dir / "file") << "x"; // a regular file where the folder should be
    try {
        EventFileWriter w((dir / "file" / "job").string(), "h");
        ADD_FAILURE() << "wrote under a regular file";
    } catch (const EventFileError& e) {
        EXPECT_NE(std::string(e.what()).find((dir / "file" / "job").string()), std::string::npos)
            << e.what();
    }
}
