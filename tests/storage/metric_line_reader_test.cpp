// readMetricLine: what the live view takes from rank 0's stdout. Lines are untrusted:
// wrong types, out-of-range counts and deep nesting are read as absent, never thrown.
#include "storage/metric_line_reader.h"
#include "storage/metric_lines.h"

#include <gtest/gtest.h>

#include <string>

namespace zerolab {
namespace {

TEST(MetricLineReader, ReadsWhatTheTrainerWrites) {
    StepRecord s;
    s.step = 7;
    s.wall_time_s = 2.5;
    s.loss = 4.25;
    s.tokens_per_s = 1000;
    const auto step = readMetricLine(jsonText(stepLine(s)));
    ASSERT_TRUE(step);
    EXPECT_EQ(step->type, MetricLineType::Step);
    EXPECT_EQ(step->step, 7);
    EXPECT_EQ(step->wall_time_s, 2.5);
    EXPECT_EQ(step->loss, 4.25);
    EXPECT_EQ(step->tokens_per_s, 1000.0);

    const auto run = readMetricLine(R"({"type":"run","run_id":3,"config":{"run":{"steps":20}}})");
    ASSERT_TRUE(run);
    EXPECT_EQ(run->type, MetricLineType::Run);
    EXPECT_EQ(run->run_id, 3);
    EXPECT_EQ(run->total_steps, 20);
    EXPECT_EQ(readMetricLine(R"({"type":"end"})")->type, MetricLineType::End);
    EXPECT_EQ(readMetricLine(R"({"type":"event"})")->type, MetricLineType::Event);
}

TEST(MetricLineReader, NotAnObjectIsNothing) {
    for (const char* line : {"", "{", "[1]", "3", "{\"type\":\"step\"", "\xff{}"})
        EXPECT_FALSE(readMetricLine(line)) << line;
}

// The GUI read these with nlohmann's value(), which threw type_error (exit 134).
TEST(MetricLineReader, WrongTypesAndRangesAreAbsent) {
    const auto other = readMetricLine(R"({"type":5,"step":1})");
    ASSERT_TRUE(other);
    EXPECT_EQ(other->type, MetricLineType::Other);
    EXPECT_FALSE(other->step);

    const auto run = readMetricLine(R"({"type":"run","run_id":"x","config":{"run":[1]}})");
    ASSERT_TRUE(run);
    EXPECT_FALSE(run->run_id);
    EXPECT_FALSE(run->total_steps);
    EXPECT_FALSE(readMetricLine(R"({"type":"run","config":7})")->total_steps);

    for (const char* step : {"-1", "9223372036854775807", "18446744073709551615",
                             "9007199254740993", "1.5", "\"4\"", "null", "1e999"}) {
        const std::string line = std::string(R"({"type":"step","step":)") + step +
                                 R"(,"wall_time_s":"soon","loss":[1],"tokens_per_s":{}})";
        const auto s = readMetricLine(line);
        if (std::string(step) == "1e999") {
            EXPECT_FALSE(s) << line; // not JSON: beyond a double
            continue;
        }
        ASSERT_TRUE(s) << line;
        EXPECT_FALSE(s->step) << line;
        EXPECT_FALSE(s->wall_time_s);
        EXPECT_FALSE(s->loss);
        EXPECT_FALSE(s->tokens_per_s);
    }
    EXPECT_EQ(readMetricLine(R"({"type":"step","step":9007199254740992})")->step,
              kMaxMetricLineCount);
}

// 100,000 nested arrays: dropped while parsing, so nothing recurses over them.
TEST(MetricLineReader, DeepNestingIsDropped) {
    const std::string line = R"({"type":"step","step":3,"x":)" + std::string(100000, '[') +
                             std::string(100000, ']') + "}";
    const auto s = readMetricLine(line);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->step, 3);
}

} // namespace
} // namespace zerolab
