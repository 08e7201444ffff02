// Link classes from the ranks' host names (runtime/train/link_hosts.h): the names set
// run.ranks_per_host where the config leaves it out, and a config that disagrees with
// them (ranks per host, an hpZ group across two hosts, a scattered placement under ZeRO++)
// is refused with the key and the hosts named.
#include "runtime/train/link_hosts.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

TrainConfig stage3(int hpz = 1, bool qgz = false, int rph = 0) {
    TrainConfig c;
    c.zero.stage = 3;
    c.zero.hpz_partition_size = hpz;
    c.zero.quantized_gradients = qgz;
    c.run.ranks_per_host = rph;
    return c;
}

const std::vector<std::string> kTwoByTwo = {"a", "a", "b", "b"};

TEST(LinkHosts, OneHostKeepsTheConfigsEmulatedClasses) {
    const LinkHosts l = resolveLinkHosts(stage3(2, true, 2), {"vm", "vm", "vm", "vm"});
    EXPECT_EQ(l.ranks_per_host, 0);
    EXPECT_FALSE(l.error);
    EXPECT_FALSE(l.note);
}

TEST(LinkHosts, HostNamesSetRanksPerHostWhereTheConfigDoesNotSay) {
    EXPECT_EQ(resolveLinkHosts(stage3(), kTwoByTwo).ranks_per_host, 2);
    EXPECT_EQ(resolveLinkHosts(stage3(2, true), kTwoByTwo).ranks_per_host, 2);
    EXPECT_EQ(resolveLinkHosts(stage3(1, false), {"a", "a", "a", "b", "b", "b"}).ranks_per_host, 3);
    // Said and agreeing: nothing to change.
    const LinkHosts l = resolveLinkHosts(stage3(2, true, 2), kTwoByTwo);
    EXPECT_EQ(l.ranks_per_host, 0);
    EXPECT_FALSE(l.error);
}

TEST(LinkHosts, RanksPerHostThatDisagreesWithTheNamesIsAnError) {
    const LinkHosts l = resolveLinkHosts(stage3(1, false, 4), kTwoByTwo);
    ASSERT_TRUE(l.error);
    EXPECT_NE(l.error->find("run.ranks_per_host: 4 ranks per host, but 2 ranks share each host"),
              std::string::npos)
        << *l.error;
    EXPECT_NE(l.error->find("a has ranks 0, 1; b has ranks 2, 3"), std::string::npos) << *l.error;
}

TEST(LinkHosts, AnHpzGroupAcrossTwoHostsIsAnError) {
    const LinkHosts l = resolveLinkHosts(stage3(4), kTwoByTwo);
    ASSERT_TRUE(l.error);
    EXPECT_NE(l.error->find("zero_hpz_partition_size: groups of 4 ranks span two hosts"),
              std::string::npos)
        << *l.error;
    // A group inside a host is fine, and hpZ's key means nothing below stage 3.
    EXPECT_FALSE(resolveLinkHosts(stage3(2), {"a", "a", "a", "a", "b", "b", "b", "b"}).error);
    TrainConfig s2 = stage3(4);
    s2.zero.stage = 2;
    EXPECT_FALSE(resolveLinkHosts(s2, kTwoByTwo).error);
}

TEST(LinkHosts, ScatteredRanksAreRefusedUnderZeroPPAndNotedOtherwise) {
    const std::vector<std::string> roundRobin = {"a", "b", "a", "b"};
    const LinkHosts z = resolveLinkHosts(stage3(1, true), roundRobin);
    ASSERT_TRUE(z.error);
    EXPECT_NE(z.error->find("consecutive and equally many"), std::string::npos) << *z.error;
    EXPECT_NE(z.error->find("a has ranks 0, 2; b has ranks 1, 3"), std::string::npos) << *z.error;
    const LinkHosts plain = resolveLinkHosts(stage3(), roundRobin);
    EXPECT_FALSE(plain.error);
    EXPECT_EQ(plain.ranks_per_host, 0);
    ASSERT_TRUE(plain.note);
    // Unequal hosts, and a host that comes back after another.
    EXPECT_TRUE(resolveLinkHosts(stage3(1, true), {"a", "a", "a", "b"}).error);
    EXPECT_TRUE(resolveLinkHosts(stage3(1, true), {"a", "a", "b", "b", "a", "a"}).error);
}

} // namespace
} // namespace zerolab
