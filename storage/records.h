// Plain records the run store reads and writes: a run's identity, its segments,
// logged steps with their per-rank rows, events, checkpoints and control commands.
// Times are Unix seconds (double); a NaN double means "unknown" and is stored as NULL.
#pragma once

#include "storage/comm_traffic.h"
#include "storage/mem_category.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// Stalled: still running, but a collective passed run.collective_timeout_s (docs/engine.md).
enum class RunStatus { Running, Finished, Stopped, Failed, Lost, Stalled };
enum class EventLevel { Info, Warn, Error };
enum class CommandKind { Pause, Resume, Checkpoint, SetLr, Stop };

// Lower-case names as stored in the database ("running", "warn", "set_lr", ...).
// Running or stalled: the job is (as far as the store knows) still there.
inline bool runIsLive(RunStatus s) {
    return s == RunStatus::Running || s == RunStatus::Stalled;
}
std::string_view runStatusName(RunStatus s);
std::string_view eventLevelName(EventLevel l);
std::string_view commandKindName(CommandKind k);
std::optional<RunStatus> runStatusFromName(std::string_view name);
std::optional<EventLevel> eventLevelFromName(std::string_view name);
std::optional<CommandKind> commandKindFromName(std::string_view name);

// What the launcher knows when a run starts (RunWriter::createRun).
struct RunInfo {
    std::string name;
    std::string host;
    std::string command_line;
    std::int64_t pid = 0;
    int world = 1;
    int stage = 0;
    std::string precision;   // "fp32" or "bf16"
    std::int64_t params = 0; // psi
    std::string config_json; // the full resolved config
    std::vector<std::string> tags;
    std::string notes;
    std::string uuid; // storage/run_uuid.h; empty: createRun makes a new one
};

// A stored run: its RunInfo plus what the store tracks about it.
struct RunRecord {
    std::int64_t id = 0;
    RunInfo info;
    RunStatus status = RunStatus::Running;
    double created_at = kUnknown;
    double started_at = kUnknown;
    double ended_at = kUnknown; // NaN while running
    double heartbeat_at = kUnknown;
    std::string end_message;
};

// One row of the run list (RunReader::listRuns).
struct RunSummary {
    std::int64_t id = 0;
    std::string name;
    RunStatus status = RunStatus::Running;
    int stage = 0;
    int world = 1;
    // The last segment's micro-batch and accumulation; 0 when the run has no segment.
    int micro_batch = 0;
    int grad_accum = 0;
    std::int64_t steps = -1;         // last logged step, -1 when none
    std::int64_t planned_steps = -1; // the step it runs to (run.steps), -1 when unknown
    double last_loss = kUnknown;
    double median_tokens_per_s = kUnknown;
    double created_at = kUnknown;
    double started_at = kUnknown;
    double ended_at = kUnknown;
    double duration_s = kUnknown; // ended (or last heartbeat while running) - started
    std::vector<std::string> tags;
    std::string notes;
    std::string host;
};

// A contiguous part of a run with one world size / stage / accumulation. A run
// resumed from a checkpoint with other settings continues as a new segment.
struct Segment {
    int index = 0; // assigned by RunWriter::beginSegment
    std::int64_t start_step = 0;
    int world = 1;
    int stage = 0;
    int grad_accum = 1;
    int micro_batch = 1;
    std::string reason;      // "start", "resume", ...
    std::string config_json; // the segment's resolved config ("" when not recorded)
    // The planner's prediction for this segment (predictRun): bytes per ledger category
    // on each rank, and traffic per rank per optimizer step. Empty when not recorded.
    std::optional<MemBreakdown> predicted;
    double predicted_traffic_bytes = kUnknown;
};

// Collective times in milliseconds.
struct CommTimes {
    double allreduce_ms = 0;
    double reduce_scatter_ms = 0;
    double allgather_ms = 0;
    double broadcast_ms = 0;
    double exposed_ms = 0;
};

// What one rank holds and spends at one logged step.
struct RankRecord {
    int rank = 0;
    std::string host;
    MemBreakdown mem; // bytes per ledger category
    std::int64_t rss = 0;
    std::int64_t device_used = 0;
    std::int64_t peak = 0;
    CommTimes comm;
};

// One logged step. RunWriter::appendStep stores it (with all of `ranks`) in one
// transaction; `segment` is set by the writer (its current segment) and filled by readers.
struct StepRecord {
    std::int64_t step = 0;
    int segment = 0;
    double wall_time_s = 0;  // since run start
    std::int64_t tokens = 0; // cumulative
    double loss = kUnknown;
    double lr = kUnknown;
    double grad_norm = kUnknown;
    double tokens_per_s = kUnknown;
    double mfu = kUnknown;
    double step_ms = kUnknown;
    double fwd_ms = kUnknown;
    double bwd_ms = kUnknown;
    double optim_ms = kUnknown;
    CommTimes comm;
    std::int64_t comm_bytes = 0; // buffer sizes (nccl-tests' convention), all kinds
    double busbw_gbps = kUnknown;
    // Bytes this rank sent per kind under ring algorithms (storage/comm_traffic.h):
    // traffic per rank per optimizer step. NaN per kind where not recorded.
    CommTraffic traffic;
    std::vector<RankRecord> ranks; // empty when read by RunReader::steps
};

// A level of detail of a run's steps (RunReader::stepsLod): the range cut into spans of
// `width` step numbers; a span that logged one step gives that step's record, a span
// that logged several gives two: every column's minimum (step: the span's first logged
// step) then every column's maximum (step: its last). So a one-step spike stays in its
// span's maximum and a dip in its minimum, whatever the zoom. width 1: the steps as
// logged. `ranks` of every row are empty.
struct StepLod {
    std::vector<StepRecord> rows;
    std::int64_t width = 1;
    std::int64_t logged = 0; // steps logged in the range
};

// One per-rank row of a series (RunReader::rankSeries).
struct RankSample {
    std::int64_t step = 0;
    RankRecord rank;
};

struct Event {
    std::int64_t id = 0; // assigned by the store, increasing
    double time = kUnknown;
    EventLevel level = EventLevel::Info;
    int rank = -1; // -1: the launcher or all ranks
    std::string message;
};

struct Checkpoint {
    std::int64_t step = 0;
    std::string path;
    int world = 1;
    int stage = 0;
    int segment = 0; // set by the writer (its current segment)
    double time = kUnknown;
};

// A control request the GUI writes and the runtime's rank 0 acknowledges.
struct Command {
    std::int64_t id = 0;
    std::int64_t run_id = 0;
    CommandKind kind = CommandKind::Pause;
    double arg = kUnknown; // the learning rate for SetLr
    double created_at = kUnknown;
    double acked_at = kUnknown; // NaN while pending
    std::string ack_message;
};

} // namespace zerolab
