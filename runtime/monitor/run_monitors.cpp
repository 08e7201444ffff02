// Rank 0's monitors: DeepSpeed's tags (deepspeed/runtime/engine.py: train_loss in
// backward before global_samples grows, lr and elapsed_time_ms_* after the step) and
// zerolab's own, written to the event file and the CSV files at each logged step.
#include "runtime/monitor/run_monitors.h"
#include "runtime/monitor/ds_text.h"
#include "runtime/monitor/flops_profile.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace zerolab {

namespace {

std::string folderOf(const MonitorOutput& o) {
    return (std::filesystem::path(o.output_path) / o.job_name).string();
}

double unixNow() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

std::vector<MonitorEvent> monitorEvents(const TrainConfig& config, const StepRecord& rec,
                                        const EngineTimes& t) {
    const std::int64_t tbs = config.batch.train_batch_size;
    const std::int64_t after = rec.step * tbs, before = (rec.step - 1) * tbs;
    std::vector<MonitorEvent> e;
    e.push_back({"Train/Samples/train_loss", rec.loss, before});
    e.push_back({"Train/Samples/lr", rec.lr, after});
    if (config.wall_clock_breakdown || config.monitors.flops_profiler.enabled) {
        e.push_back({"Train/Samples/elapsed_time_ms_forward", t.fwd_ms, after});
        e.push_back({"Train/Samples/elapsed_time_ms_backward", t.bwd_ms(), after});
        e.push_back({"Train/Samples/elapsed_time_ms_backward_inner", t.bwd_inner_ms, after});
        e.push_back(
            {"Train/Samples/elapsed_time_ms_backward_allreduce", t.bwd_allreduce_ms, after});
        e.push_back({"Train/Samples/elapsed_time_ms_step", t.step_ms, after});
    }
    const std::string z = "Zerolab/Samples/";
    auto ours = [&](const std::string& name, double v) {
        if (std::isfinite(v))
            e.push_back({z + name, v, after});
    };
    ours("tokens_per_s", rec.tokens_per_s);
    ours("mfu", rec.mfu);
    ours("grad_norm", rec.grad_norm);
    ours("step_ms", rec.step_ms);
    const double comm_ms[kCollectiveCount] = {rec.comm.allreduce_ms, rec.comm.reduce_scatter_ms,
                                              rec.comm.allgather_ms, rec.comm.broadcast_ms};
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        const std::string kind(kCollectiveNames[c]);
        ours(kind + "_ms", comm_ms[c]);
        ours(kind + "_traffic_bytes", rec.traffic.bytes[c]);
    }
    ours("exposed_comm_ms", rec.comm.exposed_ms);
    ours("busbw_gbps", rec.busbw_gbps);
    for (const RankRecord& r : rec.ranks) {
        const std::string rank = "rank" + std::to_string(r.rank) + "/";
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            ours(rank + "mem_" + std::string(kMemCategoryNames[c]) + "_bytes",
                 static_cast<double>(r.mem.bytes[c]));
        ours(rank + "peak_bytes", static_cast<double>(r.peak));
    }
    return e;
}

std::string wallClockLine(const EngineTimes& t) {
    return "[Rank 0] time (ms) | fwd: " + fixed2(t.fwd_ms) + " | bwd: " + fixed2(t.bwd_ms()) +
           " | bwd_inner: " + fixed2(t.bwd_inner_ms) +
           " | bwd_allreduce: " + fixed2(t.bwd_allreduce_ms) + " | step: " + fixed2(t.step_ms);
}

RunMonitors::RunMonitors(const TrainConfig& config, const std::string& host, std::FILE* text,
                         std::function<void(const std::string&)> warn)
    : m_config(config), m_text(text), m_warn(std::move(warn)) {
    const MonitorsConfig& m = config.monitors;
    if (m.tensorboard.enabled) {
        try {
            m_events.emplace(folderOf(m.tensorboard), host);
            m_eventsOn = true;
        } catch (const EventFileError& e) {
            m_warn(std::string("tensorboard is off: ") + e.what());
        }
    }
    if (m.csv_monitor.enabled) {
        m_csv.emplace(folderOf(m.csv_monitor));
        m_csvOn = true;
    }
    if (m.comms_logger.enabled)
        m_comms = std::make_unique<CommsLogger>(m.comms_logger, config.batch.world);
}

bool RunMonitors::anyEnabled() const {
    return m_eventsOn || m_csvOn || m_comms || m_config.wall_clock_breakdown ||
           m_config.monitors.flops_profiler.enabled;
}

std::vector<std::string> RunMonitors::outputs() const {
    std::vector<std::string> out;
    if (m_eventsOn)
        out.push_back("tensorboard: " + m_events->path());
    if (m_csvOn)
        out.push_back("csv_monitor: " + m_csv->folder() + "/*.csv");
    const FlopsProfilerConfig& f = m_config.monitors.flops_profiler;
    if (f.enabled)
        out.push_back("flops_profiler: step " + std::to_string(f.profile_step + 1) + " to " +
                      (f.output_file.empty() ? std::string("stderr") : f.output_file));
    return out;
}

void RunMonitors::failed(std::string what, bool& enabled) {
    enabled = false;
    m_warn(std::move(what));
}

void RunMonitors::onStep(long long step, const EngineTimes& times) {
    m_last = times;
    if (m_comms)
        for (const CommRecord& r : m_comms->take())
            if (m_config.monitors.comms_logger.verbose)
                std::fprintf(m_text, "%s\n", commLine(r, m_config.batch.world).c_str());
    if (m_config.wall_clock_breakdown && step % m_config.steps_per_print == 0)
        std::fprintf(m_text, "%s\n", wallClockLine(times).c_str());
    const FlopsProfilerConfig& f = m_config.monitors.flops_profiler;
    // DeepSpeed profiles the step() at which global_steps (steps done) == profile_step.
    if (f.enabled && step == static_cast<long long>(f.profile_step) + 1) {
        FlopsProfileInput in;
        in.shape = m_config.model.shape;
        in.seq_len = m_config.model.seq_len;
        in.micro_batch = m_config.batch.micro_batch;
        in.grad_accum = m_config.batch.grad_accum;
        in.world = m_config.batch.world;
        in.step = step;
        in.fwd_ms = times.fwd_ms;
        in.bwd_ms = times.bwd_ms();
        in.step_ms = times.step_ms;
        const std::string text = flopsProfile(in, f);
        if (f.output_file.empty()) {
            std::fputs(text.c_str(), m_text);
        } else {
            std::error_code ec;
            const std::filesystem::path p(f.output_file);
            if (p.has_parent_path())
                std::filesystem::create_directories(p.parent_path(), ec);
            std::ofstream out(f.output_file);
            out << text;
            if (!out.flush())
                m_warn("flops_profiler: cannot write " + f.output_file);
        }
    }
    std::fflush(m_text);
}

void RunMonitors::onLoggedStep(const StepRecord& rec) {
    if (!m_eventsOn && !m_csvOn)
        return;
    const std::vector<MonitorEvent> events = monitorEvents(m_config, rec, m_last);
    const double now = unixNow();
    if (m_eventsOn) {
        try {
            for (const MonitorEvent& e : events)
                m_events->addScalars(e.samples, now, {{e.tag, e.value}});
        } catch (const EventFileError& e) {
            failed(std::string("tensorboard is off from now: ") + e.what(), m_eventsOn);
        }
    }
    if (m_csvOn) {
        try {
            for (const MonitorEvent& e : events)
                m_csv->write(e.samples, {{e.tag, e.value}});
        } catch (const std::runtime_error& e) {
            failed(std::string("csv_monitor is off from now: ") + e.what(), m_csvOn);
        }
    }
}

void RunMonitors::finish() {
    if (!m_comms)
        return;
    std::fputs(m_comms->summary().c_str(), m_text);
    std::fflush(m_text);
}

} // namespace zerolab
