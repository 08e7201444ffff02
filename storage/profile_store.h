// The machine profiles kept in the run store (table machine_profiles, migrate_v12.sql):
// zerolab-calibrate adds one per calibration; readers take the latest of a name. The
// profile is stored as its JSON text, whole; the planner's reader checks it
// (runtime/planner/machine_profile.h), the store does not parse it. What is read is
// bounded, as text people put in the store is (stored_text.h): a row whose name or source
// is longer than a run name, or whose profile is larger than a profile file may be, is
// refused by its id and length before its text is read.
#pragma once

#include "storage/run_store.h"
#include "storage/stored_text.h"

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

// A stored profile's name and source: at most a run name's bytes (a host name is 64).
inline constexpr std::size_t kMaxProfileNameBytes = kMaxRunNameBytes;
// A stored profile's JSON: at most what a profile file may hold (16 MiB,
// runtime/files/bounded_file.h); a calibrated one is tens of KiB.
inline constexpr std::size_t kMaxStoredProfileBytes = std::size_t{16} << 20;

// Throws StoreError naming the store; the readers also a row past the bounds above
// ("PATH: machine_profiles #3: name of 5000000 bytes, more than the 256 it may hold").
std::int64_t addMachineProfile(RunStore& store, const std::string& name, const std::string& source,
                               const std::string& json);
// The latest profile of `name` (any name when empty), or none.
std::optional<StoredProfile> latestMachineProfile(RunStore& store, const std::string& name = "");
// Every profile, newest first.
std::vector<StoredProfile> machineProfiles(RunStore& store);

} // namespace zerolab
