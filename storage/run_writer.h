// RunWriter: how the runtime's rank 0 records a run. Each appendStep is one
// transaction (step row, every rank row, heartbeat, a completed step block), so a
// crash loses at most the step in flight.
#pragma once

#include "storage/records.h"
#include "storage/run_store.h"
#include "storage/timeline.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace zerolab {

// Owns its RunStore. Not thread-safe; one writer per run at a time.
// Every method throws StoreError.
class RunWriter {
public:
    explicit RunWriter(RunStore store);
    RunWriter(RunWriter&&) noexcept;
    RunWriter& operator=(RunWriter&&) noexcept;
    ~RunWriter();

    // Inserts a run with status running, started now, with info.uuid (a new uuid when
    // empty; storage/run_uuid.h); returns its id.
    std::int64_t createRun(const RunInfo& info);
    // The run with this uuid in this store, if any (a resume binds by it).
    std::optional<std::int64_t> findRun(const std::string& uuid);
    // The uuid of the run created or attached to.
    std::string runUuid();
    // The paths stored for run_id's checkpoints of `step` (a resume from a checkpoint
    // written before uuids checks that its folder is one of them).
    std::vector<std::string> checkpointPaths(std::int64_t run_id, std::int64_t step);
    // Continues an existing run (resume from a checkpoint): status back to running,
    // heartbeat now, ended_at cleared. Call beginSegment next.
    void attachRun(std::int64_t run_id);
    // Writes events and status changes for run_id without taking it over (nothing of its
    // row changes): another rank than 0 recording that rank 0 stalls (peer_watch.h).
    void observeRun(std::int64_t run_id);
    std::int64_t runId() const;

    // Starts a segment at seg.start_step; seg.index is ignored and assigned (0 for the
    // first, then one more than the run's last). Steps, rank rows, checkpoints and step
    // timelines at or after start_step are deleted first: a resumed run rewinds to its
    // checkpoint.
    int beginSegment(const Segment& seg);

    // One transaction: the step, all its rank rows and (at most once a second) the
    // heartbeat. Requires beginSegment first; the step number must be new for the run.
    void appendStep(const StepRecord& step);
    // Several steps, ascending, in one transaction (imports, fixtures): all or none.
    void appendSteps(std::span<const StepRecord> steps);

    // One transaction: a sampled step's timeline, every rank's spans and memory samples.
    // Requires createRun or attachRun first; the step must have no timeline yet.
    void appendTimeline(const StepTimeline& timeline);
    // One transaction for several steps' timelines (rank 0's timeline writer batches
    // them): all are stored, or none.
    void appendTimelines(std::span<const StepTimeline> timelines);

    void addEvent(EventLevel level, int rank, const std::string& message);
    // Stores cp with the current segment and the current time.
    void addCheckpoint(const Checkpoint& cp);
    void heartbeat();
    // A running run whose collective passed run.collective_timeout_s: status stalled, with
    // `message` (the ranks that have not arrived) as its end_message until it ends.
    void markStalled(const std::string& message);
    // The stalled collective completed after all: status running again.
    void markUnstalled();
    // Ends the run: status (not Running), ended now, an optional message.
    void finish(RunStatus status, const std::string& message = {});

    // Commands for this run not yet acknowledged, oldest first.
    std::vector<Command> pendingCommands();
    void ackCommand(std::int64_t command_id, const std::string& message = {});

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace zerolab
