// Evaluates a step's checks: for each, the formula (lab_expr over the run's variables),
// the planner's value (the one prediction) and the measured value (the store), in the
// check's unit, and whether they agree within the check's tolerances. A time check's
// planner is the step-time model on the step's calibrated profile (the store's newest),
// graded within the tolerance the step states.
#pragma once

#include "runtime/lab/lab_experiment.h"
#include "runtime/lab/lesson.h"
#include "runtime/text/message.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace zerolab {

// One run's value of a relation check (in the check's unit).
struct RelationPoint {
    std::string run;
    std::optional<double> planner;
    std::optional<double> measured;
};

struct CheckResult {
    std::string id;
    CheckKind kind = CheckKind::Value;
    LabText label;
    std::string unit;
    std::optional<std::string> prediction_id;
    GradeAgainst grade = GradeAgainst::Run; // the prediction's "grade"
    std::optional<double> prediction;       // the student's, when given
    std::optional<double> formula;  // Value: the formula; Erratum: the formula of the correct sum
    std::optional<double> planner;  // Value: planned; Erratum: the correct value
    std::optional<double> measured; // Value: measured (absent for plan steps)
    std::optional<double> claimed;  // Erratum: the chapter's claim
    std::vector<RelationPoint> points; // Relation: per run
    bool agrees = false;
    // The check's tolerances (LessonCheck): planner vs measured, and formula vs the other
    // side, so that a reader can say which pair is exact and which only close.
    double tolerance = 0;
    double formula_tolerance = 0;
    // Empty when it agrees; else which comparison failed and by how much, e.g.
    // "planner 3.5 psi vs measured 3.75 psi: differ by 6.7% (tolerance 0%)".
    std::string reason;
    LabText explain;
    // A time check (step_ms, exposed_ms): graded within its stated tolerance against the
    // step-time model on `profile` ("calibrated on HOST at DATE, machine profile #ID").
    bool timed = false;
    std::string profile;
    // Erratum: the chapter's statement and the correct one, numbers plugged in: the
    // planner's own Messages (Erratum), which Learn's errata table shows too.
    Message claimed_text;
    Message correct_text;
};

// A student's answer against both sides a step can ask for: the check's formula and the
// run (its measured value, or the planner's on a plan step). Each within 2 % (relative
// to the larger magnitude); nullopt where the check has no such value. `graded` is the
// side the step asks for (LessonPrediction::grade), `hit` the verdict on it; where that
// side is missing the other one grades.
struct PredictionGrade {
    std::optional<bool> formula;
    std::optional<bool> run;
    GradeAgainst graded = GradeAgainst::Run;
    bool hit = false;
};
inline constexpr double kPredictionTolerance = 0.02;
PredictionGrade gradePrediction(const CheckResult& check, double prediction, GradeAgainst asked);

// |a - b| / max(|a|, |b|), 0 when both are 0: how every check compares two of its sides;
// "exact" is within kExactDifference.
double relativeDifference(double a, double b);
inline constexpr double kExactDifference = 1e-9;

// Student predictions by prediction id, in the prediction's unit.
using LabPredictions = std::map<std::string, double>;

// Evaluates every check of `step`. run_ids: from runStepExperiment (or
// findStoredStepRuns); a Value check whose run is missing throws LessonError naming the
// check and run. Agreement: every pair present among planner, measured and formula
// (planner vs measured within tolerance; formula vs planner, or vs measured when nothing
// is planned, within formula_tolerance); relative difference |a - b| / max(|a|, |b|),
// "exact" meaning within 1e-9.
std::vector<CheckResult> evaluateStepChecks(const Lesson& lesson, const LessonStep& step,
                                            const LabRunIds& run_ids, const std::string& db_path,
                                            const LabPredictions& predictions = {});

} // namespace zerolab
