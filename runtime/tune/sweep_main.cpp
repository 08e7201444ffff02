// zerolab-sweep's entry point: run, resume, list and show sweeps (docs/tune.md). Maps
// results to the exit codes of docs/architecture.md: 0 ok, 2 invalid input, 3 stopped, 1 anything
// else (a sweep in which no trial finished included).
#include "runtime/text/stdout_written.h"
#include "runtime/tune/sweep_driver.h"
#include "runtime/tune/sweep_report.h"
#include "storage/default_path.h"
#include "storage/store_error.h"
#include "storage/stored_text.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::atomic<bool> g_stop{false};

void onStop(int) {
    g_stop.store(true);
}

std::string defaultTrainProgram() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("zerolab-train") : (self.parent_path() / "zerolab-train").string();
}

// The sweep's outcome as an exit code, after the table, the verdict and the best config.
int finish(zerolab::SweepStore& store, std::int64_t id, zerolab::SweepOutcome outcome,
           const std::string& program, const std::string& out_dir) {
    const zerolab::SweepSpec spec = zerolab::storedSweepSpec(store, id);
    const auto trials = store.trials(id);
    std::cout << "sweep " << id << " (" << zerolab::oneLineText(spec.name) << ")\n"
              << zerolab::formatSweepTable(spec, trials) << '\n'
              << zerolab::formatVerdict(trials, zerolab::sweepVerdict(trials));
    if (outcome == zerolab::SweepOutcome::Failed) {
        std::cerr << "zerolab-sweep: sweep " << id << " failed: " << store.sweep(id).message
                  << '\n';
        return 1;
    }
    if (outcome == zerolab::SweepOutcome::Stopped) {
        std::cerr << "zerolab-sweep: stopped; continue with: zerolab-sweep resume " << id
                  << " --db " << store.store().path() << '\n';
        return 3;
    }
    const auto best = zerolab::writeBestConfig(
        store, id, program,
        out_dir.empty() ? zerolab::sweepWorkDir(store.store().path(), id) : out_dir);
    if (!best) {
        std::cerr << "zerolab-sweep: sweep " << id << ": no trial finished\n";
        return 1;
    }
    const bool unknown = zerolab::sweepVerdict(trials).winner_unknown;
    std::cout << "best config" << (unknown ? " (the fastest measured; the winner is unknown)" : "")
              << ": " << best->config_path << "\nrun it with: " << best->command << '\n';
    return 0;
}

// main() without the output check.
int runTool(int argc, char** argv) {
    CLI::App app{"zerolab-sweep: find the fastest config that fits (docs/tune.md)"};
    app.require_subcommand(1);
    // --db before or after the subcommand: a subcommand's unknown option falls through to here.
    app.fallthrough();
    std::string db;
    std::string out_dir;
    std::string program = defaultTrainProgram();
    std::string file;
    std::int64_t id = 0;
    bool json = false;
    app.add_option("--db", db,
                   "Run store, before or after the subcommand (default: $ZEROLAB_DB, else "
                   "$XDG_DATA_HOME/zerolab/runs.db)")
        ->option_text("PATH");
    CLI::App* run = app.add_subcommand("run", "Start a sweep from a sweep file");
    run->add_option("file", file, "The sweep JSON file")->required()->option_text("SWEEP.json");
    CLI::App* resume = app.add_subcommand("resume", "Continue an interrupted sweep");
    resume->add_option("id", id, "Sweep id")->required();
    for (CLI::App* c : {run, resume}) {
        c->add_option("--out", out_dir, "Folder for the best config (default: the sweep's folder)")
            ->option_text("DIR");
        c->add_option("--train", program, "zerolab-train to launch (default: beside zerolab-sweep)")
            ->option_text("PATH");
    }
    CLI::App* list = app.add_subcommand("list", "List the sweeps in the store");
    CLI::App* show = app.add_subcommand("show", "A sweep's trials as a table, or JSON");
    show->add_option("id", id, "Sweep id")->required();
    show->add_flag("--json", json, "Print JSON (docs/tune.md)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return 2;
    }

    // From here on Ctrl-C and SIGTERM stop a sweep wherever it is: reading the file,
    // planning, storing, between trials or in one (docs/tune.md).
    if (run->parsed() || resume->parsed()) {
        std::signal(SIGINT, onStop);
        std::signal(SIGTERM, onStop);
    }
    try {
        if (db.empty())
            db = zerolab::defaultStorePath();
        if (run->parsed()) {
            const zerolab::SweepSpec spec = zerolab::parseSweepFile(file); // SweepError: exit 2
            const std::optional<std::int64_t> created = [&] {
                zerolab::SweepStore store(zerolab::RunStore::open(db));
                return zerolab::createSweep(store, spec, &std::cerr, &g_stop);
            }();
            if (!created)
                return 3; // createSweep said so
            std::cerr << "zerolab-sweep: sweep " << *created << " in " << db << '\n';
            const auto outcome = zerolab::driveSweep(*created, {db, program, &std::cerr, &g_stop});
            zerolab::SweepStore store(zerolab::RunStore::open(db));
            return finish(store, *created, outcome, program, out_dir);
        }
        if (resume->parsed()) {
            const bool finished = [&] {
                zerolab::SweepStore store(zerolab::RunStore::open(db));
                return store.sweep(id).status == zerolab::SweepStatus::Finished;
            }();
            auto outcome = zerolab::SweepOutcome::Finished;
            if (finished) {
                std::cerr << "zerolab-sweep: sweep " << id << " has finished; nothing to resume\n";
            } else {
                outcome = zerolab::driveSweep(id, {db, program, &std::cerr, &g_stop});
            }
            zerolab::SweepStore store(zerolab::RunStore::open(db));
            return finish(store, id, outcome, program, out_dir);
        }
        zerolab::SweepStore store(zerolab::RunStore::open(db, zerolab::OpenMode::ReadOnly));
        if (list->parsed()) {
            for (const auto& s : store.listSweeps()) {
                const auto trials = store.trials(s.id);
                const auto v = zerolab::sweepVerdict(trials);
                std::cout << s.id << "  " << zerolab::oneLineText(s.name) << "  "
                          << zerolab::sweepStatusName(s.status) << "  " << trials.size()
                          << " candidates, " << v.pruned << " pruned, " << v.ran << " ran"
                          << (v.best ? ", best trial " + std::to_string(*v.best) : "")
                          << (s.message.empty() ? "" : ": " + zerolab::oneLineText(s.message))
                          << '\n';
            }
            return 0;
        }
        const auto record = store.sweep(id);
        const zerolab::SweepSpec spec = zerolab::storedSweepSpec(store, id);
        const auto trials = store.trials(id);
        if (json) {
            std::cout << zerolab::sweepJson(record, spec, trials).dump(2) << '\n';
        } else {
            std::cout << "sweep " << id << " (" << zerolab::oneLineText(spec.name) << "), "
                      << zerolab::sweepStatusName(record.status)
                      << (record.message.empty() ? "" : ": " + zerolab::oneLineText(record.message))
                      << '\n'
                      << zerolab::formatSweepTable(spec, trials) << '\n'
                      << zerolab::formatVerdict(trials, zerolab::sweepVerdict(trials));
        }
        return 0;
    } catch (const zerolab::SweepError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    } catch (const zerolab::StoreError& e) {
        // A bad, damaged or newer store, no such sweep: invalid input; the disk failing: 1.
        std::cerr << "zerolab-sweep: " << e.what() << '\n';
        return e.isIo() ? 1 : 2;
    } catch (const std::exception& e) {
        std::cerr << "zerolab-sweep: " << e.what() << '\n';
        return 1;
    }
}

} // namespace

int main(int argc, char** argv) {
    return zerolab::exitAfterOutput("zerolab-sweep", runTool(argc, argv));
}
