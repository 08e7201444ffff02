// Machine profiles in the run store (storage/profile_store.h, migrate_v12.sql): kept whole,
// the latest of a name read back, and there in a store migrated from an older version.
#include "store_test_util.h"

#include "storage/profile_store.h"
#include "storage/sqlite_db.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

TEST(ProfileStore, KeepsProfilesAndReadsTheLatestOfAName) {
    test::TempDir dir;
    RunStore store = RunStore::open(dir.file("runs.db"));
    EXPECT_FALSE(latestMachineProfile(store).has_value());
    const std::int64_t a = addMachineProfile(store, "box", "calibrated", "{\"v\": 1}");
    addMachineProfile(store, "other", "calibrated", "{\"v\": 2}");
    const std::int64_t c = addMachineProfile(store, "box", "calibrated", "{\"v\": 3}");
    EXPECT_LT(a, c);
    const auto latest = latestMachineProfile(store, "box");
    ASSERT_TRUE(latest.has_value());
    EXPECT_EQ(latest->id, c);
    EXPECT_EQ(latest->json, "{\"v\": 3}");
    EXPECT_EQ(latestMachineProfile(store)->id, c);
    EXPECT_FALSE(latestMachineProfile(store, "nobody").has_value());
    EXPECT_EQ(machineProfiles(store).size(), 3u);
}

} // namespace
} // namespace zerolab
