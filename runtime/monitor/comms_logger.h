// DeepSpeed's comms_logger from zerolab's own collectives: a CommTrace (comm_trace.h)
// that keeps each timed collective's size and latency (forwarding to the step
// timeline's recorder while that is armed), DeepSpeed's verbose line per collective,
// and its log_summary table (op, message size, count, total and average latency,
// algbw, busbw) with comms_logging.py's formulas; the same table of a stored run.
#pragma once

#include "runtime/comm/comm_trace.h"
#include "runtime/config/config_monitors.h"
#include "storage/timeline.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

class RunReader;

// One timed collective. msg_bytes is DeepSpeed's message size: the tensor a rank passes,
// i.e. the whole buffer for all_reduce and broadcast, one rank's part for all-gather and
// reduce-scatter (calc_bw_log multiplies those by N).
struct CommRecord {
    Collective op = Collective::AllReduce;
    std::string name; // DeepSpeed's record name ("all_reduce", with debug its caller)
    double msg_bytes = 0;
    double ms = 0;
    // Of ms, the time until the last rank entered the collective (ms less this is the
    // transfer); known only from a stored timeline, which has every rank's span. NaN: unknown.
    double wait_ms = std::numeric_limits<double>::quiet_NaN();
};

// DeepSpeed's op names: all_reduce, reduce_scatter_tensor, all_gather_into_tensor,
// broadcast.
std::string_view deepSpeedOpName(Collective c);

// calc_bw_log: algbw and busbw in Gbps for a message of msg_bytes taking ms on N ranks.
struct Bandwidth {
    double algbw_gbps = 0;
    double busbw_gbps = 0;
};
Bandwidth deepSpeedBandwidth(Collective c, double msg_bytes, double ms, int world);

// "comm op: all_reduce | time (ms): 0.12 | msg size: 54.25 KB | algbw (Gbps): 7.23 |
// busbw (Gbps): 3.61", prefixed "[Rank 0] " as log_dist does.
std::string commLine(const CommRecord& r, int world);

// log_summary's table over the collectives added: per record name (in first-seen order)
// and message size, the count, total and trimmed-mean latency, algbw and busbw
// (DeepSpeed's comms_dict and log_all). The runtime's comms logger and the GUI's summary
// of a stored run both print it.
class CommsSummary {
public:
    explicit CommsSummary(int world) : m_world(world) {}
    void add(const CommRecord& r);
    bool empty() const { return m_order.empty(); }
    std::string text() const;
    // Where the time of the collectives with a known wait_ms went, in the same rows: the
    // mean latency, of it the mean wait for the last rank to arrive (skew: a fast rank
    // waits inside the call for a slow one) and the mean transfer after it, and the busbw
    // of the transfer alone. Empty when no record knows its wait.
    std::string splitText() const;

private:
    struct Row {
        Collective op = Collective::AllReduce;
        int count = 0;
        std::vector<double> ms, algbw, busbw;
        std::vector<double> split_ms, wait_ms; // the records whose wait is known
    };
    int m_world;
    // record name -> message size -> latencies, in first-seen order
    std::vector<std::string> m_order;
    std::map<std::string, std::map<double, Row>> m_rows;
};

// The records the comms logger takes for one stored step timeline's collectives of
// `rank`, in issue order (storage/timeline.h: a Collective span's buffer and its start to
// end), under DeepSpeed's names; for a stored run's summary. Each one's wait_ms is the
// latest start of that collective (equal seq) on any rank less this rank's start.
std::vector<CommRecord> commRecordsOf(const StepTimeline& timeline, int rank);

// log_summary of a stored run: rank 0's collectives in every stored step timeline (the
// sampled steps, run.timeline_every), what its comms logger took of those steps. Throws
// StoreError for a damaged timeline (naming the run, the table and the value).
struct StoredCommsSummary {
    std::size_t sampled_steps = 0;
    std::string table; // CommsSummary::text(); only the header when no step was sampled
    std::string split; // CommsSummary::splitText(): wait and transfer
};
StoredCommsSummary storedCommsSummary(RunReader& reader, std::int64_t run_id);

class CommsLogger final : public CommTrace {
public:
    CommsLogger(CommsLoggerConfig config, int world);

    // The trace collectives also go to (the timeline recorder while armed), or nullptr.
    void setInner(CommTrace* inner);
    CommTrace* inner() const { return m_inner; }

    int issued(Collective c, long long bytes, Clock::time_point at) override;
    void ran(int seq, Clock::time_point start, Clock::time_point end) override;
    void waited(int seq, Clock::time_point begin, Clock::time_point end) override;
    void labelNext(int unit) override;

    // Compute thread, with no collective in flight: the profiled collectives that ran
    // since the last call, in issue order; they are added to the summary.
    std::vector<CommRecord> take();
    // Forgets what ran since the last take() (collectives outside a step).
    void discard();
    // log_all's table of everything take() returned.
    std::string summary() const;

private:
    struct Pending {
        CommRecord record;
        CommTrace* inner = nullptr;
        int inner_seq = -1;
        bool done = false;
    };
    bool profiled(Collective c) const;
    // Collective `seq`'s inner trace and its number there; with `ms`, records it as run.
    std::pair<CommTrace*, int> finish(int seq, const double* ms);

    CommsLoggerConfig m_config;
    int m_world;
    CommTrace* m_inner = nullptr;
    int m_label = -1;
    mutable std::mutex m_mutex; // m_pending: issued on the compute thread, ran on MPI's
    std::vector<Pending> m_pending;
    CommsSummary m_summary; // of everything take() returned
};

} // namespace zerolab
