// The stall report (runtime/train/stall_report.h): which ranks it names as not arrived,
// which it cannot see, and the default collective timeout.
#include "runtime/train/stall_report.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

BeaconReading at(std::uint64_t entered, std::uint64_t left) {
    BeaconReading b;
    b.entered = entered;
    b.left = left;
    return b;
}

TEST(StallReport, NamesTheRanksBehindAndTheStoppedOnes) {
    const std::vector<RankSighting> others = {
        {{1, 101, "a"}, at(9, 9), false},     // behind: never entered #10
        {{2, 102, "a"}, at(10, 9), false},    // waiting with rank 0: arrived
        {{3, 103, "a"}, at(10, 9), true},     // inside #10 but stopped
        {{4, 104, "b"}, std::nullopt, false}, // another host
    };
    const StallReport r = describeStall(at(10, 9), 130.2, 120, others);
    EXPECT_EQ(r.missing, (std::vector<int>{1, 3}));
    EXPECT_EQ(r.unseen, (std::vector<int>{4}));
    EXPECT_EQ(r.eventRank(), 1);
    EXPECT_NE(r.message.find("waited 130.2 s in collective #10"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("rank 1 (pid 101 on a) at collective #9"), std::string::npos)
        << r.message;
    EXPECT_NE(r.message.find("rank 3 (pid 103 on a), its process stopped"), std::string::npos)
        << r.message;
    EXPECT_EQ(r.message.find("rank 2 "), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("not observable from rank 0's host: rank 4 (pid 104 on b)"),
              std::string::npos)
        << r.message;
}

TEST(StallReport, FarSideRanksAreTheSuspectsWhenNothingLocalIsBehind) {
    const StallReport r = describeStall(at(5, 4), 3, 2,
                                        {{{1, 11, "a"}, at(5, 4), false},
                                         {{2, 12, "b"}, std::nullopt, false},
                                         {{3, 13, "b"}, std::nullopt, false}});
    EXPECT_TRUE(r.missing.empty());
    EXPECT_EQ(r.unseen, (std::vector<int>{2, 3}));
    EXPECT_EQ(r.eventRank(), 2);
    EXPECT_NE(r.message.find("another host): rank 2 (pid 12 on b); rank 3 (pid 13 on b)"),
              std::string::npos)
        << r.message;
}

TEST(StallReport, EveryRankInsideIsAWedgedCollective) {
    const StallReport r = describeStall(at(5, 4), 3, 2, {{{1, 11, "a"}, at(5, 4), false}});
    EXPECT_EQ(r.eventRank(), -1);
    EXPECT_NE(r.message.find("none has left"), std::string::npos) << r.message;
}

TEST(StallReport, DefaultTimeoutIsTenMedianStepsAndAtLeast120s) {
    EXPECT_EQ(collectiveTimeoutS(3, {1e6}), 3);               // configured wins
    EXPECT_EQ(collectiveTimeoutS(0, {}), 120);                // no step yet
    EXPECT_EQ(collectiveTimeoutS(0, {50, 60, 70}), 120);      // fast steps
    EXPECT_EQ(collectiveTimeoutS(0, {20e3, 15e3, 1e6}), 200); // median 20 s
}

} // namespace
} // namespace zerolab
