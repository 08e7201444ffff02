// ZeRO++'s group layout and link counting (storage/comm_groups.h), which every
// communicator's split and traffic counts call: the ranks of each group, the hosts of a
// group's members, what a ring and an all-to-all send by link class, worked by hand; and
// the same numbers as the planner's forecast (zeropp_plan.h) over a sweep of layouts.
#include "storage/comm_groups.h"

#include "runtime/planner/zeropp_plan.h"

#include <gtest/gtest.h>

#include <vector>

namespace zerolab {
namespace {

using Ranks = std::vector<int>;

TEST(CommGroups, WithinIsConsecutiveRanksAcrossIsOnePlacePerGroup) {
    EXPECT_TRUE(groupsDivide(3, 6));
    EXPECT_FALSE(groupsDivide(4, 6));
    EXPECT_FALSE(groupsDivide(0, 6));
    EXPECT_EQ(groupRanks(CommGroup::Within, 4, 3, 6), (Ranks{3, 4, 5}));
    EXPECT_EQ(groupRanks(CommGroup::Across, 4, 3, 6), (Ranks{1, 4}));
    EXPECT_EQ(groupRanks(CommGroup::Within, 0, 2, 4), (Ranks{0, 1}));
    EXPECT_EQ(groupRanks(CommGroup::Across, 3, 2, 4), (Ranks{1, 3}));
    EXPECT_EQ(groupRanks(CommGroup::Within, 2, 1, 4), (Ranks{2}));
    EXPECT_EQ(groupRanks(CommGroup::Across, 2, 1, 4), (Ranks{0, 1, 2, 3}));
    // The colour names the group: equal exactly for the ranks of one group.
    EXPECT_EQ(groupColor(CommGroup::Within, 5, 3), 1);
    EXPECT_EQ(groupColor(CommGroup::Across, 5, 3), 2);
}

TEST(CommGroups, TrafficByLinkClassWorkedByHand) {
    // 4 ranks, 2 a host: of a ring collective's 48 bytes a rank sends, 2 of 4 ring links
    // cross a host: 24 across.
    const MemberHosts world = MemberHosts::consecutive(4, 2);
    EXPECT_EQ(world.hosts(), 2);
    LinkTraffic l = world.ring(48);
    EXPECT_DOUBLE_EQ(l.within, 24);
    EXPECT_DOUBLE_EQ(l.across, 24);
    // Groups of 2 on hosts of 2: within stays on its host, across is all across.
    const MemberHosts within = world.group(CommGroup::Within, 3, 2);
    const MemberHosts across = world.group(CommGroup::Across, 3, 2);
    EXPECT_EQ(within.size(), 2);
    EXPECT_EQ(within.hosts(), 1);
    EXPECT_EQ(across.hostOf(0), 0);
    EXPECT_EQ(across.hostOf(1), 1);
    EXPECT_DOUBLE_EQ(within.ring(32).across, 0);
    EXPECT_DOUBLE_EQ(across.ring(32).across, 32);
    // All-to-all over 6 ranks, 2 a host, 16 bytes a block from rank 0: 1 peer on its host.
    l = MemberHosts::consecutive(6, 2).allToAll(16, 0);
    EXPECT_DOUBLE_EQ(l.within, 16);
    EXPECT_DOUBLE_EQ(l.across, 64);
    // One host: nothing across.
    EXPECT_DOUBLE_EQ(MemberHosts::oneHost(4).allToAll(16, 2).across, 0);
    EXPECT_DOUBLE_EQ(MemberHosts::oneHost(4).ring(48).across, 0);
}

TEST(CommGroups, CountsWhatThePlannerForecasts) {
    for (int N : {2, 4, 6, 8})
        for (int rph = 1; rph <= N; ++rph) {
            if (N % rph != 0)
                continue;
            const MemberHosts world = MemberHosts::consecutive(N, rph);
            for (int P = 1; P <= N; ++P) {
                if (!groupsDivide(P, N))
                    continue;
                for (int rank = 0; rank < N; ++rank) {
                    const MemberHosts w = world.group(CommGroup::Within, rank, P);
                    const MemberHosts a = world.group(CommGroup::Across, rank, P);
                    const std::vector<int> pw = withinGroupHosts(rank, P, rph);
                    const std::vector<int> pa = acrossGroupHosts(rank, P, N, rph);
                    ASSERT_EQ(w.size(), static_cast<int>(pw.size()));
                    ASSERT_EQ(a.size(), static_cast<int>(pa.size()));
                    for (int j = 0; j < w.size(); ++j)
                        ASSERT_EQ(w.hostOf(j), pw[static_cast<std::size_t>(j)]);
                    for (int j = 0; j < a.size(); ++j)
                        ASSERT_EQ(a.hostOf(j), pa[static_cast<std::size_t>(j)]);
                    const int me = rank % P, meAcross = rank / P;
                    EXPECT_DOUBLE_EQ(w.ring(1000).across, ringLinkTraffic(1000, pw).across);
                    EXPECT_DOUBLE_EQ(a.ring(1000).across, ringLinkTraffic(1000, pa).across);
                    EXPECT_DOUBLE_EQ(w.allToAll(10, me).across,
                                     allToAllLinkTraffic(10, pw, me).across);
                    EXPECT_DOUBLE_EQ(a.allToAll(10, meAcross).within,
                                     allToAllLinkTraffic(10, pa, meAcross).within);
                }
            }
            EXPECT_DOUBLE_EQ(world.ring(1000).across, worldRingLinkTraffic(1000, N, rph).across)
                << N << " ranks, " << rph << " a host";
        }
}

} // namespace
} // namespace zerolab
