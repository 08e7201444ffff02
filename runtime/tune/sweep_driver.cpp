// The sweep loop: strategy step, trial, record; see sweep_driver.h.
#include "runtime/tune/sweep_driver.h"

#include "runtime/tune/sweep_candidates.h"
#include "runtime/tune/sweep_lock.h"
#include "runtime/tune/sweep_strategy.h"
#include "runtime/tune/sweep_texts.h"
#include "runtime/tune/trial_runner.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

std::string duration(double s) {
    char buf[32];
    const long t = std::lround(std::max(s, 0.0));
    if (t >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    return buf;
}

} // namespace

std::string sweepWorkDir(const std::string& db_path, std::int64_t sweep_id) {
    return (fs::absolute(db_path).parent_path() / "sweeps" / ("sweep-" + std::to_string(sweep_id)))
        .string();
}

std::int64_t createSweep(SweepStore& store, const SweepSpec& spec) {
    return *createSweep(store, spec, nullptr, nullptr);
}

std::optional<std::int64_t> createSweep(SweepStore& store, const SweepSpec& spec,
                                        std::ostream* progress, const std::atomic<bool>* stop) {
    using Clock = std::chrono::steady_clock;
    auto last = Clock::now();
    std::size_t planned = 0, total = 0;
    std::optional<std::vector<TrialRecord>> trials =
        initialTrials(spec, [&](std::size_t done, std::size_t all) {
            planned = done;
            total = all;
            if (stop && stop->load())
                return false;
            if (progress && done < all &&
                std::chrono::duration<double>(Clock::now() - last).count() >= kPlanningReportS) {
                last = Clock::now();
                *progress << "zerolab-sweep: planned " << done << " of " << all << " candidates\n"
                          << std::flush;
            }
            return true;
        });
    if (!trials) {
        if (progress)
            *progress << "zerolab-sweep: stopped by request while planning (" << planned << " of "
                      << total << " candidates planned); nothing was stored\n"
                      << std::flush;
        return std::nullopt;
    }
    SweepRecord r;
    r.name = spec.name;
    r.source = spec.source;
    r.definition = spec.toJson().dump();
    return store.createSweep(r, std::move(*trials));
}

SweepSpec storedSweepSpec(SweepStore& store, std::int64_t sweep_id) {
    const SweepRecord r = store.sweep(sweep_id);
    const auto doc = nlohmann::json::parse(r.definition, nullptr, false);
    if (doc.is_discarded())
        throw SweepError(store.store().path() + ": sweep " + std::to_string(sweep_id) +
                         ": the stored definition is not JSON");
    // The name is shown as stored (views repair it with oneLineText); a stored name that
    // is not a valid sweep name (an older zerolab, a hand edit) is refused by driveSweep.
    nlohmann::json checked = doc;
    if (checked.is_object() && checked.contains("name"))
        checked["name"] = "stored";
    SweepSpec spec = parseSweepJson(checked, r.source);
    spec.name = doc.is_object() && doc.contains("name") && doc["name"].is_string()
                    ? doc["name"].get<std::string>()
                    : spec.name;
    return spec;
}

SweepOutcome driveSweep(std::int64_t sweep_id, const SweepRunOptions& options) {
    // One connection at a time in this process: RunStore::open reads the file's header
    // through a descriptor of its own, and closing any descriptor of a file drops every
    // POSIX lock the process holds on it, another connection's WAL lock included (another
    // connection would then checkpoint and remove the WAL under it: "disk I/O error").
    // So the sweep's store is opened per use, never while a trial's reader is.
    const auto withStore = [&](auto&& f) {
        SweepStore store(RunStore::open(options.db_path));
        return f(store);
    };
    const SweepSpec spec =
        withStore([&](SweepStore& store) { return storedSweepSpec(store, sweep_id); });
    if (const auto problem = sweepNameProblem(spec.name))
        throw SweepError(options.db_path + ": sweep " + std::to_string(sweep_id) +
                         ": its stored name cannot name its trials' runs: " + *problem);
    SweepDriverLock lock(options.db_path, sweep_id, options.progress); // before any trial

    TrialEnvironment env;
    env.on_poll = [&lock] { lock.heartbeat(); };
    env.program = options.program;
    env.db_path = options.db_path;
    env.work_dir = sweepWorkDir(options.db_path, sweep_id);
    env.sweep_id = sweep_id;
    env.stop = options.stop;
    env.on_started = [&](const TrialRecord& t) {
        withStore([&](SweepStore& store) { store.updateTrial(sweep_id, t); });
    };
    const std::vector<TrialRecord> before = withStore([&](SweepStore& store) {
        store.setSweepStatus(sweep_id, SweepStatus::Running, {});
        return store.trials(sweep_id);
    });
    for (const TrialRecord& t : before)
        if (t.status == TrialStatus::Running) {
            const TrialRecord again = abandonTrial(env, t);
            withStore([&](SweepStore& store) { store.updateTrial(sweep_id, again); });
            if (options.progress)
                *options.progress << "trial " << t.idx << " was interrupted: " << again.reason
                                  << '\n';
        }

    double spent_s = 0; // trial time in this process, for the ETA
    int done_here = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
        if (options.stop && options.stop->load()) {
            withStore([&](SweepStore& store) {
                store.setSweepStatus(sweep_id, SweepStatus::Stopped, "stopped by request");
            });
            return SweepOutcome::Stopped;
        }
        SweepStep step;
        bool added = false;
        std::vector<TrialRecord> trials = withStore([&](SweepStore& store) {
            step = nextStep(spec, store.trials(sweep_id));
            for (const TrialRecord& u : step.updates)
                store.updateTrial(sweep_id, u);
            added = !step.additions.empty();
            if (added)
                store.addTrials(sweep_id, std::move(step.additions));
            return store.trials(sweep_id);
        });
        if (added)
            continue;
        if (!step.next)
            break;
        int ran = 0;
        int pending = 0;
        for (const TrialRecord& t : trials) {
            ran += trialRan(t.status);
            pending += t.status == TrialStatus::Pending;
        }
        const TrialRecord& next = trials[static_cast<std::size_t>(*step.next)];
        const std::string point = describePoint(nlohmann::json::parse(next.axes_json));
        if (options.progress)
            *options.progress << "[" << ran + 1 << "/" << ran + pending << "] trial " << next.idx
                              << " (" << next.phase << ") " << point << ": running\n"
                              << std::flush;
        const auto start = std::chrono::steady_clock::now();
        const TrialRecord result = runTrial(spec, env, next);
        withStore([&](SweepStore& store) { store.updateTrial(sweep_id, result); });
        spent_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        ++done_here;
        if (options.progress) {
            const double elapsed =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            const double eta = spent_s / done_here * (pending - 1);
            char tps[64] = "";
            if (std::isfinite(result.tokens_per_s))
                std::snprintf(tps, sizeof tps, " %.0f +- %.0f tokens/s,", result.tokens_per_s,
                              result.spread_tokens_per_s);
            *options.progress << "[" << ran + 1 << "/" << ran + pending << "] trial " << result.idx
                              << " " << point << ": " << trialStatusName(result.status) << ","
                              << tps << (result.reason.empty() ? "" : " " + result.reason + ",")
                              << " elapsed " << duration(elapsed) << ", ETA "
                              << (pending > 1 ? "<= " : "") << duration(eta) << '\n'
                              << std::flush;
        }
    }
    return withStore([&](SweepStore& store) {
        const std::optional<std::string> failure = sweepFailure(store.trials(sweep_id));
        store.setSweepStatus(sweep_id, failure ? SweepStatus::Failed : SweepStatus::Finished,
                             failure.value_or(std::string()));
        return failure ? SweepOutcome::Failed : SweepOutcome::Finished;
    });
}

std::optional<std::string> sweepFailure(const std::vector<TrialRecord>& trials) {
    if (bestTrial(trials))
        return std::nullopt;
    int ran = 0;
    const TrialRecord* first = nullptr;
    for (const TrialRecord& t : trials) {
        ran += trialRan(t.status);
        if (!first && !t.reason.empty() && t.status != TrialStatus::Skipped)
            first = &t;
    }
    const std::string total = std::to_string(trials.size());
    if (!first)
        return renderEnglish(Message(kSweepNothingRan, {total}));
    return renderEnglish(Message(kSweepNoTrialFinished,
                                 {std::to_string(ran), total, std::to_string(first->idx),
                                  std::string(trialStatusName(first->status)), first->reason}));
}

std::optional<BestConfig> writeBestConfig(SweepStore& store, std::int64_t sweep_id,
                                          const std::string& program, const std::string& out_dir) {
    const SweepSpec spec = storedSweepSpec(store, sweep_id);
    const std::vector<TrialRecord> trials = store.trials(sweep_id);
    const std::optional<int> best = bestTrial(trials);
    if (!best)
        return std::nullopt;
    const TrialRecord& t = trials[static_cast<std::size_t>(*best)];
    BestConfig b;
    b.trial = t.idx;
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    b.config_path = bestConfigPath(out_dir, sweep_id);
    // What a launch needs: N, as DeepSpeed infers it from train_batch_size = micro-batch x
    // accumulation x N, so that `zerolab-plan --config` and `zerolab-train` read the trial's N.
    nlohmann::json doc = nlohmann::json::parse(t.config_json);
    const TrainConfig resolved = trialConfig(t, spec.source);
    doc["train_batch_size"] = resolved.batch.train_batch_size;
    doc["train_micro_batch_size_per_gpu"] = resolved.batch.micro_batch;
    doc["gradient_accumulation_steps"] = resolved.batch.grad_accum;
    {
        std::ofstream out(b.config_path);
        out << doc.dump(2) << '\n';
        if (!out)
            throw SweepError(b.config_path + ": cannot write the best config");
    }
    b.command = bestConfigCommand(spec, program, t.world, b.config_path);
    return b;
}

std::string bestConfigPath(const std::string& out_dir, std::int64_t sweep_id) {
    return fs::absolute(fs::path(out_dir) / ("sweep-" + std::to_string(sweep_id) + "-best.json"))
        .string();
}

std::string bestConfigCommand(const SweepSpec& spec, const std::string& program, int world,
                              const std::string& config_path) {
    return commandLine(
        launchArgv(trialLaunchSpec(spec.launcher, program, world, {"--config", config_path})));
}

} // namespace zerolab
