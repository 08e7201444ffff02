// The Lab's lesson: a teacher's JSON file (docs/lab.md) turned into plain data. A lesson
// is a sequence of steps; a step has text, predictions the student types, an optional
// experiment (real runs) or planner-only plan, checks and a chart. No Qt, no MPI.
#pragma once

#include "runtime/planner/planner.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// The one exception type of the Lab (runtime/lab/). what() names the lesson file (or
// "lesson <id>" for a shipped one) and the JSON path ("steps[2].checks[0].formula"),
// or the lesson run that failed and why.
class LessonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A bilingual text. Shipped lessons give both; a teacher's lesson may give only `en`.
struct LabText {
    std::string en;
    std::string zh_CN;
    // The text in `lang` ("en" or "zh_CN"); en when that language is missing.
    const std::string& in(std::string_view lang) const {
        return lang == "zh_CN" && !zh_CN.empty() ? zh_CN : en;
    }
};

// A number the student predicts before running, in `unit` (lab_units.h).
// What a student's answer is graded against (the prediction's "grade"): the run (this
// engine's measurement, or the planner's value on a plan step), or the step's formula.
enum class GradeAgainst { Run, Formula };

struct LessonPrediction {
    std::string id;
    LabText prompt;
    std::string unit;
    GradeAgainst grade = GradeAgainst::Run;
};

// One run of a step's experiment: `config` is the lesson's base_config with the run's
// overrides merged (RFC 7396 merge patch), already validated by parseConfig at `world`.
// Runs of a lesson launched alike (the same merged config, world, hosts and rate) share
// one config object and one `origin`, the first of them in the lesson ("<step>/<run>"):
// the Lab runs it once and the later steps that name it reuse that run (docs/lab.md).
struct LessonRun {
    std::string id; // unique within the lesson's step
    int world = 1;
    std::shared_ptr<const nlohmann::json> config; // the config document it is launched with
    LabText label;                                // empty en: the GUI shows id
    std::string origin; // "<step>/<run>" of the first run of the lesson launched alike
};

struct LessonExperiment {
    int steps = 2; // optimizer steps of every run (the last one is measured)
    std::vector<LessonRun> runs;
    // Emulated hosts (scripts/emulated-hosts): hosts > 1 runs every run over that many
    // network-namespace hosts joined at `rate` ("200mbit", "unlimited"), world / hosts
    // consecutive ranks on each (run.ranks_per_host set to match).
    int hosts = 1;
    std::string rate;
    // "profile": "calibrate": zerolab-calibrate measures the machine (and the link between
    // the hosts) for the runs' model, micro-batch and world before the runs, and keeps the
    // profile in the store; the step's time checks are planned with it (predictStepTime).
    bool calibrate = false;
};

// A planner-only step (lesson 7): the plan of `input` at all four stages; no run.
struct LessonPlan {
    PlanInput input;
    LabText label;
};

enum class CheckKind {
    Value,    // one quantity of one run (or the plan): formula vs planner vs measured
    Relation, // one quantity across runs: decreasing / increasing / equal, measured and planned
    Erratum,  // a chapter slip (the plan, Chapter convention): claimed vs correct = formula
};

enum class Relation { Decreasing, Increasing, Equal };

struct LessonCheck {
    std::string id;
    CheckKind kind = CheckKind::Value;
    LabText label;
    std::string unit;                      // lab_units.h: bytes, MiB, psi, psi_elements, count...
    std::optional<std::string> prediction; // id of the step's prediction shown beside
    std::string quantity;                  // lab_quantity.h's names ("optimizer_states"...)
    std::string run;                       // Value: a run id of the step's experiment, or "plan"
    std::vector<std::string> runs;         // Relation: the runs, in order
    Relation relation = Relation::Equal;   // Relation only
    int rank = 0;                          // which rank's ledger (measured); all equal by design
    std::optional<int> stage;              // plan steps: which stage (default the plan's)
    std::string topic;                     // Erratum: Erratum::topic of the plan's errata
    std::optional<std::string> formula;    // lab_expr.h, over the run's variables, in `unit`
    double tolerance = 0;                  // planner vs measured, relative (0.01 = 1 %); 0 = exact
    double formula_tolerance = 0; // formula vs planner (or vs correct), relative; 0 = exact
    LabText explain;              // why formula and planner / measured may differ
    std::string json_path;        // "steps[1].checks[2]", for messages
};

enum class ChartKind {
    Memory,   // per-rank ledger bars per run (measured), with the planner's outline
    Traffic,  // traffic per rank per step per run, in psi (measured and planned)
    StepTime, // step ms and activation bytes per run
    Timeline, // the step timeline of one run (runs[0])
    Plan,     // the plan's stages side by side (planner-only steps)
};

struct LessonChart {
    ChartKind kind = ChartKind::Memory;
    std::vector<std::string> runs;       // run ids in chart order (default: all of the step's)
    std::vector<std::string> categories; // ledger categories to draw (default: all nonzero)
    LabText title;
};

struct LessonStep {
    std::string id;
    LabText title;
    LabText text;        // paragraphs separated by blank lines
    std::string formula; // display string, e.g. "4ψ + 12ψ/N"; may be empty
    std::vector<LessonPrediction> predictions;
    std::optional<LessonExperiment> experiment;
    std::optional<LessonPlan> plan;
    std::vector<LessonCheck> checks;
    std::optional<LessonChart> chart;
    std::string json_path; // "steps[1]"
};

struct Lesson {
    std::string id; // [a-z0-9-]+
    int order = 0;
    LabText title;
    LabText summary;
    nlohmann::json base_config;
    std::vector<LessonStep> steps;
    std::string source; // the file path, or "lesson <id>" for a shipped lesson

    // nullptr when no step has that id.
    const LessonStep* step(std::string_view step_id) const {
        for (const LessonStep& s : steps)
            if (s.id == step_id)
                return &s;
        return nullptr;
    }
};

std::string_view checkKindName(CheckKind k); // "value", "relation", "erratum"
std::string_view relationName(Relation r);   // "decreasing", "increasing", "equal"
std::string_view chartKindName(ChartKind k); // "memory", "traffic", "step_time", ...

} // namespace zerolab
