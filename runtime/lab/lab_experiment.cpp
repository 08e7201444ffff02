// A step's runs, one after the other: config file, launcher argv (launch_spec.h), the job
// to its end (job_runner.h), its run tagged and settled in the store (settle_run.h); on
// emulated hosts when the step asks (scripts/emulated-hosts up, its mpirun, down), after
// zerolab-calibrate when its time checks need a profile.
#include "runtime/lab/lab_experiment.h"

#include "runtime/launch/job_runner.h"
#include "runtime/launch/launch_spec.h"
#include "storage/run_reader.h"
#include "storage/settle_run.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

// Absolute: the runs start in it (JobRequest::cwd), and their arguments name files in it.
std::string workDir(const LabEnvironment& env) {
    if (!env.work_dir.empty()) {
        std::error_code ec;
        fs::create_directories(env.work_dir, ec);
        if (ec)
            throw LessonError(env.work_dir +
                              ": cannot create the Lab's work directory: " + ec.message());
        return fs::absolute(env.work_dir).string();
    }
    std::string tmpl = (fs::temp_directory_path() / "zerolab-lab-XXXXXX").string();
    if (!::mkdtemp(tmpl.data()))
        throw LessonError(tmpl +
                          ": cannot create the Lab's work directory: " + std::strerror(errno));
    return tmpl;
}

std::string readFile(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> labTags(const Lesson& lesson) {
    return {"lab", "lab:" + lesson.id};
}

// The last non-empty line of a file (a tool's own reason on stderr).
std::string lastLine(const std::string& path) {
    std::istringstream in(readFile(path));
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    return last;
}

// A helper job (emulated-hosts, zerolab-calibrate) to its end; its outcome.
JobOutcome runTool(const std::vector<std::string>& argv, const std::string& stem,
                   const LabEnvironment& env, double timeout_s, bool stoppable,
                   const std::string& what) {
    JobRequest request;
    request.argv = argv;
    request.env = launchEnvironment(LaunchSpec{}, ::geteuid() == 0);
    request.env.emplace_back("ZEROLAB_MPIEXEC", env.launcher);
    request.stdout_path = stem + ".out";
    request.stderr_path = stem + ".err";
    request.timeout_s = timeout_s;
    request.stop = stoppable ? env.stop : nullptr;
    try {
        return runJob(request);
    } catch (const LaunchError& e) {
        throw LessonError(what + ": " + e.what());
    }
}

constexpr int kHostsUnavailable = 77; // scripts/emulated-hosts: no namespaces here

// The emulated hosts of one step: up on construction, down when the step ends, however it
// ends (a failed run, a stop, an exception): down() reports a failure, the destructor
// only tries.
class StepHosts {
public:
    StepHosts(const LessonExperiment& e, const LabEnvironment& env, const std::string& dir,
              const std::string& what)
        : m_env(env), m_dir(dir), m_what(what), m_tool(emulatedHostsTool(env)),
          m_name("zllab-" + std::to_string(::getpid())) {
        // Hosts a killed Lab left behind (their owner is gone) go first.
        runTool({m_tool, "sweep"}, dir + "/hosts-sweep", env, 60, false, what);
        const JobOutcome up =
            runTool({m_tool, "up", "--hosts", std::to_string(e.hosts), "--rate", e.rate, "--name",
                     m_name, "--owner", std::to_string(::getpid())},
                    dir + "/hosts-up", env, 120, false, what);
        const std::string why = lastLine(dir + "/hosts-up.err");
        if (up.exit_code == kHostsUnavailable)
            throw LabHostsUnavailable(what + ": needs " + std::to_string(e.hosts) +
                                      " emulated hosts at " + e.rate + ", which cannot be made " +
                                      "here: " + why);
        if (up.exit_code != 0)
            throw LessonError(what + ": emulated-hosts up failed (exit " +
                              std::to_string(up.exit_code) + "): " + why);
        m_up = true;
    }
    ~StepHosts() {
        if (m_up)
            (void)takeDown();
    }
    StepHosts(const StepHosts&) = delete;
    StepHosts& operator=(const StepHosts&) = delete;

    void down() {
        if (m_up && !takeDown())
            throw LessonError(m_what + ": emulated-hosts down --name " + m_name +
                              " failed: " + lastLine(m_dir + "/hosts-down.err"));
    }
    const std::string& name() const { return m_name; }
    const std::string& tool() const { return m_tool; }

    static std::string emulatedHostsTool(const LabEnvironment& env) {
        return env.emulated_hosts_tool.empty() ? std::string(ZEROLAB_EMULATED_HOSTS_TOOL)
                                               : env.emulated_hosts_tool;
    }

private:
    bool takeDown() {
        m_up = false;
        try {
            return runTool({m_tool, "down", "--name", m_name}, m_dir + "/hosts-down", m_env, 120,
                           false, m_what)
                       .exit_code == 0;
        } catch (const LessonError&) {
            return false;
        }
    }

    const LabEnvironment& m_env;
    std::string m_dir, m_what, m_tool, m_name;
    bool m_up = false;
};

std::string calibrateProgram(const LabEnvironment& env) {
    if (!env.calibrate_program.empty())
        return env.calibrate_program;
    return (fs::path(env.train_program).parent_path() / "zerolab-calibrate").string();
}

// zerolab-calibrate for the runs to make: their presets, micro-batches, worlds and
// threads, across the step's hosts when it has them; the profile kept in the store.
// Returns false when stopped.
bool calibrate(const std::vector<const LessonRun*>& runs, const StepHosts* hosts,
               const LabEnvironment& env, const std::string& stem, const std::string& what) {
    std::set<std::string> presets;
    std::set<int> micros, worlds;
    int threads = 1;
    for (const LessonRun* r : runs) {
        const nlohmann::json& c = *r->config;
        presets.insert(c["model"]["preset"].get<std::string>());
        micros.insert(c.value("train_micro_batch_size_per_gpu", 1));
        if (r->world >= 2)
            worlds.insert(r->world);
        if (c.contains("run") && c["run"].value("threads", 0) > 0)
            threads = c["run"]["threads"].get<int>();
    }
    if (worlds.empty())
        worlds.insert(2);
    std::vector<std::string> argv = {
        calibrateProgram(env), "--out",     stem + ".json",          "--db",
        env.db_path,           "--threads", std::to_string(threads), "--model"};
    argv.insert(argv.end(), presets.begin(), presets.end());
    argv.push_back("--micro");
    for (int m : micros)
        argv.push_back(std::to_string(m));
    argv.push_back("--ranks");
    for (int w : worlds)
        argv.push_back(std::to_string(w));
    if (hosts)
        argv.insert(argv.end(), {"--emulated-hosts", hosts->name()});
    // The lesson's runs follow on the same machine in the same state, and its time checks
    // compare them with forecasts from this profile: a loaded machine slows both, so the
    // lesson keeps the profile; the tool's load line is in its log (stem.err).
    argv.push_back("--allow-load");
    const JobOutcome job = runTool(argv, stem, env, env.run_timeout_s, true, what);
    if (job.stopped && !job.timed_out)
        return false;
    if (job.exit_code != 0)
        throw LessonError(
            what + ": zerolab-calibrate failed (" +
            (job.timed_out ? std::string("timed out") : "exit " + std::to_string(job.exit_code)) +
            "): " + lastLine(stem + ".err") + " (logs: " + stem + ".out, .err)");
    return true;
}

} // namespace

std::string lessonRunName(const Lesson& lesson, const LessonStep& step, const LessonRun& run) {
    return lesson.id + "/" + step.id + "/" + run.id;
}

std::string lessonOriginRunName(const Lesson& lesson, const LessonRun& run) {
    return lesson.id + "/" + (run.origin.empty() ? run.id : run.origin);
}

LabStepRuns runStepExperiment(const Lesson& lesson, const LessonStep& step,
                              const LabEnvironment& env, const LabProgressFn& progress) {
    LabStepRuns result;
    if (!step.experiment)
        return result;
    const LessonExperiment& e = *step.experiment;
    const auto& runs = e.runs;
    // Runs an earlier step of this session made are reused, not run again.
    std::vector<const LessonRun*> todo;
    for (const LessonRun& run : runs) {
        if (env.made)
            if (const auto made = env.made->find(run.origin); made != env.made->end()) {
                result.run_ids[run.id] = made->second;
                continue;
            }
        todo.push_back(&run);
    }
    if (todo.empty())
        return result;
    const std::string dir = workDir(env);
    const std::string step_what = lesson.source + ", step " + step.id;
    std::optional<StepHosts> hosts;
    if (e.hosts > 1)
        hosts.emplace(e, env, dir, step_what);
    if (e.calibrate) {
        if (progress)
            progress(LabProgress{0, static_cast<int>(runs.size()), "profile",
                                 LabText{"calibrating the machine profile", "正在校准机器配置"}, 0,
                                 0});
        if (!calibrate(todo, hosts ? &*hosts : nullptr, env,
                       (fs::path(dir) / (lesson.id + "-" + step.id + "-profile")).string(),
                       step_what)) {
            result.stopped = true;
            return result;
        }
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const LessonRun& run = runs[i];
        if (std::find(todo.begin(), todo.end(), &run) == todo.end())
            continue;
        const std::string what = step_what + ", run " + run.id;
        const std::string stem =
            (fs::path(dir) / (lesson.id + "-" + step.id + "-" + run.id)).string();
        {
            std::ofstream out(stem + ".json");
            out << run.config->dump(2) << '\n';
            if (!out)
                throw LessonError(what + ": cannot write " + stem + ".json");
        }
        LaunchSpec ls;
        ls.kind = LauncherKind::Mpirun;
        ls.launcher = env.launcher;
        ls.np = run.world;
        // Absolute: the run starts in the Lab's folder (request.cwd).
        ls.program = env.train_program.find('/') == std::string::npos
                         ? env.train_program // found on PATH
                         : fs::absolute(env.train_program).string();
        ls.program_args = {"--config",   stem + ".json",
                           "--db",       fs::absolute(env.db_path).string(),
                           "--run-name", lessonRunName(lesson, step, run)};
        JobRequest request;
        if (hosts) {
            // mpirun inside host a over the hosts' hostfile (scripts/emulated-hosts mpirun).
            request.argv = {hosts->tool(),  "mpirun",  "--name",
                            hosts->name(),  "-np",     std::to_string(run.world),
                            "--tag-output", ls.program};
            request.argv.insert(request.argv.end(), ls.program_args.begin(), ls.program_args.end());
        } else {
            request.argv = launchArgv(ls);
        }
        request.env = launchEnvironment(ls, ::geteuid() == 0);
        if (hosts)
            request.env.emplace_back("ZEROLAB_MPIEXEC", env.launcher);
        request.stdout_path = stem + ".out";
        request.stderr_path = stem + ".err";
        request.cwd = dir; // a run's relative defaults (checkpoints/) stay in the Lab's folder
        request.timeout_s = env.run_timeout_s;
        request.stop = env.stop;
        LabProgress p{static_cast<int>(i),   static_cast<int>(runs.size()), run.id, run.label, 0,
                      step.experiment->steps};
        if (progress) {
            progress(p);
            request.on_poll = [&] {
                const auto line = lastMetricLineOfType(readFile(request.stdout_path), "step");
                if (line && line->contains("step") && (*line)["step"].is_number_integer() &&
                    (*line)["step"].get<long long>() != p.step) {
                    p.step = (*line)["step"].get<long long>();
                    progress(p);
                }
            };
        }
        JobOutcome job;
        try {
            job = runJob(request);
        } catch (const LaunchError& e) {
            throw LessonError(what + ": " + e.what());
        }
        const std::vector<std::string> tags = labTags(lesson);
        if (job.stopped && !job.timed_out) {
            settleRun(env.db_path, job.run_id, tags, RunStatus::Stopped,
                      "zerolab lab: stopped by the user");
            result.stopped = true;
            return result;
        }
        std::string reason;
        if (job.timed_out) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "killed at the run timeout of %.0f s",
                          env.run_timeout_s);
            reason = buf;
        } else if (job.exit_code != 0) {
            reason = jobFailureReason(job);
        } else if (job.run_id < 0) {
            reason = renderEnglish(Message(kJobNoRunLine, {request.stdout_path}));
        }
        settleRun(env.db_path, job.run_id, tags, RunStatus::Failed,
                  reason.empty() ? std::string() : "zerolab lab: " + reason);
        if (!reason.empty())
            throw LessonError(what + ": " + reason + " (logs: " + stem + ".out, .err)");
        result.run_ids[run.id] = job.run_id;
        if (env.made)
            (*env.made)[run.origin] = job.run_id;
    }
    if (hosts)
        hosts->down();
    return result;
}

LabRunIds findStoredStepRuns(const Lesson& lesson, const LessonStep& step,
                             const std::string& db_path) {
    LabRunIds ids;
    if (!step.experiment)
        return ids;
    RunReader reader(RunStore::open(db_path, OpenMode::ReadOnly));
    const std::vector<RunSummary> all = reader.listRuns(); // newest first
    for (const LessonRun& run : step.experiment->runs)
        for (const std::string& name :
             {lessonRunName(lesson, step, run), lessonOriginRunName(lesson, run)}) {
            const auto it = std::find_if(all.begin(), all.end(), [&](const RunSummary& s) {
                return s.name == name && s.status == RunStatus::Finished;
            });
            if (it != all.end()) {
                ids[run.id] = it->id;
                break;
            }
        }
    return ids;
}

} // namespace zerolab
