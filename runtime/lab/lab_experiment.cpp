// A step's runs, one after the other: config file, launcher argv (launch_spec.h), the job
// to its end (job_runner.h), its run tagged and settled in the store (settle_run.h).
#include "runtime/lab/lab_experiment.h"

#include "runtime/launch/job_runner.h"
#include "runtime/launch/launch_spec.h"
#include "storage/run_reader.h"
#include "storage/settle_run.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace zerolab {

namespace {

namespace fs = std::filesystem;

std::string workDir(const LabEnvironment& env) {
    if (!env.work_dir.empty()) {
        std::error_code ec;
        fs::create_directories(env.work_dir, ec);
        if (ec)
            throw LessonError(env.work_dir +
                              ": cannot create the Lab's work directory: " + ec.message());
        return env.work_dir;
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

} // namespace

std::string lessonRunName(const Lesson& lesson, const LessonStep& step, const LessonRun& run) {
    return lesson.id + "/" + step.id + "/" + run.id;
}

LabStepRuns runStepExperiment(const Lesson& lesson, const LessonStep& step,
                              const LabEnvironment& env, const LabProgressFn& progress) {
    LabStepRuns result;
    if (!step.experiment)
        return result;
    const std::string dir = workDir(env);
    const auto& runs = step.experiment->runs;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const LessonRun& run = runs[i];
        const std::string what = lesson.source + ", step " + step.id + ", run " + run.id;
        const std::string stem =
            (fs::path(dir) / (lesson.id + "-" + step.id + "-" + run.id)).string();
        {
            std::ofstream out(stem + ".json");
            out << run.config.dump(2) << '\n';
            if (!out)
                throw LessonError(what + ": cannot write " + stem + ".json");
        }
        LaunchSpec ls;
        ls.kind = LauncherKind::Mpirun;
        ls.launcher = env.launcher;
        ls.np = run.world;
        ls.program = env.train_program;
        ls.program_args = {"--config",  stem + ".json", "--db",
                           env.db_path, "--run-name",   lessonRunName(lesson, step, run)};
        JobRequest request;
        request.argv = launchArgv(ls);
        request.env = launchEnvironment(ls, ::geteuid() == 0);
        request.stdout_path = stem + ".out";
        request.stderr_path = stem + ".err";
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
    }
    return result;
}

LabRunIds findStoredStepRuns(const Lesson& lesson, const LessonStep& step,
                             const std::string& db_path) {
    LabRunIds ids;
    if (!step.experiment)
        return ids;
    RunReader reader(RunStore::open(db_path, OpenMode::ReadOnly));
    const std::vector<RunSummary> all = reader.listRuns(); // newest first
    for (const LessonRun& run : step.experiment->runs) {
        const std::string name = lessonRunName(lesson, step, run);
        for (const RunSummary& s : all)
            if (s.name == name && s.status == RunStatus::Finished) {
                ids[run.id] = s.id;
                break;
            }
    }
    return ids;
}

} // namespace zerolab
