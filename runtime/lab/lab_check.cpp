// Check evaluation: planned values from the plan of the run's stored config (the planner's
// one prediction), measured values from the store, formulas over the run's variables;
// every number converted to the check's unit before comparing.
#include "runtime/lab/lab_check.h"

#include "runtime/lab/lab_expr.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lab_units.h"
#include "storage/profile_store.h"
#include "storage/run_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zerolab {

namespace {

std::string num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string percent(double f) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3g%%", f * 100);
    return buf;
}

// Empty when a and b agree within tol; else why not.
std::string compare(const char* what_a, double a, const char* what_b, double b, double tol,
                    const std::string& unit) {
    const double d = relativeDifference(a, b);
    if (std::isfinite(a) && std::isfinite(b) && d <= std::max(tol, kExactDifference))
        return {};
    return std::string(what_a) + " " + num(a) + " " + unit + " vs " + what_b + " " + num(b) + " " +
           unit + ": differ by " + (std::isfinite(d) ? percent(d) : std::string("inf")) +
           " (tolerance " + (tol > 0 ? percent(tol) : std::string("exact")) + ")";
}

void addReason(CheckResult& r, const std::string& why) {
    if (!why.empty())
        r.reason += (r.reason.empty() ? "" : "; ") + why;
}

// The step's runs read once per evaluation.
class Sources {
public:
    Sources(const Lesson& lesson, const LessonStep& step, const LabRunIds& ids,
            const std::string& db)
        : m_lesson(lesson), m_step(step), m_ids(ids), m_db(db) {}

    const LabRunData& run(const LessonCheck& c, const std::string& id) {
        if (auto it = m_runs.find(id); it != m_runs.end())
            return it->second;
        const auto sid = m_ids.find(id);
        if (sid == m_ids.end())
            throw LessonError(m_lesson.source + ": " + c.json_path + " (check " + c.id +
                              "): run '" + id + "' of step " + m_step.id +
                              " has not been run (no stored run)");
        if (!m_reader)
            m_reader.emplace(RunStore::open(m_db, OpenMode::ReadOnly));
        return m_runs.emplace(id, readLabRun(*m_reader, sid->second)).first->second;
    }
    const Plan& plan() {
        if (!m_plan)
            m_plan = zerolab::plan(m_step.plan->input);
        return *m_plan;
    }
    // The newest calibrated machine profile in the store (the step's calibration keeps it
    // there), and what it is.
    const MachineProfile& profile(const LessonCheck& c, std::string* what) {
        if (!m_profile) {
            RunStore store = RunStore::open(m_db, OpenMode::ReadOnly);
            for (const StoredProfile& p : machineProfiles(store))
                if (p.source == "calibrated") {
                    const std::string name = "machine profile #" + std::to_string(p.id);
                    try {
                        m_profile = machineProfileFromJson(nlohmann::json::parse(p.json), name);
                    } catch (const std::exception& e) {
                        throw LessonError(m_lesson.source + ": " + c.json_path + " (check " + c.id +
                                          "): " + name + " in the store: " + e.what());
                    }
                    m_profile_what = "calibrated on " + m_profile->name + " at " + m_profile->date +
                                     " (" + name + " in the store)";
                    break;
                }
            if (!m_profile)
                throw LessonError(m_lesson.source + ": " + c.json_path + " (check " + c.id +
                                  "): the store holds no calibrated machine profile (step " +
                                  m_step.id + " calibrates before its runs: run it)");
        }
        *what = m_profile_what;
        return *m_profile;
    }

private:
    const Lesson& m_lesson;
    const LessonStep& m_step;
    const LabRunIds& m_ids;
    std::string m_db;
    std::optional<RunReader> m_reader;
    std::map<std::string, LabRunData> m_runs;
    std::optional<Plan> m_plan;
    std::optional<MachineProfile> m_profile;
    std::string m_profile_what;
};

// The planned side of a check on a run: the step-time model for a time, the plan else.
std::optional<double> plannedOf(const LessonCheck& c, const LabQuantity& q, const LabRunData& d,
                                Sources& src, CheckResult& r) {
    if (q.timing) {
        r.timed = true;
        return forecastTime(d, src.profile(c, &r.profile), c.quantity);
    }
    if (q.planned)
        return plannedQuantity(d.plan, d.config.zero.stage, c.quantity);
    return std::nullopt;
}

std::optional<double> inUnit(std::optional<double> v, const LabUnit& u, double psi) {
    return v ? std::optional<double>(toLabUnit(*v, u, psi)) : std::nullopt;
}

double formulaValue(const LessonCheck& c, const Lesson& lesson, const ExprVariables& vars) {
    try {
        return evaluateExpr(*c.formula, vars);
    } catch (const ExprError& e) {
        throw LessonError(lesson.source + ": " + c.json_path + ".formula: '" + *c.formula +
                          "': " + e.what());
    }
}

void evaluateValue(const Lesson& lesson, const LessonCheck& c, Sources& src, CheckResult& r) {
    const LabUnit unit = *findLabUnit(c.unit);
    const LabQuantity& q = *findLabQuantity(c.quantity);
    ExprVariables vars;
    double psi = 0;
    if (c.run == "plan") {
        const Plan& p = src.plan();
        const int stage = c.stage.value_or(p.input.stage);
        psi = static_cast<double>(p.psi);
        r.planner = inUnit(plannedQuantity(p, stage, c.quantity), unit, psi);
        vars = planVariables(p, stage);
    } else {
        const LabRunData& d = src.run(c, c.run);
        psi = static_cast<double>(d.plan.psi);
        r.planner = inUnit(plannedOf(c, q, d, src, r), unit, psi);
        r.measured = inUnit(measuredQuantity(d, c.quantity, c.rank), unit, psi);
        if (!r.measured)
            addReason(r, "run " + c.run + " recorded no '" + c.quantity + "' at rank " +
                             std::to_string(c.rank));
        vars = runVariables(d);
    }
    if (c.formula)
        r.formula = formulaValue(c, lesson, vars);
    if (r.planner && r.measured)
        addReason(r, compare("planner", *r.planner, "measured", *r.measured, c.tolerance, c.unit));
    if (r.formula && r.planner)
        addReason(
            r, compare("formula", *r.formula, "planner", *r.planner, c.formula_tolerance, c.unit));
    else if (r.formula && r.measured)
        addReason(r, compare("formula", *r.formula, "measured", *r.measured, c.formula_tolerance,
                             c.unit));
}

bool holds(Relation rel, const std::vector<double>& xs, double tol) {
    for (std::size_t i = 1; i < xs.size(); ++i) {
        const double a = xs[i - 1], b = xs[i];
        const bool ok =
            rel == Relation::Equal ? relativeDifference(a, b) <= std::max(tol, kExactDifference)
            : rel == Relation::Decreasing ? b < a && relativeDifference(a, b) > kExactDifference
                                          : b > a && relativeDifference(a, b) > kExactDifference;
        if (!ok)
            return false;
    }
    return true;
}

std::string listValues(const std::vector<RelationPoint>& pts, bool planned,
                       const std::string& unit) {
    std::string out;
    for (const RelationPoint& p : pts) {
        const auto& v = planned ? p.planner : p.measured;
        out += (out.empty() ? "" : ", ") + p.run + " " + (v ? num(*v) : std::string("?"));
    }
    return out + " " + unit;
}

void evaluateRelation(const LessonCheck& c, Sources& src, CheckResult& r) {
    const LabUnit unit = *findLabUnit(c.unit);
    const LabQuantity& q = *findLabQuantity(c.quantity);
    std::vector<double> measured, planned;
    for (const std::string& id : c.runs) {
        const LabRunData& d = src.run(c, id);
        const double psi = static_cast<double>(d.plan.psi);
        RelationPoint p{id, inUnit(plannedOf(c, q, d, src, r), unit, psi),
                        inUnit(measuredQuantity(d, c.quantity, c.rank), unit, psi)};
        if (p.measured)
            measured.push_back(*p.measured);
        if (p.planner)
            planned.push_back(*p.planner);
        r.points.push_back(std::move(p));
    }
    const std::string rel(relationName(c.relation));
    if (measured.size() != c.runs.size())
        addReason(r, "a run recorded no '" + c.quantity + "'");
    else if (!holds(c.relation, measured, c.tolerance))
        addReason(r, "measured values are not " + rel + ": " + listValues(r.points, false, c.unit));
    if ((q.planned || q.timing) && planned.size() == c.runs.size() &&
        !holds(c.relation, planned, c.tolerance))
        addReason(r, "planned values are not " + rel + ": " + listValues(r.points, true, c.unit));
}

void evaluateErratum(const Lesson& lesson, const LessonCheck& c, Sources& src, CheckResult& r) {
    const LabUnit unit = *findLabUnit(c.unit);
    const Plan& p = src.plan();
    const auto it = std::find_if(p.errata.begin(), p.errata.end(),
                                 [&](const Erratum& e) { return e.topic == c.topic; });
    if (it == p.errata.end())
        throw LessonError(lesson.source + ": " + c.json_path + ".topic: the plan has no erratum '" +
                          c.topic + "'");
    const double psi = static_cast<double>(p.psi);
    r.claimed = toLabUnit(it->claimed_value, unit, psi);
    r.planner = toLabUnit(it->correct_value, unit, psi);
    r.claimed_text = it->claimed_text;
    r.correct_text = it->correct_text;
    r.formula = formulaValue(c, lesson, planVariables(p, c.stage.value_or(p.input.stage)));
    addReason(r,
              compare("formula", *r.formula, "correct", *r.planner, c.formula_tolerance, c.unit));
}

} // namespace

double relativeDifference(double a, double b) {
    const double m = std::max(std::fabs(a), std::fabs(b));
    return m == 0 ? 0 : std::fabs(a - b) / m;
}

PredictionGrade gradePrediction(const CheckResult& check, double prediction, GradeAgainst asked) {
    auto near = [&](std::optional<double> truth) -> std::optional<bool> {
        if (!truth)
            return std::nullopt;
        return relativeDifference(*truth, prediction) <= kPredictionTolerance;
    };
    PredictionGrade g;
    g.formula = near(check.formula);
    g.run = near(check.measured ? check.measured : check.planner);
    g.graded = asked;
    if (asked == GradeAgainst::Formula && !g.formula)
        g.graded = GradeAgainst::Run;
    else if (asked == GradeAgainst::Run && !g.run && g.formula)
        g.graded = GradeAgainst::Formula;
    const std::optional<bool> verdict = g.graded == GradeAgainst::Formula ? g.formula : g.run;
    g.hit = verdict.value_or(false);
    return g;
}

std::vector<CheckResult> evaluateStepChecks(const Lesson& lesson, const LessonStep& step,
                                            const LabRunIds& run_ids, const std::string& db_path,
                                            const LabPredictions& predictions) {
    Sources src(lesson, step, run_ids, db_path);
    std::vector<CheckResult> out;
    for (const LessonCheck& c : step.checks) {
        CheckResult r;
        r.id = c.id;
        r.kind = c.kind;
        r.label = c.label;
        r.unit = c.unit;
        r.explain = c.explain;
        r.tolerance = c.tolerance;
        r.formula_tolerance = c.formula_tolerance;
        r.prediction_id = c.prediction;
        for (const LessonPrediction& p : step.predictions)
            if (c.prediction && p.id == *c.prediction)
                r.grade = p.grade;
        if (c.prediction)
            if (const auto it = predictions.find(*c.prediction); it != predictions.end())
                r.prediction = it->second;
        switch (c.kind) {
        case CheckKind::Value:
            evaluateValue(lesson, c, src, r);
            break;
        case CheckKind::Relation:
            evaluateRelation(c, src, r);
            break;
        case CheckKind::Erratum:
            evaluateErratum(lesson, c, src, r);
            break;
        }
        r.agrees = r.reason.empty();
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace zerolab
