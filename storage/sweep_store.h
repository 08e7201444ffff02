// SweepStore: a sweep's state in the run store (schema v5: sweeps, sweep_trials): its
// definition, its trials in order with their status, reason, forecast and measurements.
// zerolab-sweep writes it; list, show, resume and the GUI's Tune view read it back from
// any process. JSON fields are stored as text (storage/ depends on SQLite only).
#pragma once

#include "storage/records.h"
#include "storage/run_store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

enum class SweepStatus { Running, Finished, Stopped, Failed };
// pending: to run; running: launched; finished / failed / timeout / oom: ran and ended so;
// pruned: the planner's forecast exceeds the capacity (never launched); invalid: the
// config is refused; skipped: the guided search passed it by.
enum class TrialStatus {
    Pending,
    Running,
    Finished,
    Failed,
    Timeout,
    Oom,
    Pruned,
    Invalid,
    Skipped
};

std::string_view sweepStatusName(SweepStatus s);
std::string_view trialStatusName(TrialStatus s);
std::optional<SweepStatus> sweepStatusFromName(std::string_view name);
std::optional<TrialStatus> trialStatusFromName(std::string_view name);
// Finished, failed, timeout, oom: the trial was launched and is over.
bool trialRan(TrialStatus s);

struct SweepRecord {
    std::int64_t id = 0;
    std::string name;
    std::string source;     // the sweep file's path as given
    std::string definition; // the sweep JSON, its base config inline
    SweepStatus status = SweepStatus::Running;
    double created_at = kUnknown;
    double ended_at = kUnknown;
    std::string message;
};

struct TrialRecord {
    int idx = 0;           // 0-based order of creation within the sweep
    std::string phase;     // "search", "buckets", "repeat"
    int repeat_of = -1;    // the idx a repeat measures again, -1 otherwise
    std::string axes_json; // {"axis": value, ...}
    std::string config_json;
    int world = 1;
    TrialStatus status = TrialStatus::Pending;
    std::string reason;
    std::int64_t forecast_bytes = -1; // the planner's per-rank total, -1 unknown
    std::int64_t capacity_bytes = -1;
    std::int64_t run_id = -1;
    std::int64_t pid = -1; // the launcher's process group while running
    double tokens_per_s = kUnknown;
    double spread_tokens_per_s = kUnknown;
    std::int64_t peak_bytes = -1;
    double exposed_ms = kUnknown;
    double started_at = kUnknown;
    double ended_at = kUnknown;
};

// The zerolab-sweep driving a sweep (v10): its pid and host, and when it last said it
// was alive (unixNow; refreshed while it runs).
struct SweepDriver {
    std::int64_t pid = -1;
    std::string host;
    double heartbeat_at = kUnknown;
};

// What claimDriver found: whether the caller drives the sweep now, and the driver that
// was recorded before (pid -1: none).
struct DriverClaim {
    bool claimed = false;
    SweepDriver holder;
};

// Owns its RunStore. Not thread-safe. Every method throws StoreError (an unknown sweep
// id or trial included).
class SweepStore {
public:
    explicit SweepStore(RunStore store);
    SweepStore(SweepStore&&) noexcept;
    SweepStore& operator=(SweepStore&&) noexcept;
    ~SweepStore();

    RunStore& store();

    // The sweep (status running) and its first trials, in one transaction: a sweep is
    // never stored without them.
    std::int64_t createSweep(const SweepRecord& sweep, std::vector<TrialRecord> trials = {});
    // Newest first.
    std::vector<SweepRecord> listSweeps();
    SweepRecord sweep(std::int64_t sweep_id);
    void setSweepStatus(std::int64_t sweep_id, SweepStatus status, const std::string& message);

    // In one write transaction: records `me` (its heartbeat now) as the sweep's driver when
    // none is recorded, when it is me (same pid and host), or when gone(holder) says the
    // recorded one is no more; else changes nothing and returns the holder.
    DriverClaim claimDriver(std::int64_t sweep_id, const SweepDriver& me,
                            const std::function<bool(const SweepDriver&)>& gone);
    // Sets me's heartbeat to now; false (nothing changed) when me no longer drives it.
    bool refreshDriver(std::int64_t sweep_id, const SweepDriver& me);
    // Clears the driver when it is me.
    void releaseDriver(std::int64_t sweep_id, const SweepDriver& me);
    // The recorded driver; nullopt when none.
    std::optional<SweepDriver> driver(std::int64_t sweep_id);

    // Appends trials (their idx is assigned: one more than the last), every field as given,
    // in one transaction.
    void addTrials(std::int64_t sweep_id, std::vector<TrialRecord> trials);
    std::vector<TrialRecord> trials(std::int64_t sweep_id);
    // Writes every field of trial.idx.
    void updateTrial(std::int64_t sweep_id, const TrialRecord& trial);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace zerolab
