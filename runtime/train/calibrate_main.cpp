// zerolab-calibrate: measures this machine's profile for the step-time model
// (docs/planner.md, "Machine profile"): kernel rates in this process, then, through
// mpirun jobs of itself, each collective's latency-bandwidth fit at each rank count
// within the host (shared memory) and, with --emulated-hosts, across emulated hosts (TCP),
// and the compute slowdown of ranks sharing the cores. Writes the versioned JSON profile.
// --progress-json: one JSON line per finished measurement on stdout, its fraction counted
// from the planned measurements. Exit 0 ok, 2 invalid input, 3 stopped (SIGTERM, SIGINT:
// nothing written), 1 a failed measurement.
#include "kernels/cpu/blas_coretype.h"
#include "runtime/comm/comm_mpi.h"
#include "runtime/files/replace_file.h"
#include "runtime/planner/machine_profile.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/step_ops.h"
#include "runtime/text/stdout_written.h"
#include "runtime/train/calibrate_flags.h"
#include "runtime/train/calibrate_kernels.h"
#include "runtime/train/calibrate_leftovers.h"
#include "runtime/train/calibrate_load.h"
#include "runtime/train/calibrate_pieces.h"
#include "storage/profile_store.h"
#include "storage/store_error.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

using namespace zerolab;

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitInvalid = 2;
constexpr int kExitStopped = 3;
// runTool's code where the progress stream found stdout lost and said so: exit 1, unsaid again.
constexpr int kStdoutLostSaid = -1;

using Options = CalibrateOptions;

const auto g_start = std::chrono::steady_clock::now();

void progress(const std::string& line) {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
    std::fprintf(stderr, "zerolab-calibrate [%5.1f s] %s\n", s, line.c_str());
}

// The progress stream could not be written (said on stderr by stdoutWritten): exit 1.
struct StdoutLost {};

// --progress-json (docs/planner.md, "Progress"): the count of measurements done and
// planned; one line on stdout as each finishes.
struct ProgressStream {
    bool on = false;
    long done = 0;
    long total = 0;

    // `count` measurements of `phase` finished; `measures` says what they measured.
    void step(const std::string& phase, const std::string& measures, long count = 1,
              const nlohmann::json& where = nlohmann::json::object()) {
        done += count;
        if (!on)
            return;
        nlohmann::json line = {{"type", "progress"},
                               {"fraction", total > 0 ? std::min(1.0, double(done) / total) : 1.0},
                               {"done", done},
                               {"total", total},
                               {"phase", phase},
                               {"measures", measures}};
        line.update(where);
        std::fputs((line.dump() + "\n").c_str(), stdout);
        if (!stdoutWritten("zerolab-calibrate"))
            throw StdoutLost{}; // whoever follows the stream is gone: measure no more
    }
};
ProgressStream g_progress;

// SIGTERM, SIGINT: the job in flight is stopped too, and nothing is written.
volatile std::sig_atomic_t g_stop = 0;
volatile pid_t g_child = 0;

void onStop(int) {
    g_stop = 1;
    if (g_child > 0)
        kill(g_child, SIGTERM);
}

struct Stopped {};

void stopIfAsked() {
    if (g_stop)
        throw Stopped{};
}

// The --model presets' shapes.
std::vector<ModelShape> modelShapes(const Options& o) {
    std::vector<ModelShape> shapes;
    for (const std::string& m : o.models) {
        const auto s = findModelPreset(m);
        if (!s)
            throw PlanError("--model: unknown preset '" + m + "'");
        shapes.push_back(*s);
    }
    return shapes;
}

// The shape whose forward and backward (at the largest micro-batch) time the ranks'
// sharing of the machine: the first --model.
ModelShape sharingShape(const Options& o) {
    return modelShapes(o).front();
}

// The child: every collective on this job's ranks, and the shared compute rate.
int collectivesChild(int argc, char** argv, const Options& o) {
    MpiSession mpi(&argc, &argv);
    MpiCommunicator comm;
    auto kernels = makeCpuKernels(o.threads);
    nlohmann::json frag = {{"link", o.collectives}, {"ranks", comm.size()}};
    nlohmann::json fits = nlohmann::json::array();
    g_progress = {o.progress_total > 0 && comm.rank() == 0, o.progress_done, o.progress_total};
    const nlohmann::json where = {{"link", o.collectives}, {"ranks", comm.size()}};
    const std::vector<double> grid = collectiveSizes(o.max_bytes, modelShapes(o), comm.size());
    const long sizes = static_cast<long>(grid.size());
    for (std::size_t c = 0; c < kCollectiveCount; ++c) {
        const std::string collective(kCollectiveNames[c]);
        const auto points = measureCollective(
            comm, static_cast<Collective>(c), grid, o.max_call_s, [&](double bytes, double) {
                g_progress.step("collectives",
                                collective + " of " + std::to_string(std::lround(bytes)) + " B", 1,
                                where);
            });
        if (const long skipped = sizes - static_cast<long>(points.size()); skipped > 0)
            g_progress.step("collectives",
                            collective + ": " + std::to_string(skipped) +
                                " larger size(s) not timed (past --max-call-s)",
                            skipped, where);
        const CollectiveFit f = fitLatencyBandwidth(points);
        if (comm.rank() == 0) {
            const std::string name(kCollectiveNames[c]);
            std::string sizes;
            for (const auto& [bytes, seconds] : f.points) {
                char at[96];
                std::snprintf(at, sizeof at, "%s%.0f B %.3g ms (fit %+.0f%%)",
                              sizes.empty() ? "" : ", ", bytes, seconds * 1e3,
                              (f.latency_s + bytes / f.bytes_per_s - seconds) / seconds * 100);
                sizes += at;
            }
            progress(name + " over " + std::to_string(comm.size()) + " ranks (" + o.collectives +
                     "), steady state: " + sizes);
            const bool flagged = f.worst_residual > kFitResidualBound;
            char line[320];
            std::snprintf(line, sizeof line,
                          "%s over %d ranks (%s): t = %.1f us + bytes / %.3g MB/s, worst residual "
                          "%.1f%%",
                          name.c_str(), comm.size(), o.collectives.c_str(), f.latency_s * 1e6,
                          f.bytes_per_s / 1e6, f.worst_residual * 100);
            progress(line + (flagged ? " (flagged: above the bound of " +
                                           std::to_string(std::lround(kFitResidualBound * 100)) +
                                           "%, not one latency-bandwidth line; the model reads "
                                           "the measured sizes)"
                                     : std::string()));
        }
        fits.push_back({{"collective", kCollectiveNames[c]},
                        {"latency_s", f.latency_s},
                        {"bytes_per_s", f.bytes_per_s},
                        {"worst_residual", f.worst_residual},
                        {"points", f.points}});
    }
    frag["fits"] = fits;
    // The cores' sharing is a property of one host: across emulated hosts it is not timed.
    if (o.collectives == "intra_host") {
        const SharingTimes sharing =
            sharingSeconds(*kernels, sharingShape(o), o.micros.back(), o.rounds, comm);
        frag["alone_pass_s"] = sharing.alone_s;
        frag["slowest_pass_s"] = sharing.slowest_s;
        frag["mean_pass_s"] = sharing.mean_s;
    }
    {
        // An all-reduce beside compute, on this job's link: the largest size measured that took at
        // most 2 ms alone (a bucket's), against that time.
        const auto& ar = fits.at(static_cast<std::size_t>(Collective::AllReduce))["points"];
        std::pair<double, double> at = ar.at(0).get<std::pair<double, double>>();
        for (const auto& x : ar) {
            const auto pt = x.get<std::pair<double, double>>();
            if (pt.second <= 2e-3)
                at = pt;
        }
        frag["beside_bytes"] = at.first;
        double compute_beside = 1;
        frag["comm_beside_compute"] =
            commRateBesideCompute(*kernels, sharingShape(o), o.micros.back(), at.first, at.second,
                                  o.rounds, comm, &compute_beside);
        frag["compute_beside_comm"] = compute_beside;
    }
    g_progress.step("sharing",
                    o.collectives == "intra_host"
                        ? "compute alone and with " + std::to_string(comm.size()) +
                              " ranks at once, an all-reduce beside compute"
                        : "an all-reduce beside compute (the cores' sharing: not timed across "
                          "hosts)",
                    1, where);
    if (comm.rank() == 0)
        std::ofstream(o.fragment) << frag.dump(2) << "\n";
    return kExitOk;
}

// "pieces: micro-batch 4, T 128, 4 blocks of C 256: block forward 9.8 ms (kernels alone
// 9.1 ms, +8%), ..." for one shape's in-situ times against the sum of its kernels' rates.
std::string piecesLine(const ModelPieceTimes& t, const ModelShape& s, const MachineProfile& p) {
    std::string line = "pieces in situ: micro-batch " + std::to_string(t.micro_batch) + ", T " +
                       std::to_string(t.seq_len) + ", " + std::to_string(s.n_layer) +
                       " blocks of C " + std::to_string(s.n_embd) + ":";
    for (std::size_t c = 1; c < kModelComputeCount; ++c) {
        const double kernels =
            opsSeconds(modelComputeOps(static_cast<ModelCompute>(c), s, t.micro_batch, t.seq_len,
                                       Recompute::Full),
                       p);
        char part[160];
        std::snprintf(part, sizeof part, "%s %s %.3g ms (kernels alone %.3g ms, %+.0f%%)",
                      c == 1 ? "" : ",", std::string(kModelComputeNames[c]).c_str(),
                      t.seconds[c] * 1e3, kernels * 1e3,
                      kernels > 0 ? (t.seconds[c] / kernels - 1) * 100 : 0.0);
        line += part;
    }
    return line;
}

// Runs argv to its end; its exit code (-1: killed).
int runChild(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid == 0) {
        endWithParent(parent); // a SIGKILLed calibration leaves no job running
        execvp(argv[0], argv.data());
        std::perror(argv[0]);
        _exit(127);
    }
    g_child = pid;
    if (g_stop) // asked before the child was known
        kill(pid, SIGTERM);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_child = 0;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string self() {
    return std::filesystem::read_symlink("/proc/self/exe").string();
}

std::string isoNow() {
    char buf[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return buf;
}

// --check: the profile's reference pass timed again on this machine now, against the time
// it was calibrated with. One JSON object on stdout, a line in words on stderr.
int check(const Options& o) {
    const MachineProfile p = loadMachineProfile(o.check);
    if (!p.reference_pass)
        throw PlanError(o.check + ": $.reference_pass: missing (calibrated before the reference "
                                  "pass was kept: calibrate again)");
    const auto shape = findModelPreset(p.reference_pass->model);
    if (!shape)
        throw PlanError(o.check + ": $.reference_pass.model: unknown preset '" +
                        p.reference_pass->model + "'");
    auto kernels = makeCpuKernels(p.threads_per_rank);
    ReferencePassTimer reference(*kernels, *shape, p.reference_pass->micro_batch);
    reference.time(); // its warm-up
    std::vector<double> t;
    const CpuSample before = sampleCpu();
    for (int i = 0; i < o.rounds; ++i) {
        t.push_back(reference.best(kReferenceCallsPerRound));
        stopIfAsked();
    }
    // A slowdown measured under load is the load's, not the machine's: said beside it.
    const LoadVerdict load = judgeLoad(before, sampleCpu(), t);
    const double now = median(t), then = p.reference_pass->seconds;
    const nlohmann::json line = {{"type", "check"},
                                 {"profile", o.check},
                                 {"model", p.reference_pass->model},
                                 {"micro_batch", p.reference_pass->micro_batch},
                                 {"calibrated_s", then},
                                 {"now_s", now},
                                 {"slowdown", now / then},
                                 {"load",
                                  {{"other_cores", load.other_cores},
                                   {"round_spread", load.round_spread},
                                   {"loaded", load.loaded}}}};
    std::fputs((line.dump() + "\n").c_str(), stdout);
    char words[256];
    std::snprintf(words, sizeof words,
                  "reference pass (%s, micro-batch %d): %.2f ms now, %.2f ms when calibrated "
                  "(%s): the machine runs %.2fx %s",
                  p.reference_pass->model.c_str(), p.reference_pass->micro_batch, now * 1e3,
                  then * 1e3, p.date.c_str(), now >= then ? now / then : then / now,
                  now >= then ? "slower" : "faster");
    progress(words);
    progress(load.text);
    return kExitOk;
}

// `--out PATH: why` on stderr for a profile that cannot be written; kExitFailed.
int cannotWrite(const Options& o, const std::string& why) {
    std::cerr << "zerolab-calibrate: --out " << o.out << ": " << why
              << "; no profile written or stored\n";
    return kExitFailed;
}

int driver(const Options& o) {
    sweepCalibrateLeftovers(progress); // a killed calibration's jobs and folder
    // Checked before anything is measured: where the profile goes, and the store it is kept
    // in (a store of a newer schema is refused here, exit 2).
    if (const std::string problem = fileWriteProblem(o.out); !problem.empty())
        return cannotWrite(o, problem);
    std::optional<RunStore> store;
    if (!o.db.empty())
        store.emplace(RunStore::open(o.db));
    MachineProfile p;
    p.source = "calibrated";
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    p.name = host;
    p.date = isoNow();
    p.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    p.threads_per_rank = o.threads;
    const std::vector<ModelShape> shapes = modelShapes(o);
    struct Job {
        std::string link;
        int ranks;
    };
    std::vector<Job> jobs;
    if (o.kernels_from.empty())
        for (int n : o.ranks)
            jobs.push_back({"intra_host", n});
    if (!o.emulated_hosts.empty())
        for (int n : o.ranks)
            jobs.push_back({"inter_host", n});
    // The planned measurements: each kernel, each round of the pieces (the warm-up one
    // too); per job each collective at each size and the ranks' passes alone and at once;
    // the profile written.
    const long kernelSteps =
        o.kernels_from.empty()
            ? static_cast<long>(kernelMeasurementCount(shapes, o.micros)) + o.rounds + 1
            : 0;
    // A job's: each collective at each of its sizes (collectiveSizes), and the ranks' passes.
    const auto stepsOf = [&](const Job& j) {
        return static_cast<long>(kCollectiveCount *
                                 collectiveSizes(o.max_bytes, shapes, j.ranks).size()) +
               1;
    };
    long jobSteps = 0;
    for (const Job& j : jobs)
        jobSteps += stepsOf(j);
    g_progress = {o.progress_json, 0, kernelSteps + jobSteps + 1};
    g_progress.step("plan",
                    std::to_string(g_progress.total) + " measurements: " +
                        std::to_string(kernelSteps) + " of kernels, " + std::to_string(jobSteps) +
                        " in " + std::to_string(jobs.size()) + " collective job(s)",
                    0);
    // The load over the whole calibration (calibrate_load.h): the machine's CPU time from
    // here to the end, and the reference pass of each round.
    const CpuSample started = sampleCpu();
    std::vector<double> referenceTimes;
    if (!o.kernels_from.empty()) {
        const MachineProfile base = loadMachineProfile(o.kernels_from);
        p.rates = base.rates;
        p.matmuls = base.matmuls;
        p.pieces = base.pieces;
        p.reference_pass = base.reference_pass;
        p.compute_slowdown = base.compute_slowdown;
        for (const MachineProfile::CommBesideCompute& c : base.comm_beside_compute)
            if (c.link == LinkClass::IntraHost)
                p.comm_beside_compute.push_back(c);
        for (const MachineProfile::ComputeBesideComm& c : base.compute_beside_comm)
            if (c.link == LinkClass::IntraHost)
                p.compute_beside_comm.push_back(c);
        p.oversubscription_factor = base.oversubscription_factor;
        p.threads_per_rank = base.threads_per_rank;
        for (const CollectiveFit& f : base.fits)
            if (f.link == LinkClass::IntraHost)
                p.fits.push_back(f);
        progress("kernel rates, intra-host fits and slowdowns from " + o.kernels_from);
    } else {
        progress("kernels on " + std::to_string(o.threads) + " thread(s), " +
                 std::to_string(p.cores) + " cores");
        auto kernels = makeCpuKernels(o.threads);
        measureKernelRates(*kernels, shapes, o.micros, o.reps, p, [](const std::string& line) {
            progress(line);
            const std::string prefix = "kernels: "; // the phase says so already
            g_progress.step("kernels",
                            line.rfind(prefix, 0) == 0 ? line.substr(prefix.size()) : line);
            stopIfAsked();
        });
        std::vector<PieceSet> sets;
        for (const ModelShape& s : shapes)
            for (int B : o.micros)
                sets.push_back({s, B});
        // The reference pass, once a round beside the pieces: the first --model at the
        // first --micro.
        ReferencePassTimer reference(*kernels, shapes.front(), o.micros.front());
        reference.time(); // its warm-up
        p.pieces = measureModelPieces(*kernels, sets, o.rounds, [&](int round) {
            if (round > 0)
                referenceTimes.push_back(reference.best(kReferenceCallsPerRound));
            g_progress.step("pieces", round == 0
                                          ? "the model in situ, a warm-up round of " +
                                                std::to_string(sets.size()) +
                                                " shape(s) and micro-batch(es)"
                                          : "the model in situ, round " + std::to_string(round) +
                                                " of " + std::to_string(o.rounds));
            stopIfAsked();
        });
        for (std::size_t i = 0; i < sets.size(); ++i)
            progress(piecesLine(p.pieces[i], sets[i].shape, p));
        p.reference_pass =
            ReferencePass{o.models.front(), o.micros.front(), median(referenceTimes)};
        char line[200];
        std::snprintf(line, sizeof line,
                      "reference pass (%s, micro-batch %d): %.2f ms, the median of %zu rounds, "
                      "each the fastest of %d passes (ms):",
                      o.models.front().c_str(), o.micros.front(), p.reference_pass->seconds * 1e3,
                      referenceTimes.size(), kReferenceCallsPerRound);
        std::string rounds = line;
        for (double t : referenceTimes) {
            std::snprintf(line, sizeof line, " %.2f", t * 1e3);
            rounds += line;
        }
        progress(rounds);
    }

    const std::string dir = calibrateWorkDir(getpid());
    std::filesystem::create_directories(dir);
    for (const Job& j : jobs) {
        const std::string frag = dir + "/" + j.link + "-" + std::to_string(j.ranks) + ".json";
        std::vector<std::string> args;
        if (j.link == "intra_host")
            args = {ZEROLAB_MPIEXEC,
                    "-np",
                    std::to_string(j.ranks),
                    "--oversubscribe",
                    "--bind-to",
                    "none",
                    "--mca",
                    "mpi_yield_when_idle",
                    "1"};
        else
            args = {"env",
                    "ZEROLAB_MPIEXEC=" ZEROLAB_MPIEXEC,
                    ZEROLAB_SOURCE_DIR "/scripts/emulated-hosts",
                    "mpirun",
                    "--name",
                    o.emulated_hosts,
                    "-np",
                    std::to_string(j.ranks)};
        args.insert(args.end(), {self(), "--collectives", j.link, "--fragment", frag, "--model"});
        args.insert(args.end(), o.models.begin(), o.models.end()); // the first times sharing
        args.insert(args.end(),
                    {"--micro", std::to_string(o.micros.back()), "--threads",
                     std::to_string(o.threads), "--max-bytes", std::to_string(o.max_bytes),
                     "--max-call-s", std::to_string(o.max_call_s), "--rounds",
                     std::to_string(o.rounds)});
        if (o.progress_json)
            args.insert(args.end(), {"--progress-done", std::to_string(g_progress.done),
                                     "--progress-total", std::to_string(g_progress.total)});
        progress("collectives over " + std::to_string(j.ranks) + " ranks, " + j.link);
        const int rc = runChild(args);
        std::ifstream in(frag);
        if (g_stop) {
            std::filesystem::remove_all(dir);
            throw Stopped{};
        }
        if (rc != 0 || !in) {
            std::filesystem::remove_all(dir);
            std::cerr << "zerolab-calibrate: the " << j.ranks << "-rank job (" << j.link
                      << ") failed, exit " << rc << "\n";
            return kExitFailed;
        }
        const nlohmann::json f = nlohmann::json::parse(in);
        for (const auto& x : f["fits"])
            p.fits.push_back({*collectiveFromName(x["collective"].get<std::string>()),
                              j.link == "intra_host" ? LinkClass::IntraHost : LinkClass::InterHost,
                              j.ranks, x["latency_s"].get<double>(), x["bytes_per_s"].get<double>(),
                              x["worst_residual"].get<double>(),
                              x["points"].get<std::vector<std::pair<double, double>>>()});
        g_progress.done += stepsOf(j); // the child's lines counted them
        {
            const double beside = f["comm_beside_compute"].get<double>();
            p.comm_beside_compute.push_back(
                {j.link == "intra_host" ? LinkClass::IntraHost : LinkClass::InterHost, j.ranks,
                 beside});
            char line[200];
            std::snprintf(line, sizeof line,
                          "an all-reduce of %.0f B beside compute over %d ranks (%s): %.0f%% of "
                          "its rate alone",
                          f["beside_bytes"].get<double>(), j.ranks, j.link.c_str(), beside * 100);
            progress(line);
            const double compute = f["compute_beside_comm"].get<double>();
            p.compute_beside_comm.push_back(
                {j.link == "intra_host" ? LinkClass::IntraHost : LinkClass::InterHost, j.ranks,
                 compute});
            std::snprintf(line, sizeof line,
                          "compute beside all-reduces in flight over %d ranks (%s): %.0f%% of "
                          "its rate with every rank computing",
                          j.ranks, j.link.c_str(), compute * 100);
            progress(line);
        }
        if (j.link == "intra_host") {
            // A step waits for its slowest rank, and while ranks are no more than the cores
            // a waiting rank's core idles: the slowest rank's pass. Past the cores, a
            // waiting rank yields its core to a rank that computes (mpi_yield_when_idle),
            // and over a step the machine's throughput is shared: the ranks' mean pass.
            const double alone = f["alone_pass_s"].get<double>();
            const double slowest = f["slowest_pass_s"].get<double>() / alone;
            const double mean = f["mean_pass_s"].get<double>() / alone;
            const bool past = static_cast<double>(j.ranks) * o.threads > p.cores;
            const double slowdown = past ? mean : slowest;
            p.compute_slowdown.push_back({j.ranks, slowdown});
            char line[200];
            std::snprintf(line, sizeof line,
                          "compute with %d ranks at once: %.2fx slower each (the slowest rank "
                          "%.2fx, the mean %.2fx; kept: the %s)",
                          j.ranks, slowdown, slowest, mean,
                          past ? "mean, more ranks than cores" : "slowest, ranks within the cores");
            progress(line);
            const double demand = static_cast<double>(j.ranks) * o.threads;
            if (demand > p.cores)
                p.oversubscription_factor = std::max(1.0, slowdown / (demand / p.cores));
        }
    }
    std::filesystem::remove_all(dir);
    p.hosts_share_cores = !o.emulated_hosts.empty();
    stopIfAsked();
    // Judged over everything measured here (kernels, pieces and the mpirun jobs).
    const LoadVerdict load = judgeLoad(started, sampleCpu(), referenceTimes);
    progress(load.text);
    if (load.loaded && !o.allow_load) {
        std::cerr << "zerolab-calibrate: " << load.text
                  << "; a profile measured under load makes every forecast after it long, so "
                     "none was written or stored. Calibrate again on a quiet machine (stop "
                     "other jobs), or pass --allow-load to keep it anyway\n";
        return kExitFailed;
    }
    if (load.loaded)
        progress("kept although the machine was loaded (--allow-load)");
    // Checked as any reader would check it.
    machineProfileFromJson(toJson(p), o.out);
    if (const std::string problem = replaceFile(o.out, toJson(p).dump(2) + "\n"); !problem.empty())
        return cannotWrite(o, problem);
    progress("profile written to " + o.out);
    if (store) {
        const std::int64_t id = addMachineProfile(*store, p.name, p.source, toJson(p).dump(2));
        progress("kept in " + o.db + " as machine profile " + std::to_string(id));
    }
    g_progress.step("profile", "written to " + o.out + (o.db.empty() ? "" : " and " + o.db));
    return kExitOk;
}

// main() without the output check.
int runTool(int argc, char** argv) {
    CLI::App app{"zerolab-calibrate: this machine's profile for the step-time model"};
    Options o;
    app.add_option("--out", o.out, "the profile to write (JSON)");
    app.add_option("--model", o.models, "presets whose matmul shapes are measured (micro mini)");
    app.add_option("--micro", o.micros,
                   "micro-batches whose M the matmuls are measured at (each at least 1, its "
                   "activations within half this machine's memory)");
    app.add_option("--ranks", o.ranks,
                   "rank counts the collectives are fitted at (2 4; each 2-64)");
    app.add_option("--emulated-hosts", o.emulated_hosts,
                   "fit the inter-host collectives across these emulated hosts "
                   "(scripts/emulated-hosts --name: 1-24 letters, digits, '.', '_', '-')");
    app.add_option("--db", o.db, "keep the profile in this run store too (machine_profiles)");
    app.add_option("--kernels-from", o.kernels_from,
                   "keep this profile's kernel rates, intra-host fits and slowdowns; measure "
                   "only the inter-host fits (--emulated-hosts)");
    app.add_option("--threads", o.threads, "kernel threads per rank (as run.threads)");
    app.add_option("--reps", o.reps, "timed calls per kernel");
    app.add_option("--check", o.check,
                   "time this profile's reference pass again and print how much faster or "
                   "slower the machine runs now (one JSON line on stdout)");
    app.add_option("--rounds", o.rounds,
                   "rounds of the model's pieces in situ and of the ranks' passes alone and at "
                   "once (each round times every one once; the medians are kept)");
    app.add_option("--max-bytes", o.max_bytes,
                   "largest collective in bytes (64 MiB; 1 KiB-1 GiB, and the largest job's "
                   "ranks holding 3x it each within half this machine's memory)");
    app.add_option("--max-call-s", o.max_call_s,
                   "stop growing a collective past this many s (1; above 0, at most 60)");
    app.add_flag("--allow-load", o.allow_load,
                 "write the profile even when other processes loaded the machine while it was "
                 "measured (by default such a profile is refused: its forecasts run long)");
    app.add_flag("--progress-json", o.progress_json,
                 "one JSON line per finished measurement on stdout (docs/planner.md)");
    app.add_option("--progress-done", o.progress_done)->group("");
    app.add_option("--progress-total", o.progress_total)->group("");
    app.add_option("--collectives", o.collectives)->group("");
    app.add_option("--fragment", o.fragment)->group("");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e); // the help, checked as any output by main()
    } catch (const CLI::ParseError& e) {
        std::cerr << "zerolab-calibrate: " << e.what() << "\n";
        return kExitInvalid;
    }
    try {
        if (!o.collectives.empty())
            return collectivesChild(argc, argv, o);
        if (o.rounds < 1) // the check's passes and the calibration's rounds
            throw PlanError("--rounds: at least 1, got " + std::to_string(o.rounds));
        if (!o.check.empty())
            return check(o);
        if (o.out.empty()) {
            std::cerr << "zerolab-calibrate: --out FILE is required\n";
            return kExitInvalid;
        }
        if (const std::string problem = calibrateOptionsProblem(o, physicalMemoryBytes());
            !problem.empty())
            throw PlanError(problem);
        struct sigaction stop = {};
        stop.sa_handler = onStop;
        sigaction(SIGTERM, &stop, nullptr);
        sigaction(SIGINT, &stop, nullptr);
        return driver(o);
    } catch (const Stopped&) {
        std::cerr << "zerolab-calibrate: stopped by request; no profile written\n";
        return kExitStopped;
    } catch (const PlanError& e) {
        std::cerr << "zerolab-calibrate: " << e.what() << "\n";
        return kExitInvalid;
    } catch (const StoreError& e) {
        std::cerr << "zerolab-calibrate: " << e.what() << "\n";
        return e.isIo() ? kExitFailed : kExitInvalid;
    } catch (const StdoutLost&) {
        return kStdoutLostSaid;
    }
}

} // namespace

int main(int argc, char** argv) {
    zerolab::runWithBestBlasKernels(argv);
    const int code = runTool(argc, argv);
    return code == kStdoutLostSaid ? kExitFailed
                                   : zerolab::exitAfterOutput("zerolab-calibrate", code);
}
