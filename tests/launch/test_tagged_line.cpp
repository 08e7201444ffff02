// Lines under mpirun --tag-output: Open MPI tags every piece it reads, so a metric line
// longer than its read (about 1 KiB through the pty) arrives with a tag inside it. This
// is the run line a sweep trial printed (the tag fell inside "run_id").
#include "runtime/launch/tagged_line.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace zerolab;

TEST(TaggedLine, ALongLineSplitByATagIsWholeAgain) {
    const std::string config(1100, 'x');
    const std::string line = R"([1,0]<stdout>:{"config":")" + config +
                             R"(","run_id"[1,0]<stdout>::3,"type":"run","world":2})";
    const auto [rank, text] = splitTaggedLine(line);
    EXPECT_EQ(rank, 0);
    const auto j = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << text.substr(text.size() - 60);
    EXPECT_EQ(j["run_id"], 3);
    EXPECT_EQ(j["config"].get<std::string>().size(), config.size());
}

TEST(TaggedLine, RankOfTheLeadingTagOrLabel) {
    EXPECT_EQ(splitTaggedLine("[1,3]<stderr>:step 2/8").first, 3);
    EXPECT_EQ(splitTaggedLine("[1,3]<stderr>:step 2/8").second, "step 2/8");
    EXPECT_EQ(splitTaggedLine("  2: from srun").first, 2);
    EXPECT_EQ(splitTaggedLine("  2: from srun").second, "from srun");
    // Untagged lines (the launcher's own) are kept whole, rank -1.
    EXPECT_EQ(splitTaggedLine("mpirun: not enough slots"),
              (std::pair<int, std::string>{-1, "mpirun: not enough slots"}));
    // A rank number too long for an int is read as its first nine digits, never thrown.
    EXPECT_NO_THROW(splitTaggedLine("[1,99999999999999999999]<stdout>:x"));
}

TEST(TaggedLine, RemovesEveryTagWherever) {
    EXPECT_EQ(removeOutputTags("[1,0]<stderr>:a[1,1]<stdout>:b[12,345]<stderr>:c"), "abc");
    EXPECT_EQ(removeOutputTags("no tag [1,x]<stdout>: here"), "no tag [1,x]<stdout>: here");
}
