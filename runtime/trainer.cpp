// One rank's training loop. Rank 0 owns the store writer and stdout; every other
// rank only computes and communicates. Control decisions (stop, pause, checkpoint,
// set lr) are made on rank 0 and broadcast so that all ranks act on the same step.
#include "runtime/trainer.h"

#include "kernels/kernels.h"
#include "runtime/checkpoint.h"
#include "runtime/data_loader.h"
#include "runtime/gpt2.h"
#include "runtime/ledger.h"
#include "runtime/llmc_model_file.h"
#include "runtime/rank_watch.h"
#include "runtime/telemetry.h"
#include "runtime/zero_engine.h"
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
#include <iostream>
#include <memory>
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
    enum Field { Stop, Pause, Checkpoint, SetLr, Signalled, kFields };
    std::array<double, kFields> v{}; // SetLr 0: no change; Signalled: ranks that caught one
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

    void line(const nlohmann::json& j) {
        if (!m_active)
            return;
        std::cout << j.dump() << '\n' << std::flush;
    }
    void event(EventLevel level, int rank, const std::string& message) {
        if (!m_active)
            return;
        std::fprintf(stderr, "zerolab-train: %s\n", message.c_str());
        m_writer->addEvent(level, rank, message);
        line(eventLine(level, rank, message));
    }

private:
    bool m_active;
    std::string m_path;
    std::optional<RunWriter> m_writer;
};

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
    Communicator& comm = *backend.comm;
    Kernels& kernels = *backend.kernels;
    const int rank = comm.rank();
    const int world = comm.size();
    const int micro = config.batch.micro_batch;
    const int accum = config.batch.grad_accum;
    const int G = config.batch.train_batch_size;
    const int T = config.model.seq_len;
    const ModelShape& shape = config.model.shape;

    Reporter rep(rank == 0);
    MemoryLedger ledger;
    auto data = makeDataLoader(std::string(toString(config.data.type)), config.data.path,
                               shape.vocab_size, config.run.seed);
    Gpt2 model(shape, micro, T, kernels, ledger);
    ZeroEngine engine(config, comm, kernels, ledger);

    // Where training starts: fresh, from an llm.c model file, or from a checkpoint.
    long long firstStep = 1;
    long long tokens = 0;
    std::int64_t runId = -1;
    std::optional<CheckpointMeta> resumed;
    if (!options.resume_from.empty()) {
        resumed = loadCheckpoint(options.resume_from, config, engine, comm);
        firstStep = resumed->step + 1;
        tokens = resumed->tokens;
        runId = resumed->run_id;
    } else if (!config.model.init_from.empty()) {
        std::vector<float> flat(engine.layout().padded_total);
        readLlmcModel(config.model.init_from, engine.layout(), flat.data());
        engine.setFullParams(flat.data());
    } else {
        engine.initParams(config.run.seed);
    }

    // MFU's denominator: the ranks' shares of their devices' peaks; unknown if any is.
    double peak = comm.sumDouble(backend.peak_flops.value_or(std::nan("")));
    if (!std::isfinite(peak))
        peak = 0; // MFU unknown
    const double psi = static_cast<double>(paramCount(shape));
    const double flopsPerToken = 6.0 * psi + 6.0 * shape.n_layer * T * shape.n_embd;
    const long long stepTokens = static_cast<long long>(G) * T;

    nlohmann::json resolved = toJson(config);
    if (rep.active()) {
        rep.open(options.db_path.empty() ? defaultStorePath() : options.db_path);
        RunInfo info;
        info.name = options.run_name.empty() ? defaultRunName(config) : options.run_name;
        info.host = comm.host();
        info.command_line = options.command_line;
        info.pid = getpid();
        info.world = world;
        info.stage = config.zero.stage;
        info.precision = std::string(toString(config.precision));
        info.params = paramCount(shape);
        info.config_json = resolved.dump();
        if (runId >= 0)
            rep.writer().attachRun(runId);
        else
            runId = rep.writer().createRun(info);
        Segment seg;
        seg.start_step = firstStep;
        seg.world = world;
        seg.stage = config.zero.stage;
        seg.grad_accum = accum;
        seg.micro_batch = micro;
        seg.reason = resumed ? "resume" : "start";
        rep.writer().beginSegment(seg);
        rep.line(runLine(runId, info, resolved));
        rep.event(EventLevel::Info, -1,
                  "run " + std::to_string(runId) + " '" + info.name +
                      "': " + std::to_string(world) + " ranks, ZeRO stage " +
                      std::to_string(config.zero.stage) + ", " + info.precision + ", psi " +
                      std::to_string(info.params) + ", data " + data->describe() +
                      (resumed ? ", resumed at step " + std::to_string(resumed->step) : ""));
        rep.event(EventLevel::Info, 0,
                  "rank 0 runs on " + backend.description +
                      (peak > 0 ? "" : "; MFU unknown (no peak FLOP/s for this device)"));
    }

    comm.broadcastBytes(&runId, sizeof runId, 0);

    // Rank 0 watches the other ranks' processes so that a dead rank is recorded.
    struct ProcInfo {
        std::int64_t pid;
        char host[64];
    } me{static_cast<std::int64_t>(getpid()), {}};
    std::snprintf(me.host, sizeof me.host, "%s", comm.host().c_str());
    std::vector<ProcInfo> procs(rank == 0 ? world : 0);
    comm.gatherBytes(&me, sizeof me, rank == 0 ? procs.data() : nullptr);
    std::unique_ptr<RankWatch> watch;
    if (rep.active() && world > 1) {
        std::vector<RankProcess> ranks;
        for (int r = 0; r < world; ++r)
            ranks.push_back({r, procs[r].pid, procs[r].host});
        watch = std::make_unique<RankWatch>(rep.storePath(), runId, std::move(ranks), comm.host());
    }

    std::vector<int> inputs(static_cast<std::size_t>(micro) * T);
    std::vector<int> targets(inputs.size());
    const auto runStart = Clock::now();
    std::optional<double> lrOverride;
    long long step = firstStep;
    long long lastCompleted = firstStep - 1;
    TrainOutcome outcome = TrainOutcome::Finished;

    auto ackCommands = [&](ControlMsg& msg) {
        for (const Command& c : rep.writer().pendingCommands()) {
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
            rep.writer().ackCommand(c.id, ack);
            rep.event(EventLevel::Info, 0,
                      "command " + std::string(commandKindName(c.kind)) + ": " + ack);
        }
    };

    auto checkpointNow = [&](long long at) {
        const std::string path = writeCheckpoint(
            config, engine, comm, CheckpointMeta{at, tokens, runId, world, config.zero.stage});
        if (rep.active()) {
            Checkpoint cp;
            cp.step = at;
            cp.path = path;
            cp.world = world;
            cp.stage = config.zero.stage;
            rep.writer().addCheckpoint(cp);
            rep.event(EventLevel::Info, 0,
                      "checkpoint at step " + std::to_string(at) + ": " + path);
        }
    };

    const int lastStep = options.steps ? *options.steps : config.run.steps;
    try {
        bool paused = false;
        long long epoch = 0;
        auto lastCommandPoll = Clock::now() - std::chrono::hours(1); // poll before step 1
        for (; step <= lastStep; ++step) {
            // Control: rank 0 decides, everybody follows. A signal on any rank counts.
            for (;;) {
                ControlMsg msg;
                msg[ControlMsg::Signalled] = g_stopRequested.load() ? 1 : 0;
                if (rep.active()) {
                    msg[ControlMsg::Pause] = paused ? 1 : 0;
                    if (paused || msSince(lastCommandPoll) >= kCommandPollMs) {
                        ackCommands(msg);
                        lastCommandPoll = Clock::now();
                    }
                }
                comm.sumDoubles(msg.v.data(), msg.v.size());
                if (msg[ControlMsg::SetLr] > 0)
                    lrOverride = msg[ControlMsg::SetLr];
                if (msg[ControlMsg::Checkpoint] > 0 && lastCompleted >= 1)
                    checkpointNow(lastCompleted);
                if (msg[ControlMsg::Stop] > 0 || msg[ControlMsg::Signalled] > 0) {
                    outcome = TrainOutcome::Stopped;
                    break;
                }
                paused = msg[ControlMsg::Pause] > 0;
                if (!paused)
                    break;
                if (rep.active())
                    rep.writer().heartbeat();
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
            if (outcome == TrainOutcome::Stopped)
                break;

            const auto t0 = Clock::now();
            comm.takeStats();
            const double lr = lrOverride ? *lrOverride : lrAt(config, static_cast<int>(step - 1));
            // fwd/bwd/optim times are compute only: the time each phase spent blocked on
            // collectives goes to exposed comm, so the four add up to the step.
            CommStats stepComm;
            auto exposedInPhase = [&] {
                const CommStats s = comm.takeStats();
                stepComm += s;
                return s.exposed_ms;
            };
            double fwdMs = 0, bwdMs = 0, lossPart = 0;
            // Device memory in use, sampled at the step's fullest points (after each
            // forward, with the activations live, and at its end): its peak is the step's.
            long long deviceUsed = 0, devicePeak = 0;
            auto sampleDevice = [&] {
                if (const auto dm = kernels.deviceMemory()) {
                    deviceUsed = dm->used;
                    devicePeak = std::max(devicePeak, dm->used);
                }
            };
            engine.beginStep();
            for (int a = 0; a < accum; ++a) {
                const int firstSeq = rank * (G / world) + a * micro;
                data->batch(step - 1, G, firstSeq, micro, T, inputs.data(), targets.data());
                engine.beginMicroStep(a == accum - 1);
                auto tf = Clock::now();
                const float loss = model.forward(inputs.data(), targets.data(), engine);
                sampleDevice();
                fwdMs += msSince(tf) - exposedInPhase();
                auto tb = Clock::now();
                model.backward(inputs.data(), targets.data(), engine,
                               1.0f / static_cast<float>(accum * world));
                engine.endMicroStep();
                kernels.synchronize(); // device work counts in the phase that issued it
                bwdMs += msSince(tb) - exposedInPhase();
                lossPart += static_cast<double>(loss) / (accum * world);
            }
            if (data->epoch() != epoch) {
                epoch = data->epoch();
                if (rep.active())
                    rep.event(EventLevel::Info, -1,
                              "the data wrapped around: epoch " + std::to_string(epoch) +
                                  " starts at step " + std::to_string(step));
            }
            const auto to = Clock::now();
            const EngineStepInfo info = engine.finishStep(lr, static_cast<int>(step));
            kernels.synchronize();
            sampleDevice();
            const double optimMs = msSince(to) - exposedInPhase();
            const double stepMs = msSince(t0);
            tokens += stepTokens;
            lastCompleted = step;

            const bool logNow =
                step % config.run.log_every == 0 || step == lastStep || step == firstStep;
            if (logNow) {
                RankMetrics m;
                m.loss_part = lossPart;
                m.step_ms = stepMs;
                m.fwd_ms = fwdMs;
                m.bwd_ms = bwdMs;
                m.optim_ms = optimMs;
                const CommStats& cs = stepComm;
                for (std::size_t c = 0; c < kCollectiveCount; ++c) {
                    m.comm_ms[c] = cs.per[c].ms;
                    m.comm_bytes[c] = cs.per[c].bytes;
                }
                m.exposed_ms = cs.exposed_ms;
                m.mem = ledger.current().bytes;
                m.rss = MemoryLedger::processRss();
                m.device_used = deviceUsed;
                // Host memory: the process's high-water mark; a device: this step's peak.
                m.peak = kernels.deviceMemory() ? devicePeak : MemoryLedger::processPeakRss();
                std::snprintf(m.host, sizeof m.host, "%s", comm.host().c_str());
                std::vector<RankMetrics> all(rank == 0 ? world : 0);
                comm.gatherBytes(&m, sizeof m, rank == 0 ? all.data() : nullptr);
                if (rep.active()) {
                    StepContext ctx;
                    ctx.step = step;
                    ctx.wall_time_s = msSince(runStart) * 1e-3;
                    ctx.tokens = tokens;
                    ctx.step_tokens = stepTokens;
                    ctx.lr = lr;
                    ctx.grad_norm = info.grad_norm;
                    ctx.world = world;
                    ctx.flops_per_token = flopsPerToken;
                    ctx.peak_flops = peak;
                    StepRecord rec = makeStepRecord(ctx, all);
                    rep.writer().appendStep(rec);
                    rep.line(stepLine(rec));
                    if (step % config.steps_per_print == 0 || step == lastStep)
                        std::fprintf(
                            stderr,
                            "step %lld/%d | loss %.4f | lr %.3g | norm %.3f | %.0f tok/s | "
                            "%.1f ms (comm exposed %.1f ms)\n",
                            step, lastStep, rec.loss, lr, info.grad_norm, rec.tokens_per_s,
                            rec.step_ms, rec.comm.exposed_ms);
                    if (!std::isfinite(rec.loss)) {
                        rep.event(EventLevel::Error, -1,
                                  "loss is not finite at step " + std::to_string(step));
                        outcome = TrainOutcome::Failed;
                    }
                }
                int failed = outcome == TrainOutcome::Failed ? 1 : 0;
                comm.broadcastBytes(&failed, sizeof failed, 0);
                if (failed) {
                    outcome = TrainOutcome::Failed;
                    break;
                }
            }
            if (config.run.checkpoint_every > 0 && step % config.run.checkpoint_every == 0 &&
                step < lastStep)
                checkpointNow(step);
        }

        // A stopped run keeps its state so that it can resume where it stopped.
        if (outcome == TrainOutcome::Stopped && lastCompleted >= firstStep)
            checkpointNow(lastCompleted);
        if (outcome == TrainOutcome::Finished && config.run.checkpoint_every > 0)
            checkpointNow(lastCompleted);
        if (!options.export_model.empty()) {
            std::vector<float> flat(engine.layout().padded_total);
            engine.fullParams(flat.data());
            if (rep.active()) {
                writeLlmcModel(options.export_model, shape, engine.layout(), flat.data());
                rep.event(EventLevel::Info, 0, "exported the model to " + options.export_model);
            }
        }
        // No rank may exit before rank 0 stops watching for dead ranks.
        watch.reset();
        comm.barrier();
    } catch (const std::exception& e) {
        // Rank 0 records why the run failed before the error ends the job.
        if (rep.active()) {
            const std::string msg = "rank 0 on " + comm.host() + ": " + e.what();
            rep.event(EventLevel::Error, 0, msg);
            rep.writer().finish(RunStatus::Failed, msg);
            rep.line(endLine(RunStatus::Failed, lastCompleted, msg));
        }
        throw;
    }

    if (rep.active()) {
        const RunStatus status = outcome == TrainOutcome::Finished  ? RunStatus::Finished
                                 : outcome == TrainOutcome::Stopped ? RunStatus::Stopped
                                                                    : RunStatus::Failed;
        const std::string msg =
            outcome == TrainOutcome::Finished
                ? "finished " + std::to_string(lastCompleted) + " steps"
            : outcome == TrainOutcome::Stopped
                ? "stopped by request after step " + std::to_string(lastCompleted)
                : "failed at step " + std::to_string(step);
        rep.event(outcome == TrainOutcome::Failed ? EventLevel::Error : EventLevel::Info, -1, msg);
        rep.writer().finish(status, msg);
        rep.line(endLine(status, lastCompleted, msg));
    }
    return outcome;
}

} // namespace zerolab
