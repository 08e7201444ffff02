// RunReader: how the GUI and zerolab-runs read the store, incrementally and without
// ever surfacing "database is locked"; also the few writes they make (commands,
// notes, tags, delete, lost-run marking).
#pragma once

#include "storage/records.h"
#include "storage/run_store.h"
#include "storage/timeline.h"

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// Owns its RunStore. Not thread-safe: the GUI gives its reader to one worker thread.
// Each method reads one consistent snapshot, so a step is seen with all of its rank
// rows or not at all. Every method throws StoreError (unknown run id included).
class RunReader {
public:
    explicit RunReader(RunStore store);
    RunReader(RunReader&&) noexcept;
    RunReader& operator=(RunReader&&) noexcept;
    ~RunReader();

    // Newest first.
    std::vector<RunSummary> listRuns();
    RunSummary summary(std::int64_t run_id);
    RunRecord run(std::int64_t run_id);
    // An id ("12") or a unique run name; nullopt when nothing matches; StoreError
    // when a name matches several runs.
    std::optional<std::int64_t> resolveRun(const std::string& id_or_name);

    std::vector<Segment> segments(std::int64_t run_id);
    // The last logged step of segment `segment`, if it logged any.
    std::optional<std::int64_t> lastStepOfSegment(std::int64_t run_id, int segment);
    // Steps with step > after_step, ascending, at most `limit` of them (-1: all);
    // their `ranks` are left empty.
    std::vector<StepRecord> steps(std::int64_t run_id, std::int64_t after_step = -1,
                                  std::int64_t limit = -1);
    // The first and last logged step; nullopt when the run logged none.
    std::optional<std::pair<std::int64_t, std::int64_t>> stepSpan(std::int64_t run_id);
    // Steps with first_step <= step <= last_step at a level of detail of about `buckets`
    // spans (StepLod): what a plot of a long run draws, read from step_blocks so that a
    // million steps cost a few thousand rows. buckets >= 1.
    StepLod stepsLod(std::int64_t run_id, std::int64_t first_step, std::int64_t last_step,
                     std::int64_t buckets);
    // The rank rows of one step, by rank.
    std::vector<RankRecord> rankRows(std::int64_t run_id, std::int64_t step);
    // Rank rows with after_step < step <= up_to_step, by step then rank.
    std::vector<RankSample> rankSeries(std::int64_t run_id, std::int64_t after_step = -1,
                                       std::int64_t up_to_step = INT64_MAX);
    // Events with id > after_id, ascending.
    std::vector<Event> events(std::int64_t run_id, std::int64_t after_id = 0);
    std::vector<Checkpoint> checkpoints(std::int64_t run_id);
    std::vector<Command> commands(std::int64_t run_id);

    // The steps whose timeline was recorded (run.timeline_every), ascending.
    std::vector<long long> timelineSteps(std::int64_t run_id);
    // One sampled step's timeline: spans by (rank, start_us), memory samples by
    // (rank, t_us); nullopt when the step has none.
    std::optional<StepTimeline> timeline(std::int64_t run_id, long long step);

    // Changes whenever another connection commits (PRAGMA data_version); cheap to poll.
    std::int64_t dataVersion();

    // Queues a command for the run's rank 0; returns its id.
    std::int64_t postCommand(std::int64_t run_id, CommandKind kind, double arg = kUnknown);
    void setNotes(std::int64_t run_id, const std::string& notes);
    void setTags(std::int64_t run_id, const std::vector<std::string>& tags);
    void addTag(std::int64_t run_id, const std::string& tag);
    // Deletes the run and everything recorded for it. Refuses (StoreError) a run whose
    // status is running: its job would fail at its next write. Call markLostRuns first so
    // that a run whose process is gone can be deleted.
    void deleteRun(std::int64_t run_id);
    // Marks `running` (or `stalled`) runs lost whose heartbeat is older than stale_after_s and
    // whose pid is not alive (checked only for runs on this host). Returns the ids marked.
    std::vector<std::int64_t> markLostRuns(double stale_after_s);
    // How long a running (or stalled) run's heartbeat has been silent, when that is longer
    // than its collective timeout (its config's run.collective_timeout_s; when 0 or absent,
    // kDefaultSilenceS): rank 0, which refreshes it every few seconds while its process
    // runs, is stopped or hung, whether or not its processes still exist. nullopt otherwise.
    std::optional<double> heartbeatSilence(std::int64_t run_id, double now);
    static constexpr double kDefaultSilenceS = 120;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace zerolab
