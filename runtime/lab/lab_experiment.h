// Runs a lesson step's experiment: each run a real zerolab-train job under mpirun
// (launch/job_runner.h, the same as a sweep's trials), in the given store, named
// "<lesson>/<step>/<run>" and tagged "lab" and "lab:<lesson>", so that it can be reviewed
// in the Run and Compare views. Blocking: the GUI calls it from a worker thread.
#pragma once

#include "runtime/lab/lesson.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace zerolab {

// Lesson run origin ("<step>/<run>", LessonRun::origin) or id -> store run id.
using LabRunIds = std::map<std::string, std::int64_t>;

struct LabEnvironment {
    std::string train_program; // zerolab-train (the GUI and headless: next to zerolab)
    std::string db_path;       // the store the runs go to
    std::string work_dir; // run configs and logs; empty: a new /tmp/zerolab-lab-* per call, kept
    std::string launcher = "mpirun";
    double run_timeout_s = 300; // a run past it is killed (its group) and the step fails
    // Set from another thread to stop: the running job gets SIGTERM (then SIGKILL after
    // a grace period) and the step returns with stopped = true.
    const std::atomic<bool>* stop = nullptr;
    // scripts/emulated-hosts, for steps with "hosts" (empty: the source tree's), and
    // zerolab-calibrate for "profile": "calibrate" (empty: next to train_program).
    std::string emulated_hosts_tool;
    std::string calibrate_program;
    // The runs made so far in this session of the lesson, by origin: a run whose origin is
    // here is not run again (the step reuses it); each new one is added. nullptr: every
    // run of the step is run.
    LabRunIds* made = nullptr;
};

// A step that needs emulated hosts where network namespaces cannot be made (not root, no
// iproute2, no veth or tbf): what() says so and why; nothing of the step was run.
class LabHostsUnavailable : public LessonError {
public:
    using LessonError::LessonError;
};

// Called from the calling thread while a run goes: run i (0-based) of n, its id and
// label, and the last optimizer step it logged (0 before the first) of `steps`.
struct LabProgress {
    int run_index = 0;
    int run_count = 0;
    std::string run_id;
    LabText label;
    long long step = 0;
    int steps = 0;
};
using LabProgressFn = std::function<void(const LabProgress&)>;

struct LabStepRuns {
    LabRunIds run_ids; // the runs that finished
    bool stopped = false;
};

// "<lesson>/<step>/<run>", the store's run name of a lesson run.
std::string lessonRunName(const Lesson& lesson, const LessonStep& step, const LessonRun& run);

// Runs every run of step.experiment in order (none for a step without one), reusing
// those in env.made. With hosts: `emulated-hosts up` first, each run through its mpirun,
// `down` always at the end (failure and stop included); with "profile": "calibrate",
// zerolab-calibrate into the store before the runs. Throws LabHostsUnavailable when the
// hosts cannot be made here, LessonError naming the run ("lesson 2, step n4, run n2: exit
// 1: ...") when one fails or times out. Stopped: returns what finished, stopped = true.
LabStepRuns runStepExperiment(const Lesson& lesson, const LessonStep& step,
                              const LabEnvironment& env, const LabProgressFn& progress = {});

// The store name of the run a lesson run reuses: lessonRunName of its origin.
std::string lessonOriginRunName(const Lesson& lesson, const LessonRun& run);

// The newest finished stored run of each of the step's runs (by its name, else by its
// origin's: a run another step made), e.g. to show a lesson's last results again; runs
// never made are absent.
LabRunIds findStoredStepRuns(const Lesson& lesson, const LessonStep& step,
                             const std::string& db_path);

} // namespace zerolab
