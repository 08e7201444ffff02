// Machine profiles in the run store (profile_store.h).
#include "storage/profile_store.h"

#include "storage/sqlite_db.h"
#include "storage/store_clock.h"

namespace zerolab {

namespace {

StoredProfile readRow(const SqliteStatement& q) {
    return {q.int64(0), q.text(1), q.text(2), q.real(3), q.text(4)};
}

constexpr const char* kColumns =
    "SELECT id, name, source, created_at, profile FROM machine_profiles ";

} // namespace

std::int64_t addMachineProfile(RunStore& store, const std::string& name, const std::string& source,
                               const std::string& json) {
    SqliteDb& db = store.db();
    auto ins = db.cached(
        "INSERT INTO machine_profiles (name, source, created_at, profile) VALUES (?1, ?2, ?3, ?4)");
    ins->bind(1, name).bind(2, source).bind(3, unixNow()).bind(4, json);
    ins->run();
    return db.queryInt("SELECT last_insert_rowid()");
}

std::optional<StoredProfile> latestMachineProfile(RunStore& store, const std::string& name) {
    auto q =
        store.db().cached(std::string(kColumns) +
                          "WHERE ?1 = '' OR name = ?1 ORDER BY created_at DESC, id DESC LIMIT 1");
    q->bind(1, name);
    if (!q->step())
        return std::nullopt;
    return readRow(*q);
}

std::vector<StoredProfile> machineProfiles(RunStore& store) {
    auto q = store.db().cached(std::string(kColumns) + "ORDER BY created_at DESC, id DESC");
    std::vector<StoredProfile> out;
    while (q->step())
        out.push_back(readRow(*q));
    return out;
}

} // namespace zerolab
