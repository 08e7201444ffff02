// Check evaluation without runs (plan steps): the planner's value and the erratum's
// correct sum against the formula; a wrong formula or a too-tight tolerance disagrees
// with a reason naming the comparison; a Value check of a run that was never made is an
// error naming the check. Quantities and units convert as documented.
#include "lab_test_util.h"
#include "runtime/lab/lab_check.h"
#include "runtime/lab/lab_quantity.h"
#include "runtime/lab/lab_units.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using test::minimalLesson;

std::vector<CheckResult> evaluatePlanStep(const nlohmann::json& doc,
                                          const LabPredictions& predictions = {}) {
    const Lesson l = parseLesson(doc.dump(), "t.json");
    return evaluateStepChecks(l, l.steps[1], {}, "/nonexistent.db", predictions);
}

TEST(LabCheck, PlanStepAgrees) {
    const auto rs = evaluatePlanStep(minimalLesson());
    ASSERT_EQ(rs.size(), 2u);
    const CheckResult& total = rs[0];
    EXPECT_TRUE(total.agrees) << total.reason;
    EXPECT_EQ(total.kind, CheckKind::Erratum);
    EXPECT_DOUBLE_EQ(*total.claimed, 97.15); // 14 psi + 4 psi / N at 6.7e9, N = 8, in GB
    EXPECT_DOUBLE_EQ(*total.planner, 73.7);  // 10 psi + 8 psi / N
    EXPECT_NEAR(*total.formula, 73.7, 1e-9);
    EXPECT_FALSE(total.measured);
    EXPECT_EQ(total.claimed_text.context, "PlanErrata");
    EXPECT_FALSE(renderEnglish(total.claimed_text).empty());
    const CheckResult& states = rs[1];
    EXPECT_TRUE(states.agrees) << states.reason;
    EXPECT_NEAR(*states.planner, 120.6, 1e-9); // the chapter's DDP 18 psi
}

TEST(LabCheck, WrongFormulaDisagreesWithAReason) {
    auto doc = minimalLesson();
    doc["steps"][1]["checks"][0]["formula"] = "(14*psi + 4*psi/N)/GB"; // the chapter's slip
    doc["steps"][1]["checks"][1]["formula"] = "16*psi/GB";
    const auto rs = evaluatePlanStep(doc);
    EXPECT_FALSE(rs[0].agrees);
    EXPECT_NE(rs[0].reason.find("formula 97.15 GB vs correct 73.7 GB: differ by"),
              std::string::npos)
        << rs[0].reason;
    EXPECT_FALSE(rs[1].agrees);
    EXPECT_NE(rs[1].reason.find("formula 107.2 GB vs planner 120.6 GB"), std::string::npos)
        << rs[1].reason;
    EXPECT_NE(rs[1].reason.find("(tolerance exact)"), std::string::npos) << rs[1].reason;
}

TEST(LabCheck, FormulaToleranceDecides) {
    auto doc = minimalLesson();
    doc["steps"][1]["checks"][1]["formula"] = "120*psi/(GB*6.7)"; // 120 GB, 0.5% below 120.6
    doc["steps"][1]["checks"][1]["formula_tolerance"] = 0.004;
    EXPECT_FALSE(evaluatePlanStep(doc)[1].agrees);
    doc["steps"][1]["checks"][1]["formula_tolerance"] = 0.006;
    EXPECT_TRUE(evaluatePlanStep(doc)[1].agrees) << evaluatePlanStep(doc)[1].reason;
}

TEST(LabCheck, PredictionIsCarriedNotJudged) {
    auto doc = minimalLesson();
    doc["steps"][1]["predictions"] = {{{"id", "p"}, {"prompt", {{"en", "P"}}}, {"unit", "GB"}}};
    doc["steps"][1]["checks"][1]["prediction"] = "p";
    const auto rs = evaluatePlanStep(doc, {{"p", 99}});
    ASSERT_TRUE(rs[1].prediction);
    EXPECT_EQ(*rs[1].prediction, 99);
    EXPECT_EQ(*rs[1].prediction_id, "p");
    EXPECT_TRUE(rs[1].agrees) << "a student's wrong guess is shown, not a failed check";
}

// Lesson 3's stage-3 traffic: the paper's formula 3(N-1)/N = 1.5, this engine's run
// 1.415. The formula typed is right against the formula and wrong against the run; the
// step's "grade" says which one decides, and both verdicts are kept.
TEST(LabCheck, PredictionIsGradedAgainstWhatTheStepAsksAndBothAreKept) {
    CheckResult c;
    c.formula = 1.5;
    c.planner = 1.415;
    c.measured = 1.415;
    const PredictionGrade byRun = gradePrediction(c, 1.5, GradeAgainst::Run);
    EXPECT_EQ(byRun.formula, true);
    EXPECT_EQ(byRun.run, false);
    EXPECT_EQ(byRun.graded, GradeAgainst::Run);
    EXPECT_FALSE(byRun.hit);
    const PredictionGrade byFormula = gradePrediction(c, 1.5, GradeAgainst::Formula);
    EXPECT_TRUE(byFormula.hit);
    EXPECT_EQ(byFormula.graded, GradeAgainst::Formula);
    EXPECT_TRUE(gradePrediction(c, 1.42, GradeAgainst::Run).hit);
    // A check without a formula is graded on the run whatever was asked.
    c.formula.reset();
    const PredictionGrade noFormula = gradePrediction(c, 1.5, GradeAgainst::Formula);
    EXPECT_EQ(noFormula.graded, GradeAgainst::Run);
    EXPECT_FALSE(noFormula.formula.has_value());
    EXPECT_FALSE(noFormula.hit);

    auto doc = minimalLesson();
    doc["steps"][1]["predictions"] = {
        {{"id", "p"}, {"prompt", {{"en", "P"}}}, {"unit", "GB"}, {"grade", "formula"}}};
    EXPECT_EQ(parseLesson(doc.dump(), "t.json").steps[1].predictions[0].grade,
              GradeAgainst::Formula);
    doc["steps"][1]["predictions"][0]["grade"] = "measured";
    try {
        parseLesson(doc.dump(), "t.json");
        ADD_FAILURE() << "grade 'measured' was accepted";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("predictions[0].grade"), std::string::npos)
            << e.what();
    }
}

TEST(LabCheck, MissingRunIsAnErrorNamingTheCheck) {
    const Lesson l = parseLesson(minimalLesson().dump(), "t.json");
    try {
        evaluateStepChecks(l, l.steps[0], {}, "/nonexistent.db");
        FAIL() << "evaluated";
    } catch (const LessonError& e) {
        EXPECT_NE(std::string(e.what()).find("t.json: steps[0].checks[0] (check states): run "
                                             "'n2' of step one has not been run"),
                  std::string::npos)
            << e.what();
    }
}

TEST(LabUnits, Conversions) {
    EXPECT_DOUBLE_EQ(toLabUnit(3 * 1048576.0, *findLabUnit("MiB"), 1), 3);
    EXPECT_DOUBLE_EQ(toLabUnit(2e9, *findLabUnit("GB"), 1), 2);
    EXPECT_DOUBLE_EQ(toLabUnit(1600, *findLabUnit("psi"), 100), 16);
    EXPECT_DOUBLE_EQ(toLabUnit(150, *findLabUnit("psi_elements"), 100), 1.5);
    EXPECT_DOUBLE_EQ(toLabUnit(0.25, *findLabUnit("percent"), 1), 25);
    EXPECT_FALSE(findLabUnit("furlongs"));
}

TEST(LabQuantity, PlannedComesFromThePlan) {
    PlanInput in;
    in.params = 1000;
    in.world = 4;
    in.precision = Precision::Bf16Mixed;
    const Plan p = plan(in);
    EXPECT_DOUBLE_EQ(*plannedQuantity(p, 1, "optimizer_states"), 12.0 * 1000 / 4);
    EXPECT_DOUBLE_EQ(*plannedQuantity(p, 1, "model_states"), 4.0 * 1000 + 12.0 * 1000 / 4);
    EXPECT_DOUBLE_EQ(*plannedQuantity(p, 3, "traffic_elements"), 3.0 * 1000 * 3 / 4);
    EXPECT_FALSE(plannedQuantity(p, 1, "reduce_scatter_count"));
    const ExprVariables v = planVariables(p, 1);
    EXPECT_EQ(v.at("N"), 4);
    EXPECT_EQ(v.at("K"), 12);
    for (const auto& [name, value] : v)
        EXPECT_NE(std::find(labVariableNames().begin(), labVariableNames().end(), name),
                  labVariableNames().end())
            << name << " is not in labVariableNames()";
}

} // namespace
} // namespace zerolab
