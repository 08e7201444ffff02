// The placement event (runtime/train/rank_placement.h): ranks grouped by host, the hosts
// in the order of their lowest rank, whatever order the ranks come in; none on one host.
// The oversubscription warning: a host's ranks x threads above its cores.
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

// Issue 39: 4 ranks of 1 thread on 2 cores are slower because they share the cores; the
// run's events say so (not only "1 thread per rank"). Only the ranks on that host count.
TEST(RankPlacement, OversubscribedHostIsSaid) {
    const std::vector<RankProcess> four = {
        {0, 10, "vm"}, {1, 11, "vm"}, {2, 12, "vm"}, {3, 13, "vm"}};
    EXPECT_EQ(oversubscriptionMessage(four, "vm", 1, 2),
              "oversubscribed: 4 ranks x 1 thread on vm's 2 cores: the ranks take turns on the "
              "cores, each at about 50% of a core, so every step is slower than this "
              "configuration with a core per thread");
    EXPECT_EQ(oversubscriptionMessage(four, "vm", 1, 4), std::nullopt);
    EXPECT_EQ(oversubscriptionMessage(four, "vm", 2, 4)->substr(0, 45),
              "oversubscribed: 4 ranks x 2 threads on vm's 4");
    const std::vector<RankProcess> two = {{0, 10, "a"}, {1, 11, "b"}, {2, 12, "a"}, {3, 13, "b"}};
    EXPECT_EQ(oversubscriptionMessage(two, "a", 1, 2), std::nullopt);
}

} // namespace
} // namespace zerolab
