// Machine profiles in the run store (profile_store.h).
#include "storage/profile_store.h"

#include "storage/sqlite_db.h"
#include "storage/store_clock.h"
#include "storage/store_error.h"

namespace zerolab {

namespace {

// Each text with its length in bytes first; a text past its bound (?9 the name's and the
// source's, ?10 the profile's) is read as NULL, its length refused by readRow.
constexpr const char* kColumns =
    "SELECT id, created_at, length(CAST(name AS BLOB)), length(CAST(source AS BLOB)), "
    "length(CAST(profile AS BLOB)), "
    "CASE WHEN length(CAST(name AS BLOB)) <= ?9 THEN name END, "
    "CASE WHEN length(CAST(source AS BLOB)) <= ?9 THEN source END, "
    "CASE WHEN length(CAST(profile AS BLOB)) <= ?10 THEN profile END "
    "FROM machine_profiles ";

void bindBounds(SqliteStatement& q) {
    q.bind(9, static_cast<std::int64_t>(kMaxProfileNameBytes))
        .bind(10, static_cast<std::int64_t>(kMaxStoredProfileBytes));
}

StoredProfile readRow(const SqliteDb& db, const SqliteStatement& q) {
    const std::int64_t id = q.int64(0);
    const auto check = [&](const char* what, int col, std::size_t bound) {
        const std::int64_t bytes = q.int64(col);
        if (bytes > static_cast<std::int64_t>(bound))
            throw StoreError(db.path() + ": machine_profiles #" + std::to_string(id) + ": " + what +
                             " of " + std::to_string(bytes) + " bytes, more than the " +
                             std::to_string(bound) + " it may hold");
    };
    check("name", 2, kMaxProfileNameBytes);
    check("source", 3, kMaxProfileNameBytes);
    check("profile", 4, kMaxStoredProfileBytes);
    return {id, q.text(5), q.text(6), q.real(1), q.text(7)};
}

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
    bindBounds(*q);
    if (!q->step())
        return std::nullopt;
    return readRow(store.db(), *q);
}

std::vector<StoredProfile> machineProfiles(RunStore& store) {
    auto q = store.db().cached(std::string(kColumns) + "ORDER BY created_at DESC, id DESC");
    bindBounds(*q);
    std::vector<StoredProfile> out;
    while (q->step())
        out.push_back(readRow(store.db(), *q));
    return out;
}

} // namespace zerolab
