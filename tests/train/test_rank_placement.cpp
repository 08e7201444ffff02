// The placement event (runtime/train/rank_placement.h): ranks grouped by host, the hosts
// in the order of their lowest rank, whatever order the ranks come in; none on one host.
#include "runtime/train/rank_placement.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

TEST(RankPlacement, GroupsRanksByHostInRankOrder) {
    EXPECT_EQ(placementMessage({{3, 13, "b"}, {0, 10, "a"}, {2, 12, "b"}, {1, 11, "a"}}),
              "4 ranks on 2 hosts: a has ranks 0, 1; b has ranks 2, 3");
    EXPECT_EQ(placementMessage({{0, 10, "a"}, {1, 11, "b"}, {2, 12, "a"}}),
              "3 ranks on 2 hosts: a has ranks 0, 2; b has rank 1");
}

TEST(RankPlacement, NoneOnOneHost) {
    EXPECT_EQ(placementMessage({{0, 10, "vm"}}), std::nullopt);
    EXPECT_EQ(placementMessage({{1, 11, "vm"}, {0, 10, "vm"}}), std::nullopt);
}

} // namespace
} // namespace zerolab
