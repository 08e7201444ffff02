// One rank's training loop. Rank 0 owns the store writer and stdout; every other
// rank only computes and communicates. Control decisions (stop, pause, checkpoint,
// set lr) are made on rank 0 and shared before every step so that all ranks act on
// the same step.
#include "runtime/train/trainer.h"

#include "kernels/kernels.h"
#include "runtime/comm/collective_beacon.h"
#include "runtime/data/data_loader.h"
#include "runtime/engine/checkpoint.h"
#include "runtime/engine/zero_engine.h"
#include "runtime/memory/ledger.h"
#include "runtime/model/model_flops.h"
#include "runtime/model/network.h"
#include "runtime/monitor/run_monitors.h"
#include "runtime/planner/planner.h"
#include "runtime/train/comm_watch.h"
#include "runtime/train/model_files.h"
#include "runtime/train/peer_watch.h"
#include "runtime/train/rank_placement.h"
#include "runtime/train/rank_watch.h"
#include "runtime/train/telemetry.h"
#include "runtime/train/timeline_access.h"
#include "runtime/train/timeline_recorder.h"
#include "runtime/train/timeline_writer.h"
#include "storage/default_path.h"
#include "storage/run_writer.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <unistd.h>
#include <vector>

namespace zerolab {

std::atomic<bool> g_stopRequested{false};

namespace {

using Clock = std::chrono::steady_clock;
double msSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void onStopSignal(int) {
    g_stopRequested.store(true);
}

// Before every step, one all-reduce (a sum) carries rank 0's decision and every rank's
// stop signal: the other ranks add zeros to rank 0's fields.
struct ControlMsg {
    enum Field { Stop, Pause, Checkpoint, SetLr, Signalled, StoreFailed, kFields };
    // SetLr 0: no change; Signalled: ranks that caught one; StoreFailed: rank 0's store
    // write failed (Reporter::record)
    std::array<double, kFields> v{};
    double& operator[](Field f) { return v[f]; }
};

// Rank 0 reads the store's command queue at most this often (and at every pause tick).
constexpr double kCommandPollMs = 100;

std::string defaultRunName(const TrainConfig& c) {
    const std::string model = c.model.preset.empty() ? "custom" : c.model.preset;
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
    return model + "-z" + std::to_string(c.zero.stage) + "-n" + std::to_string(c.batch.world) +
           "-" + stamp;
}

// Rank 0's side: the store and the metric lines. Other ranks hold an inactive one.
// Once the run is recorded (openRun), every store write goes through record(): the
// first failure (a full disk, the file deleted, the run's row gone) is kept, said
// loudly on stderr and as an event line, and later writes are skipped; the control
// round then stops every rank gracefully (Trainer::control).
// Thread contract: record(), storeError(), line() and event() may be called from the
// training loop and the timeline writer's thread at once (one store connection, used
// under m_storeMutex; stdout lines under m_lineMutex); open(), writer() and finish() only
// while no other thread uses the Reporter.
class Reporter {
public:
    Reporter(bool active) : m_active(active) {}
    bool active() const { return m_active; }

    void open(const std::string& path) {
        m_path = path;
        m_writer.emplace(RunStore::open(path));
    }
    const std::string& storePath() const { return m_path; }
    RunWriter& writer() { return *m_writer; }

    // Runs `write` on the writer unless the store has already failed; a StoreError
    // becomes the store's failure.
    template <class Write> void record(Write&& write) {
        std::lock_guard lock(m_storeMutex);
        if (!m_active || !m_writer || m_storeError)
            return;
        try {
            write(*m_writer);
        } catch (const StoreError& e) {
            m_storeError = e.what();
            const std::string msg = std::string("the run store failed, nothing more is "
                                                "recorded there: ") +
                                    e.what();
            std::fprintf(stderr, "zerolab-train: ERROR: %s\n", msg.c_str());
            line(eventLine(EventLevel::Error, 0, msg));
        }
    }
    std::optional<std::string> storeError() const {
        std::lock_guard lock(m_storeMutex);
        return m_storeError;
    }
    // The run's end status, tried even after a failure (the disk may have room again).
    void finish(RunStatus status, const std::string& message) {
        if (!m_active || !m_writer)
            return;
        try {
            m_writer->finish(status, message);
        } catch (const StoreError& e) {
            std::fprintf(stderr, "zerolab-train: the run's end could not be stored: %s\n",
                         e.what());
        }
    }

    void line(const nlohmann::json& j) {
        if (!m_active)
            return;
        const std::string text = jsonText(j);
        std::lock_guard lock(m_lineMutex);
        std::cout << text << '\n' << std::flush;
    }
    void event(EventLevel level, int rank, const std::string& message) {
        if (!m_active)
            return;
        std::fprintf(stderr, "zerolab-train: %s\n", message.c_str());
        record([&](RunWriter& w) { w.addEvent(level, rank, message); });
        line(eventLine(level, rank, message));
    }

private:
    bool m_active;
    std::string m_path;
    std::optional<RunWriter> m_writer;
    std::optional<std::string> m_storeError;
    mutable std::mutex m_storeMutex;
    std::mutex m_lineMutex;
};

// The training of one rank, in the order run() takes them: the starting point (fresh,
// an llm.c model, a checkpoint), the run's record (rank 0), the watch over the other
// ranks, then per step the control, the step itself and its metrics, and the end.
class Trainer {
public:
    Trainer(const TrainConfig& config, const TrainOptions& options, const RankBackend& backend);
    TrainOutcome run();

private:
    // One optimizer step's numbers on this rank.
    struct StepResult {
        double lr = 0;
        double loss_part = 0; // this rank's share of the global mean loss
        double fwd_ms = 0, bwd_ms = 0, optim_ms = 0, step_ms = 0;
        // Of the exposed comm time, what each phase spent blocked (DeepSpeed's timers).
        double fwd_exposed_ms = 0, bwd_exposed_ms = 0, optim_exposed_ms = 0;
        CommStats comm;
        EngineStepInfo info;
        long long device_used = 0, device_peak = 0; // sampled; 0 on the CPU
    };

    void loadStartingPoint();
    // Rank 0 creates (or re-attaches to) the run in the store; every rank learns its id.
    void openRun();
    // Rank 0, resuming: the run of this store that the checkpoint belongs to (by its
    // uuid; for checkpoints before uuids, by its recorded folder), or none. Appends what
    // it could not tell to `notices`.
    std::optional<std::int64_t> runOfCheckpoint(std::vector<std::string>& notices);
    void watchRanks();
    // run.collective_timeout_s, run.on_stall, and the abort of this rank's collectives.
    WatchOptions watchOptions();
    // Control before a step (pausing here while paused); false when the run must stop.
    bool control();
    void ackCommands(ControlMsg& msg);
    // Writes a checkpoint of step `at` (collective). A failed write is an error event;
    // under run.on_checkpoint_error = stop it also sets m_failure. False when it failed.
    // A step already checkpointed is not written again (an interval's checkpoint, then a
    // stop or a Checkpoint command at the same step): true at once.
    bool checkpointNow(long long at);
    StepResult trainStep(long long step);
    // Gathers every rank's metrics on rank 0, which stores and prints them; false when
    // the loss is not finite (every rank learns it).
    bool report(long long step, const StepResult& r);
    // After the loop: final checkpoint, model export, the other ranks let go.
    void wrapUp();
    void recordFailure(const std::exception& e);
    void recordEnd();
    // Rank 0: returns once every timeline handed to the writer is stored (or failed).
    void drainTimelines();
    // Rank 0 with comms_logger: the communicator reports to the comms logger, which
    // forwards to whatever trace was set (the timeline recorder while armed).
    void retrace();

    const TrainConfig& m_config;
    const TrainOptions& m_options;
    const RankBackend& m_backend;
    Communicator& m_comm;
    Kernels& m_kernels;
    const int m_rank;
    const int m_world;
    const int m_micro;
    const int m_accum;
    const int m_global; // train_batch_size
    const int m_seqLen;
    const long long m_stepTokens;
    const long long m_lastStep;
    const bool m_onDevice; // the kernels' memory is a device's (not host memory)

    // Before everything that runs collectives, so that it outlives them: every rank's
    // collective beacon, read by rank 0's watch (rank_watch.h), and its attachment to
    // the communicator, undone after the engine's last collective.
    CollectiveBeacon m_beacon;
    struct BeaconAttachment {
        Communicator& comm;
        ~BeaconAttachment() { comm.setBeacon(nullptr); }
    } m_beaconAttachment{m_comm};
    Reporter m_rep;
    MemoryLedger m_ledger;
    // Before the engine: collectives in flight when it is destroyed still report here.
    TimelineRecorder m_timeline;
    // Rank 0: DeepSpeed's monitors (tensorboard, csv_monitor, comms_logger, flops_profiler,
    // wall_clock_breakdown); null elsewhere. Before the engine, as the recorder: its comms
    // logger may be the communicator's trace, which the detach below unsets first.
    std::unique_ptr<RunMonitors> m_monitors;
    struct MonitorTraceDetach {
        Communicator& comm;
        const std::unique_ptr<RunMonitors>& monitors;
        ~MonitorTraceDetach() {
            if (monitors && monitors->commsLogger() && comm.trace() == monitors->commsLogger())
                comm.setTrace(nullptr);
        }
    } m_monitorDetach{m_comm, m_monitors};
    std::unique_ptr<DataLoader> m_data;
    std::unique_ptr<Network> m_model;
    ZeroEngine m_engine;
    TimelineAccess m_access; // what the model calls: the engine, seen by the timeline
    std::unique_ptr<RankWatch> m_watch;
    std::unique_ptr<PeerWatch> m_peerWatch; // rank 1's watch over rank 0
    std::unique_ptr<CommWatch> m_commWatch; // every rank's, over its NCCL collectives
    // Rank 0 with the timeline on: stores the sampled steps' timelines off the training
    // loop. After m_rep, whose record() it calls, so that it is drained and gone first.
    std::unique_ptr<TimelineWriter> m_timelineWriter;

    std::int64_t m_runId = -1;
    std::string m_runUuid; // rank 0 only: it alone writes meta.json
    std::optional<CheckpointMeta> m_resumed;
    long long m_firstStep = 1;
    long long m_step = 1;
    long long m_lastCompleted = 0;
    long long m_checkpointed = -1; // the step of the last checkpoint written, -1: none
    long long m_tokens = 0;
    long long m_epoch = 0;
    double m_peak = 0;          // summed over ranks; 0: MFU unknown
    double m_flopsPerToken = 0; // model FLOPs (MFU's numerator per token)
    // Hardware FLOPs per model FLOP: above 1 with full recompute (model_flops.h).
    double hardwareRatio() const {
        return hardwareFlopsPerToken(m_config.model.shape, m_seqLen, m_config.model.recompute) /
               m_flopsPerToken;
    }
    std::vector<int> m_inputs, m_targets;
    Clock::time_point m_runStart;
    Clock::time_point m_lastCommandPoll;
    std::optional<double> m_lrOverride;
    bool m_paused = false;
    TrainOutcome m_outcome = TrainOutcome::Finished;
    // Why a run that did not crash fails: a checkpoint write under
    // run.on_checkpoint_error = stop, or the store (m_storeFailed). Empty otherwise.
    std::string m_failure;
    bool m_storeFailed = false;
    std::string m_stopBy; // what stopped the run ("the Stop command"), for its end message
};

Trainer::Trainer(const TrainConfig& config, const TrainOptions& options, const RankBackend& backend)
    : m_config(config), m_options(options), m_backend(backend), m_comm(*backend.comm),
      m_kernels(*backend.kernels), m_rank(m_comm.rank()), m_world(m_comm.size()),
      m_micro(config.batch.micro_batch), m_accum(config.batch.grad_accum),
      m_global(config.batch.train_batch_size), m_seqLen(config.model.seq_len),
      m_stepTokens(static_cast<long long>(m_global) * m_seqLen),
      m_lastStep(options.steps ? *options.steps : config.run.steps),
      m_onDevice(m_kernels.deviceMemory().has_value()), m_rep(m_rank == 0),
      m_timeline(m_comm, m_ledger),
      m_data(makeDataLoader(std::string(toString(config.data.type)), config.data.path,
                            config.model.shape.vocab_size, config.run.seed)),
      m_model(makeNetwork(config.model.shape, m_micro, m_seqLen, m_kernels, m_ledger,
                          config.model.recompute)),
      m_engine(config, m_comm, m_kernels, m_ledger), m_access(m_engine, m_timeline),
      m_inputs(static_cast<std::size_t>(m_micro) * m_seqLen), m_targets(m_inputs.size()) {}

void Trainer::loadStartingPoint() {
    if (!m_options.resume_from.empty()) {
        m_resumed = loadCheckpoint(m_options.resume_from, m_config, m_engine, m_comm);
        // Before the store is touched: resuming deletes the run's steps after this one.
        if (m_resumed->step > m_lastStep)
            throw CheckpointError(m_options.resume_from + ": the checkpoint is at step " +
                                  std::to_string(m_resumed->step) +
                                  ", beyond the run's last step " + std::to_string(m_lastStep) +
                                  " (run.steps, or --steps)");
        m_firstStep = m_resumed->step + 1;
        m_tokens = m_resumed->tokens;
    } else if (!m_config.model.init_from.empty()) {
        std::vector<float> flat(m_engine.layout().padded_total);
        readInitialModel(m_config.model, m_engine.layout(), flat.data());
        m_engine.setFullParams(flat.data());
    } else {
        m_engine.initParams(m_config.run.seed);
    }
    m_lastCompleted = m_firstStep - 1;
}

void Trainer::openRun() {
    // MFU's denominator: the ranks' shares of their devices' peaks; unknown if any is.
    m_peak = m_comm.sumDouble(m_backend.peak_flops.value_or(std::nan("")));
    if (!std::isfinite(m_peak))
        m_peak = 0;
    m_flopsPerToken = modelFlopsPerToken(m_config.model.shape, m_seqLen);

    if (m_rep.active()) {
        // run.steps as this run goes, --steps included: the store's "20 of 40" reads it.
        nlohmann::json resolved = toJson(m_config);
        resolved["run"]["steps"] = m_lastStep;
        m_rep.open(m_options.db_path.empty() ? defaultStorePath() : m_options.db_path);
        RunInfo info;
        info.name = m_options.run_name.empty() ? defaultRunName(m_config) : m_options.run_name;
        info.host = m_comm.host();
        info.command_line = m_options.command_line;
        info.pid = getpid();
        info.world = m_world;
        info.stage = m_config.zero.stage;
        info.precision = std::string(toString(m_config.precision));
        info.params = paramCount(m_config.model.shape);
        info.config_json = resolved.dump();
        std::vector<std::string> notices; // said once the run has its segment
        if (m_resumed) {
            if (const auto same = runOfCheckpoint(notices)) {
                m_runId = *same;
                m_rep.writer().attachRun(m_runId);
            } else {
                // A store without the checkpoint's run: the run is created here, under its
                // uuid; a resume never continues another run of this store.
                info.uuid = m_resumed->run_uuid;
                m_runId = m_rep.writer().createRun(info);
                notices.push_back(
                    "the checkpoint " + m_options.resume_from + " is of run " +
                    (m_resumed->run_uuid.empty() ? "number " + std::to_string(m_resumed->run_id)
                                                 : m_resumed->run_uuid) +
                    ", which this store (" + m_rep.storePath() +
                    ") does not hold: created it here as run " + std::to_string(m_runId) +
                    ". Its record here starts at step " + std::to_string(m_firstStep) +
                    "; the checkpoint knows only its state at step " +
                    std::to_string(m_resumed->step) + " (" + std::to_string(m_resumed->tokens) +
                    " tokens trained), not the steps, events or checkpoints before it");
            }
        } else {
            m_runId = m_rep.writer().createRun(info);
        }
        info.uuid = m_rep.writer().runUuid();
        m_runUuid = info.uuid;
        Segment seg;
        seg.start_step = m_firstStep;
        seg.world = m_world;
        seg.stage = m_config.zero.stage;
        seg.grad_accum = m_accum;
        seg.micro_batch = m_micro;
        seg.reason = m_resumed ? "resume" : "start";
        seg.config_json = info.config_json;
        // The segment's own prediction (the one the GUI draws as its outline), from the
        // same function as every other forecast.
        std::string unplanned;
        try {
            const StagePlan predicted = predictRun(m_config);
            // Offload is forecast, not run: the ledger holds every category.
            seg.predicted = predicted.ledger();
            seg.predicted_traffic_bytes = predicted.traffic.total();
        } catch (const PlanError& e) {
            unplanned = e.what();
        }
        m_rep.writer().beginSegment(seg);
        for (const std::string& n : notices)
            m_rep.event(EventLevel::Warn, -1, n);
        for (const std::string& n : m_engine.notes())
            m_rep.event(EventLevel::Info, -1, n);
        if (!unplanned.empty())
            m_rep.event(EventLevel::Warn, -1, "no prediction for this segment: " + unplanned);
        if (const OffloadConfig& off = m_config.zero.offload; off.any())
            m_rep.event(
                EventLevel::Warn, -1,
                "zero_optimization offload (optimizer: " + std::string(toString(off.optimizer)) +
                    ", param: " + std::string(toString(off.param)) + ") is forecast, not run: " +
                    (m_onDevice ? std::string("the CUDA backend does not offload yet (docs/gpu.md)")
                                : std::string("on the CPU backend device and host are the same "
                                              "memory")) +
                    "; every state stays in the rank's memory, the ledger unchanged. "
                    "zerolab-plan --explain shows what offload would move");
        m_rep.line(runLine(m_runId, info, resolved));
        m_rep.event(EventLevel::Info, -1,
                    "run " + std::to_string(m_runId) + " '" + info.name +
                        "': " + std::to_string(m_world) + " ranks, ZeRO stage " +
                        std::to_string(m_config.zero.stage) + ", " + info.precision + ", psi " +
                        std::to_string(info.params) + ", data " + m_data->describe() +
                        (m_resumed ? ", resumed at step " + std::to_string(m_resumed->step) : "") +
                        ", activation recompute " +
                        std::string(recomputeName(m_config.model.recompute)));
        if (m_config.model.recompute == Recompute::Full) {
            char text[256];
            std::snprintf(text, sizeof text,
                          "MFU counts the model's FLOPs, 6 psi + 6 L T C = %.3g per token; full "
                          "recompute runs the blocks' forward again, %.2fx that: hardware FLOP "
                          "utilization = %.2f x MFU",
                          m_flopsPerToken, hardwareRatio(), hardwareRatio());
            m_rep.event(EventLevel::Info, -1, text);
        }
        m_rep.event(EventLevel::Info, 0,
                    "rank 0 runs on " + m_backend.description +
                        (m_peak > 0 ? "" : "; MFU unknown (no peak FLOP/s for this device)"));
    }
    m_comm.broadcastBytes(&m_runId, sizeof m_runId, 0);
}

std::optional<std::int64_t> Trainer::runOfCheckpoint(std::vector<std::string>& notices) {
    if (!m_resumed->run_uuid.empty())
        return m_rep.writer().findRun(m_resumed->run_uuid);
    // Format 1 or 2: no uuid. The run number alone binds nothing (another store's run 1
    // is another run); it counts only where this store recorded this very folder as that
    // run's checkpoint of that step.
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(m_options.resume_from, ec);
    std::optional<std::int64_t> found;
    for (const std::string& p : m_rep.writer().checkpointPaths(m_resumed->run_id, m_resumed->step))
        if (std::error_code e2; !ec && fs::weakly_canonical(p, e2) == folder && !e2)
            found = m_resumed->run_id;
    notices.push_back("the checkpoint " + m_options.resume_from +
                      " was written before run uuids (meta.json format 1 or 2): it names run " +
                      std::to_string(m_resumed->run_id) + " by number only; " +
                      (found ? "this store recorded this folder as that run's checkpoint of step " +
                                   std::to_string(m_resumed->step) + ", so the run continues"
                             : std::string("this store has no record of this folder, so a new "
                                           "run is created")));
    return found;
}

// Rank 0 watches the run's liveness (rank_watch.h): dead ranks, the heartbeat, stalls.
// Its watch maps the beacons of the ranks on its host while they are published; then
// every rank removes its beacon's name and starts counting at the same collective.
void Trainer::watchRanks() {
    struct ProcInfo {
        std::int64_t pid;
        char host[64];
    } me{static_cast<std::int64_t>(getpid()), {}};
    std::snprintf(me.host, sizeof me.host, "%s", m_comm.host().c_str());
    // Rank 1 watches rank 0 (peer_watch.h): it maps rank 0's beacon, where they share a
    // host, before the gather below lets rank 0 go on to remove its name.
    ProcInfo zero = me;
    m_comm.broadcastBytes(&zero, sizeof zero, 0);
    std::optional<BeaconView> zeroBeacon =
        m_rank == 1 && m_comm.host() == zero.host ? BeaconView::open(zero.pid) : std::nullopt;
    std::vector<ProcInfo> procs(m_rank == 0 ? m_world : 0);
    m_comm.gatherBytes(&me, sizeof me, m_rank == 0 ? procs.data() : nullptr);
    int ok = 1;
    if (m_rep.active()) {
        std::vector<RankProcess> ranks;
        for (int r = 0; r < m_world; ++r)
            ranks.push_back({r, procs[r].pid, procs[r].host});
        if (const auto placement = placementMessage(ranks))
            m_rep.event(EventLevel::Info, -1, *placement);
        // On the CPU: rank 0's host's ranks and their threads against its cores.
        if (!m_onDevice)
            if (const auto over = oversubscriptionMessage(
                    ranks, m_comm.host(), m_kernels.threads(),
                    static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))))
                m_rep.event(EventLevel::Warn, 0, *over);
        WatchOptions options = watchOptions();
        try {
            m_watch =
                std::make_unique<RankWatch>(m_rep.storePath(), m_runId, std::move(ranks),
                                            m_comm.host(), m_beacon, options, m_lastCompleted);
        } catch (const StoreError&) {
            ok = 0;
            m_comm.broadcastBytes(&ok, sizeof ok, 0);
            throw;
        }
    }
    m_comm.broadcastBytes(&ok, sizeof ok, 0);
    if (!ok)
        throw StoreError("rank 0 could not open the run store for its watch");
    const std::string db = m_options.db_path.empty() ? defaultStorePath() : m_options.db_path;
    if (m_rank == 1)
        m_peerWatch =
            std::make_unique<PeerWatch>(db, m_runId, m_rank, RankProcess{0, zero.pid, zero.host},
                                        std::move(zeroBeacon), m_beacon, watchOptions());
    m_beacon.unpublish();
    m_comm.setBeacon(&m_beacon);
    // NCCL's failures are asynchronous: every rank polls them and its own wait (comm_watch.h).
    if (m_comm.abortable())
        m_commWatch = std::make_unique<CommWatch>(
            m_comm, m_rank, m_beacon, watchOptions(),
            storeAndExitActions(m_rep.active() ? m_rep.storePath() : db, m_runId, m_rank),
            m_lastCompleted);
}

WatchOptions Trainer::watchOptions() {
    WatchOptions options;
    options.collective_timeout_s = m_config.run.collective_timeout_s;
    options.on_stall = m_config.run.on_stall;
    options.abort_collectives = [this] { m_comm.abortCollectives(); };
    return options;
}

void Trainer::ackCommands(ControlMsg& msg) {
    std::vector<Command> pending;
    m_rep.record([&](RunWriter& w) { pending = w.pendingCommands(); });
    for (const Command& c : pending) {
        std::string ack;
        switch (c.kind) {
        case CommandKind::Pause:
            msg[ControlMsg::Pause] = 1;
            ack = "paused";
            break;
        case CommandKind::Resume:
            msg[ControlMsg::Pause] = 0;
            ack = "resumed";
            break;
        case CommandKind::Checkpoint:
            msg[ControlMsg::Checkpoint] = 1;
            ack = "checkpoint requested";
            break;
        case CommandKind::Stop:
            msg[ControlMsg::Stop] = 1;
            ack = "stop requested";
            break;
        case CommandKind::SetLr:
            if (std::isfinite(c.arg) && c.arg > 0) {
                msg[ControlMsg::SetLr] = c.arg;
                ack = "learning rate set to " + std::to_string(c.arg);
            } else {
                ack = "set_lr ignored: invalid learning rate " + std::to_string(c.arg);
            }
            break;
        }
        m_rep.record([&](RunWriter& w) { w.ackCommand(c.id, ack); });
        m_rep.event(EventLevel::Info, 0,
                    "command " + std::string(commandKindName(c.kind)) + ": " + ack);
    }
}

bool Trainer::checkpointNow(long long at) {
    if (at == m_checkpointed)
        return true;
    TimelineRecorder::Scope span(m_timeline, SpanKind::Checkpoint);
    std::string path;
    try {
        path = writeCheckpoint(
            m_config, m_engine, m_comm,
            CheckpointMeta{at, m_tokens, m_runId, m_world, m_config.zero.stage, m_runUuid});
    } catch (const CheckpointWriteError& e) {
        // Every rank gets here together; the partial folder is gone, earlier ones stay.
        const bool stop = m_config.run.on_checkpoint_error == CheckpointErrorPolicy::Stop;
        const std::string msg =
            "checkpoint at step " + std::to_string(at) + " failed: " + e.what() +
            (stop ? "; stopping the run (run.on_checkpoint_error: stop)"
                  : "; training goes on, the last good checkpoint is kept, and the next "
                    "interval tries again (run.on_checkpoint_error: continue)");
        m_rep.event(EventLevel::Error, 0, msg);
        if (stop)
            m_failure = msg;
        return false;
    }
    m_checkpointed = at;
    if (m_rep.active()) {
        Checkpoint cp;
        cp.step = at;
        cp.path = path;
        cp.world = m_world;
        cp.stage = m_config.zero.stage;
        m_rep.record([&](RunWriter& w) { w.addCheckpoint(cp); });
        m_rep.event(EventLevel::Info, 0, "checkpoint at step " + std::to_string(at) + ": " + path);
    }
    return true;
}

// Rank 0 decides, everybody follows. A signal on any rank counts.
bool Trainer::control() {
    for (;;) {
        m_timeline.restart(); // a sampled step starts at its last control round
        ControlMsg msg;
        msg[ControlMsg::Signalled] = g_stopRequested.load() ? 1 : 0;
        if (m_rep.active()) {
            msg[ControlMsg::Pause] = m_paused ? 1 : 0;
            if (m_paused || msSince(m_lastCommandPoll) >= kCommandPollMs) {
                ackCommands(msg);
                m_lastCommandPoll = Clock::now();
            }
            msg[ControlMsg::StoreFailed] = m_rep.storeError() ? 1 : 0;
        }
        {
            TimelineRecorder::Scope span(m_timeline, SpanKind::Control);
            m_comm.sumDoubles(msg.v.data(), msg.v.size());
        }
        if (msg[ControlMsg::SetLr] > 0)
            m_lrOverride = msg[ControlMsg::SetLr];
        if (msg[ControlMsg::StoreFailed] > 0) {
            m_failure = "the run store failed" +
                        (m_rep.storeError() ? ": " + *m_rep.storeError() : std::string());
            m_storeFailed = true;
            return false;
        }
        if (msg[ControlMsg::Checkpoint] > 0 && m_lastCompleted >= 1)
            checkpointNow(m_lastCompleted);
        if (msg[ControlMsg::Stop] > 0 || msg[ControlMsg::Signalled] > 0)
            m_stopBy =
                msg[ControlMsg::Stop] > 0 ? "the Stop command" : "a signal: Ctrl-C or SIGTERM";
        if (!m_failure.empty() || !m_stopBy.empty())
            return false;
        m_paused = msg[ControlMsg::Pause] > 0;
        if (!m_paused)
            return true;
        m_rep.record([](RunWriter& w) { w.heartbeat(); });
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

Trainer::StepResult Trainer::trainStep(long long step) {
    StepResult r;
    if (m_rank == m_options.stop_rank && step == m_options.stop_step) // a test fixture
        std::raise(SIGSTOP);
    const auto t0 = Clock::now();
    m_comm.takeStats();
    if (m_monitors && m_monitors->commsLogger())
        m_monitors->commsLogger()->discard(); // collectives outside the step
    r.lr = m_lrOverride ? *m_lrOverride : lrAt(m_config, static_cast<int>(step - 1));
    // fwd/bwd/optim times are compute only: the time each phase spent blocked on
    // collectives goes to exposed comm, so the four add up to the step.
    auto exposedInPhase = [&] {
        const CommStats s = m_comm.takeStats();
        r.comm += s;
        return s.exposed_ms;
    };
    // Device memory in use, sampled at the step's fullest points (after each forward,
    // with the activations live, and at its end): its peak is the step's.
    auto sampleDevice = [&] {
        if (const auto dm = m_kernels.deviceMemory()) {
            r.device_used = dm->used;
            r.device_peak = std::max(r.device_peak, dm->used);
        }
    };
    m_engine.beginStep();
    for (int a = 0; a < m_accum; ++a) {
        m_timeline.setMicro(a);
        const int firstSeq = m_rank * (m_global / m_world) + a * m_micro;
        {
            TimelineRecorder::Scope span(m_timeline, SpanKind::Data);
            m_data->batch(step - 1, m_global, firstSeq, m_micro, m_seqLen, m_inputs.data(),
                          m_targets.data());
            if (a == 0 && m_rank == m_options.slow_rank) // a test fixture (train_main.cpp)
                std::this_thread::sleep_for(
                    std::chrono::duration<double, std::milli>(m_options.slow_rank_ms));
        }
        m_engine.beginMicroStep(a == m_accum - 1);
        const auto tf = Clock::now();
        m_access.beginPass(false);
        const float loss = m_model->forward(m_inputs.data(), m_targets.data(), m_access);
        m_access.endPass();
        sampleDevice();
        const double fwd_exposed = exposedInPhase();
        r.fwd_exposed_ms += fwd_exposed;
        r.fwd_ms += msSince(tf) - fwd_exposed;
        const auto tb = Clock::now();
        m_access.beginPass(true);
        m_model->backward(m_inputs.data(), m_targets.data(), m_access,
                          1.0f / static_cast<float>(m_accum * m_world));
        m_engine.endMicroStep();
        m_kernels.synchronize(); // device work counts in the phase that issued it
        m_access.endPass();
        const double bwd_exposed = exposedInPhase();
        r.bwd_exposed_ms += bwd_exposed;
        r.bwd_ms += msSince(tb) - bwd_exposed;
        r.loss_part += static_cast<double>(loss) / (m_accum * m_world);
    }
    m_timeline.setMicro(-1);
    if (m_data->epoch() != m_epoch) {
        m_epoch = m_data->epoch();
        if (m_rep.active())
            m_rep.event(EventLevel::Info, -1,
                        "the data wrapped around: epoch " + std::to_string(m_epoch) +
                            " starts at step " + std::to_string(step));
    }
    const auto to = Clock::now();
    {
        TimelineRecorder::Scope span(m_timeline, SpanKind::Optimizer);
        r.info = m_engine.finishStep(r.lr, static_cast<int>(step));
        m_kernels.synchronize();
    }
    sampleDevice();
    r.optim_exposed_ms = exposedInPhase();
    r.optim_ms = msSince(to) - r.optim_exposed_ms;
    r.step_ms = msSince(t0);
    return r;
}

bool Trainer::report(long long step, const StepResult& r) {
    RankMetrics m;
    m.loss_part = r.loss_part;
    m.step_ms = r.step_ms;
    m.fwd_ms = r.fwd_ms;
    m.bwd_ms = r.bwd_ms;
    m.optim_ms = r.optim_ms;
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        m.comm_ms[c] = r.comm.per[c].ms;
        m.comm_bytes[c] = r.comm.per[c].bytes;
        m.comm_traffic[c] = r.comm.per[c].traffic;
    }
    m.alltoall_ms = r.comm.alltoall.ms;
    m.alltoall_bytes = r.comm.alltoall.bytes;
    m.alltoall_traffic = r.comm.alltoall.traffic;
    m.link = r.comm.link;
    m.exposed_ms = r.comm.exposed_ms;
    m.mem = m_ledger.current().bytes;
    m.rss = MemoryLedger::processRss();
    m.device_used = r.device_used;
    // Host memory: the process's high-water mark; a device: this step's peak.
    m.peak = m_onDevice ? r.device_peak : MemoryLedger::processPeakRss();
    std::snprintf(m.host, sizeof m.host, "%s", m_comm.host().c_str());
    std::vector<RankMetrics> all(m_rank == 0 ? m_world : 0);
    m_comm.gatherBytes(&m, sizeof m, m_rank == 0 ? all.data() : nullptr);
    int failed = 0;
    if (m_rep.active()) {
        StepContext ctx;
        ctx.step = step;
        ctx.wall_time_s = msSince(m_runStart) * 1e-3;
        ctx.tokens = m_tokens;
        ctx.step_tokens = m_stepTokens;
        ctx.lr = r.lr;
        ctx.grad_norm = r.info.grad_norm;
        ctx.world = m_world;
        ctx.flops_per_token = m_flopsPerToken;
        ctx.peak_flops = m_peak;
        const StepRecord rec = makeStepRecord(ctx, all);
        m_rep.record([&](RunWriter& w) { w.appendStep(rec); });
        m_rep.line(stepLine(rec));
        if (m_monitors)
            m_monitors->onLoggedStep(rec);
        if (step % m_config.steps_per_print == 0 || step == m_lastStep)
            std::fprintf(stderr,
                         "step %lld/%lld | loss %.4f | lr %.3g | norm %.3f | %.0f tok/s | "
                         "%.1f ms (comm exposed %.1f ms)\n",
                         step, m_lastStep, rec.loss, r.lr, r.info.grad_norm, rec.tokens_per_s,
                         rec.step_ms, rec.comm.exposed_ms);
        if (!std::isfinite(rec.loss)) {
            m_rep.event(EventLevel::Error, -1,
                        "loss is not finite at step " + std::to_string(step));
            failed = 1;
        }
    }
    m_comm.broadcastBytes(&failed, sizeof failed, 0);
    return failed == 0;
}

void Trainer::wrapUp() {
    // A stopped run keeps its state so that it can resume where it stopped; so does a
    // run whose store failed (it can resume into another store, by its uuid).
    if ((m_outcome == TrainOutcome::Stopped || m_storeFailed) && m_lastCompleted >= m_firstStep)
        checkpointNow(m_lastCompleted);
    if (m_outcome == TrainOutcome::Finished && m_config.run.checkpoint_every > 0)
        checkpointNow(m_lastCompleted);
    if (!m_failure.empty()) // the last checkpoint failed under on_checkpoint_error = stop
        m_outcome = TrainOutcome::Failed;
    if (!m_options.export_model.empty()) {
        std::vector<float> flat(m_engine.layout().padded_total);
        m_engine.fullParams(flat.data());
        if (m_rep.active()) {
            const std::string written =
                exportModel(m_options.export_model, m_config, m_engine.layout(), flat.data());
            m_rep.event(EventLevel::Info, 0, "exported the model to " + written);
        }
    }
    // No rank may exit before rank 0 stops watching for dead ranks.
    m_watch.reset();
    m_peerWatch.reset();
    m_commWatch.reset();
    m_comm.barrier();
}

// Rank 0 records why the run failed before the error ends the job.
void Trainer::recordFailure(const std::exception& e) {
    if (!m_rep.active())
        return;
    try {
        drainTimelines();
    } catch (const std::exception& other) {
        std::fprintf(stderr, "zerolab-train: storing the timeline failed too: %s\n", other.what());
    }
    const std::string msg = "rank 0 on " + m_comm.host() + ": " + e.what();
    m_rep.event(EventLevel::Error, 0, msg);
    m_rep.finish(RunStatus::Failed, msg);
    m_rep.line(endLine(RunStatus::Failed, m_lastCompleted, msg));
}

void Trainer::retrace() {
    CommsLogger* logger = m_monitors ? m_monitors->commsLogger() : nullptr;
    if (logger == nullptr)
        return;
    if (CommTrace* current = m_comm.trace(); current != logger)
        logger->setInner(current);
    m_comm.setTrace(logger);
}

void Trainer::drainTimelines() {
    if (!m_timelineWriter)
        return;
    m_timelineWriter->drain();
    if (const std::string why = m_timelineWriter->niceError(); !why.empty())
        m_rep.event(EventLevel::Warn, 0, why);
    if (const TimelineWriter::Stats s = m_timelineWriter->stats(); s.timelines > 0) {
        char buf[192];
        std::snprintf(buf, sizeof buf,
                      "timeline writer: %zu timelines stored in %zu transactions, %.1f ms of its "
                      "thread's CPU (%.1f us a timeline)",
                      s.timelines, s.batches, s.cpu_ms, 1e3 * s.cpu_ms / double(s.timelines));
        m_rep.event(EventLevel::Info, 0, buf);
    }
    if (const std::size_t waited = m_timelineWriter->waitedPushes())
        m_rep.event(EventLevel::Warn, 0,
                    "the timeline writer fell behind: the training waited " +
                        std::to_string(waited) + " times for room in its queue of " +
                        std::to_string(TimelineWriter::kDefaultDepth) +
                        " timelines (a larger run.timeline_every samples fewer steps)");
}

void Trainer::recordEnd() {
    if (!m_rep.active())
        return;
    // Before the store's state is judged: a timeline's write may still fail.
    drainTimelines();
    // The store failed after the last control round: the steps are trained, but the
    // run's record is not whole, so the run does not count as finished (rank 0 alone
    // exits 1 then, which is mpirun's exit code).
    if (m_rep.storeError() && m_failure.empty()) {
        m_failure = "the run store failed: " + *m_rep.storeError();
        m_outcome = TrainOutcome::Failed;
    }
    const RunStatus status = m_outcome == TrainOutcome::Finished  ? RunStatus::Finished
                             : m_outcome == TrainOutcome::Stopped ? RunStatus::Stopped
                                                                  : RunStatus::Failed;
    const std::string msg =
        m_outcome == TrainOutcome::Finished
            ? "finished " + std::to_string(m_lastCompleted) + " steps"
        : m_outcome == TrainOutcome::Stopped
            ? "stopped by request (" + m_stopBy + ") after step " +
                  std::to_string(m_lastCompleted) + " of " + std::to_string(m_lastStep)
        : !m_failure.empty()
            ? "failed after step " + std::to_string(m_lastCompleted) + ": " + m_failure
            : "failed at step " + std::to_string(m_step);
    if (m_monitors)
        m_monitors->finish();
    m_rep.event(m_outcome == TrainOutcome::Failed ? EventLevel::Error : EventLevel::Info, -1, msg);
    m_rep.finish(status, msg);
    m_rep.line(endLine(status, m_lastCompleted, msg));
}

TrainOutcome Trainer::run() {
    loadStartingPoint();
    openRun();
    watchRanks();
    if (m_config.run.timeline_every > 0) {
        const ClockAlignment& clocks = m_timeline.alignClocks();
        for (int r = 1; r < static_cast<int>(clocks.offset_ns.size()); ++r) // rank 0 only
            m_rep.event(EventLevel::Info, r, clockOffsetMessage(clocks, r));
    }
    if (m_rep.active() && m_config.run.timeline_every > 0)
        m_timelineWriter =
            std::make_unique<TimelineWriter>([this](std::span<const StepTimeline> batch) {
                m_rep.record([&](RunWriter& w) { w.appendTimelines(batch); });
            });
    if (m_rep.active()) {
        m_monitors = std::make_unique<RunMonitors>(
            m_config, m_comm.host(), stderr,
            [this](const std::string& why) { m_rep.event(EventLevel::Warn, 0, why); });
        for (const std::string& out : m_monitors->outputs())
            m_rep.event(EventLevel::Info, 0, "DeepSpeed monitor " + out);
        retrace();
    }
    m_runStart = Clock::now();
    m_lastCommandPoll = m_runStart - std::chrono::hours(1); // poll before the first step
    try {
        for (m_step = m_firstStep; m_step <= m_lastStep; ++m_step) {
            const bool sampled =
                isTimelineStep(m_step, m_firstStep, m_lastStep, m_config.run.log_every,
                               m_config.run.timeline_every);
            if (sampled) {
                m_timeline.arm(m_step);
                retrace();
            }
            if (!control()) {
                m_outcome = m_failure.empty() ? TrainOutcome::Stopped : TrainOutcome::Failed;
                break;
            }
            const StepResult r = trainStep(m_step);
            if (m_monitors)
                m_monitors->onStep(m_step,
                                   EngineTimes{r.fwd_ms + r.fwd_exposed_ms, r.bwd_ms,
                                               r.bwd_exposed_ms, r.optim_ms + r.optim_exposed_ms});
            m_tokens += m_stepTokens;
            m_lastCompleted = m_step;
            const bool logNow = m_step % m_config.run.log_every == 0 || m_step == m_lastStep ||
                                m_step == m_firstStep;
            if (logNow && !report(m_step, r)) {
                m_outcome = TrainOutcome::Failed;
                break;
            }
            if (m_config.run.checkpoint_every > 0 && m_step % m_config.run.checkpoint_every == 0 &&
                m_step < m_lastStep && !checkpointNow(m_step) && !m_failure.empty()) {
                m_outcome = TrainOutcome::Failed;
                break;
            }
            // After its row is stored: an `end` line the watch writes agrees with the store.
            if (m_watch)
                m_watch->stepDone(m_step, r.step_ms);
            if (m_peerWatch)
                m_peerWatch->stepDone(r.step_ms);
            if (m_commWatch)
                m_commWatch->stepDone(m_step, r.step_ms);
            if (sampled) {
                if (auto tl = m_timeline.collect())
                    m_timelineWriter->push(std::move(*tl));
                retrace();
            }
        }
        m_timeline.disarm(); // a step stopped or failed after arm() is not stored
        if (m_monitors && m_comm.trace() == m_monitors->commsLogger())
            m_comm.setTrace(nullptr);
        wrapUp();
    } catch (const std::exception& e) {
        recordFailure(e);
        throw;
    }
    recordEnd();
    return m_outcome;
}

} // namespace

void installStopSignalHandlers() {
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

TrainOutcome runTraining(const TrainConfig& config, const TrainOptions& options,
                         const RankBackend& backend) {
    Trainer trainer(config, options, backend);
    return trainer.run();
}

} // namespace zerolab
