// The headless lesson runner: argument parsing for main, then every step in order
// (experiment, checks), one JSON line per check on stdout, progress on stderr in --lang.
#include "runtime/lab/lab_headless.h"

#include "runtime/lab/lab_check.h"
#include "runtime/lab/lab_experiment.h"
#include "runtime/lab/lab_work_dir.h"
#include "runtime/lab/lesson_parse.h"
#include "storage/default_path.h"
#include "storage/run_store.h"
#include "storage/store_error.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace zerolab {

namespace {

constexpr int kExitFailed = 1;
constexpr int kExitInvalid = 2;
constexpr int kExitStopped = 3;
constexpr int kExitSkipped = 77; // a step needs emulated hosts that cannot be made here

std::atomic<bool> g_stop{false};

void onSignal(int) {
    g_stop.store(true);
}

nlohmann::ordered_json optionalNumber(const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json checkLine(const Lesson& lesson, const LessonStep& step, const CheckResult& r,
                                 const std::string& lang, bool graded) {
    nlohmann::ordered_json j = {{"lesson", lesson.id},
                                {"step", step.id},
                                {"check", r.id},
                                {"kind", std::string(checkKindName(r.kind))},
                                {"unit", r.unit},
                                {"label", r.label.in(lang)},
                                {"prediction", optionalNumber(r.prediction)},
                                {"formula", optionalNumber(r.formula)},
                                {"planner", optionalNumber(r.planner)},
                                {"measured", optionalNumber(r.measured)},
                                {"claimed", optionalNumber(r.claimed)},
                                {"agrees", r.agrees},
                                {"reason", r.reason}};
    if (r.timed) {
        j["profile"] = r.profile;
        j["graded"] = graded;
    }
    if (!r.points.empty()) {
        nlohmann::ordered_json pts = nlohmann::ordered_json::array();
        for (const RelationPoint& p : r.points)
            pts.push_back({{"run", p.run},
                           {"planner", optionalNumber(p.planner)},
                           {"measured", optionalNumber(p.measured)}});
        j["points"] = pts;
    }
    return j;
}

// The directory of the running executable (/proc/self/exe), "" when unknown.
std::string executableDir(const char* argv0) {
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec)
        return self.parent_path().string();
    return std::filesystem::path(argv0 ? argv0 : "").parent_path().string();
}

} // namespace

int runLessonHeadless(const HeadlessLessonOptions& o, std::ostream& out, std::ostream& err) {
    // A progress line in the options' language (its arguments as they are).
    const auto say = [&](MessageSource s, std::vector<Message> args) {
        err << renderMessage(Message(s, std::move(args)), o.translate) << '\n';
    };
    Lesson lesson;
    try {
        lesson = loadLesson(o.lesson);
    } catch (const LessonError& e) {
        err << "zerolab: " << e.what() << '\n';
        return kExitInvalid;
    }
    LabEnvironment env;
    env.train_program = o.train_program;
    env.db_path = o.db_path.empty() ? defaultStorePath() : o.db_path;
    env.stop = &g_stop;
    // An existing store is checked before anything runs: one that is damaged or of a newer
    // schema is refused here, exit 2 as in every other tool, not after a first run failed
    // on it. A missing one is left to the first run to create (a plan-only lesson makes none).
    try {
        std::error_code ec;
        if (std::filesystem::exists(env.db_path, ec))
            RunStore::open(env.db_path);
    } catch (const StoreError& e) {
        err << "zerolab: " << e.what() << '\n';
        return e.isIo() ? kExitFailed : kExitInvalid;
    }
    try {
        env.work_dir = makeLessonWorkDir(); // what a killed runner left goes first
    } catch (const LessonError& e) {
        err << "zerolab: " << e.what() << '\n';
        return kExitFailed;
    }
    LabRunIds made; // each distinct run once: later steps reuse it (LessonRun::origin)
    env.made = &made;
    int checks = 0, agree = 0, skipped = 0, reported = 0;
    std::vector<std::string> failed;
    try {
        for (const LessonStep& step : lesson.steps) {
            LabStepRuns runs;
            try {
                runs = runStepExperiment(lesson, step, env, [&](const LabProgress& p) {
                    say(ZEROLAB_TR("LabHeadless",
                                   "zerolab: lesson %1, step %2: run %3/%4 (%5), step %6/%7"),
                        {lesson.id, step.id, std::to_string(p.run_index + 1),
                         std::to_string(p.run_count), p.run_id, std::to_string(p.step),
                         std::to_string(p.steps)});
                });
            } catch (const LabHostsUnavailable& e) {
                say(ZEROLAB_TR("LabHeadless", "zerolab: skipped: %1"), {std::string(e.what())});
                for (const LessonCheck& c : step.checks) {
                    out << nlohmann::ordered_json({{"lesson", lesson.id},
                                                   {"step", step.id},
                                                   {"check", c.id},
                                                   {"skipped", e.what()}})
                               .dump()
                        << '\n';
                    ++skipped;
                }
                continue;
            }
            if (runs.stopped) {
                say(ZEROLAB_TR("LabHeadless", "zerolab: stopped"), {});
                return kExitStopped;
            }
            for (const CheckResult& r :
                 evaluateStepChecks(lesson, step, runs.run_ids, env.db_path)) {
                // Reported, not graded: a time outside its tolerance (both sides there).
                const bool graded = !r.timed || o.grade_times || !r.planner || !r.measured;
                out << checkLine(lesson, step, r, o.lang, graded).dump() << '\n';
                ++checks;
                if (r.agrees) {
                    ++agree;
                } else if (!graded) {
                    ++reported;
                    say(ZEROLAB_TR("LabHeadless", "zerolab: lesson %1, step %2, check %3 (a "
                                                  "time, reported, not graded): %4"),
                        {lesson.id, step.id, r.id, r.reason});
                } else {
                    failed.push_back(step.id + "/" + r.id);
                    say(ZEROLAB_TR("LabHeadless",
                                   "zerolab: lesson %1, step %2, check %3 disagrees: %4"),
                        {lesson.id, step.id, r.id, r.reason});
                }
            }
            out.flush();
        }
    } catch (const LessonError& e) {
        keepLessonWorkDir(env.work_dir);
        err << "zerolab: " << e.what() << "\nzerolab: run configs and logs are in " << env.work_dir
            << '\n';
        return kExitFailed;
    } catch (const StoreError& e) {
        err << "zerolab: " << env.db_path << ": " << e.what() << '\n';
        return e.isIo() ? kExitFailed : kExitInvalid;
    }
    // The run configs and logs are kept only when something needs looking at.
    if (failed.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(env.work_dir, ec);
    } else {
        keepLessonWorkDir(env.work_dir);
        say(ZEROLAB_TR("LabHeadless", "zerolab: run configs and logs are in %1"), {env.work_dir});
    }
    out << nlohmann::ordered_json({{"lesson", lesson.id},
                                   {"summary",
                                    {{"checks", checks},
                                     {"agree", agree},
                                     {"disagree", checks - agree - reported},
                                     {"skipped", skipped},
                                     {"times_reported", reported}}},
                                   {"agrees", failed.empty()}})
               .dump()
        << '\n';
    if (!failed.empty())
        return kExitFailed;
    return skipped > 0 ? kExitSkipped : 0;
}

std::optional<int> runLessonFromArguments(int argc, char** argv,
                                          const HeadlessTranslatorFor& translatorFor) {
    bool run_lesson = false;
    for (int i = 1; i < argc; ++i)
        run_lesson = run_lesson || std::strcmp(argv[i], "--run-lesson") == 0;
    if (!run_lesson)
        return std::nullopt;
    HeadlessLessonOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto value = [&](const char* name) -> std::optional<std::string> {
            const std::string flag = name;
            if (a == flag) {
                if (i + 1 >= argc)
                    return std::string();
                return std::string(argv[++i]);
            }
            if (a.rfind(flag + "=", 0) == 0)
                return a.substr(flag.size() + 1);
            return std::nullopt;
        };
        if (a == "--run-lesson")
            continue;
        if (auto v = value("--lesson"))
            o.lesson = *v;
        else if (auto v = value("--db"))
            o.db_path = *v;
        else if (auto v = value("--lang"))
            o.lang = *v;
        else if (auto v = value("--time-checks")) {
            if (*v != "grade" && *v != "report") {
                std::cerr << "zerolab: --time-checks: 'grade' or 'report', got '" << *v << "'\n";
                return kExitInvalid;
            }
            o.grade_times = *v == "grade";
        } else {
            std::cerr << "zerolab: --run-lesson: unknown argument '" << a
                      << "' (usage: zerolab --lesson ID|FILE --run-lesson [--db D] "
                         "[--lang en|zh_CN] [--time-checks grade|report])\n";
            return kExitInvalid;
        }
    }
    if (o.lesson.empty()) {
        std::cerr << "zerolab: --run-lesson needs --lesson ID|FILE\n";
        return kExitInvalid;
    }
    if (o.lang != "en" && o.lang != "zh_CN") {
        std::cerr << "zerolab: --lang: 'en' or 'zh_CN', got '" << o.lang << "'\n";
        return kExitInvalid;
    }
    if (translatorFor)
        o.translate = translatorFor(o.lang);
    o.train_program = (std::filesystem::path(executableDir(argv[0])) / "zerolab-train").string();
    struct sigaction sa {};
    sa.sa_handler = onSignal;
    ::sigaction(SIGINT, &sa, nullptr);
    ::sigaction(SIGTERM, &sa, nullptr);
    return runLessonHeadless(o, std::cout, std::cerr);
}

} // namespace zerolab
