// What a DeepSpeed config's monitoring sections make rank 0 write during a run: the
// TensorBoard event file and the CSV files (DeepSpeed's tags at its x axis, samples, plus
// zerolab's under "Zerolab/Samples/"), wall_clock_breakdown's timer lines, the comms
// logger's lines and summary, and the flops profile. The trainer's one entry point.
#pragma once

#include "runtime/config/config.h"
#include "runtime/monitor/comms_logger.h"
#include "runtime/monitor/csv_monitor.h"
#include "runtime/monitor/event_file.h"
#include "storage/records.h"

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// Rank 0's times of one optimizer step under DeepSpeed's engine timer names (timer.py):
// fwd = forward, bwd = bwd_inner + bwd_allreduce, step = the optimizer step. zerolab's
// phases are compute only; the time a phase waited on collectives is added back here.
struct EngineTimes {
    double fwd_ms = 0;
    double bwd_inner_ms = 0;     // backward compute
    double bwd_allreduce_ms = 0; // backward blocked on gradient collectives
    double step_ms = 0;          // optimizer step, its waits included
    double bwd_ms() const { return bwd_inner_ms + bwd_allreduce_ms; }
};

// The scalar (tag, value) pairs of one logged step, each with its x (samples):
// DeepSpeed's Train/Samples/train_loss at the samples before the step, Train/Samples/lr
// and (with wall_clock_breakdown or the flops profiler) Train/Samples/elapsed_time_ms_*
// after it; zerolab's Zerolab/Samples/* after it.
struct MonitorEvent {
    std::string tag;
    double value = 0;
    std::int64_t samples = 0;
};
std::vector<MonitorEvent> monitorEvents(const TrainConfig& config, const StepRecord& rec,
                                        const EngineTimes& times);

// DeepSpeed's "[Rank 0] time (ms) | fwd: .. | bwd: .. | bwd_inner: .. | bwd_allreduce: ..
// | step: ..".
std::string wallClockLine(const EngineTimes& t);

class RunMonitors {
public:
    // Rank 0 only. `text` receives the printouts (stderr: stdout carries metric lines);
    // `warn` is told once per monitor that fails to write (it is then turned off).
    RunMonitors(const TrainConfig& config, const std::string& host, std::FILE* text,
                std::function<void(const std::string&)> warn);

    bool anyEnabled() const;
    // The comms logger's trace, when comms_logger is enabled; the trainer sets it on the
    // communicator.
    CommsLogger* commsLogger() { return m_comms.get(); }
    // Files this run writes (for the run's first event).
    std::vector<std::string> outputs() const;

    // Every optimizer step: the comms logger's lines, the timer line every
    // steps_per_print, the flops profile at its step. `times` are kept for the monitors.
    void onStep(long long step, const EngineTimes& times);
    // A logged step: the event file and the CSV files.
    void onLoggedStep(const StepRecord& rec);
    // The run's end: the comms logger's summary table.
    void finish();

private:
    void failed(std::string what, bool& enabled);

    const TrainConfig& m_config;
    std::FILE* m_text;
    std::function<void(const std::string&)> m_warn;
    std::optional<EventFileWriter> m_events;
    std::optional<CsvMonitor> m_csv;
    std::unique_ptr<CommsLogger> m_comms;
    bool m_eventsOn = false, m_csvOn = false;
    EngineTimes m_last;
};

} // namespace zerolab
