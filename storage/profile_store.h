// The machine profiles kept in the run store (table machine_profiles, migrate_v12.sql):
// zerolab-calibrate adds one per calibration; readers take the latest of a name. The
// profile is stored as its JSON text, whole; the planner's reader checks it
// (runtime/planner/machine_profile.h), the store does not parse it.
#pragma once

#include "storage/run_store.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace zerolab {

struct StoredProfile {
    std::int64_t id = 0;
    std::string name;
    std::string source;
    double created_at = 0;
    std::string json;
};

// Throws StoreError naming the store.
std::int64_t addMachineProfile(RunStore& store, const std::string& name, const std::string& source,
                               const std::string& json);
// The latest profile of `name` (any name when empty), or none.
std::optional<StoredProfile> latestMachineProfile(RunStore& store, const std::string& name = "");
// Every profile, newest first.
std::vector<StoredProfile> machineProfiles(RunStore& store);

} // namespace zerolab
