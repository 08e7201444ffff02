// The formula evaluator: precedence, associativity, numbers with exponents, unary minus,
// variables, ψ, and errors that name the column.
#include "runtime/lab/lab_expr.h"

#include <gtest/gtest.h>

#include <cmath>

namespace zerolab {
namespace {

TEST(LabExpr, ArithmeticAndPrecedence) {
    EXPECT_DOUBLE_EQ(evaluateExpr("4 + 12/N", {{"N", 4}}), 7);
    EXPECT_DOUBLE_EQ(evaluateExpr("2 + 3 * 4", {}), 14);
    EXPECT_DOUBLE_EQ(evaluateExpr("(2 + 3) * 4", {}), 20);
    EXPECT_DOUBLE_EQ(evaluateExpr("2 ^ 3 ^ 2", {}), 512); // right-associative
    EXPECT_DOUBLE_EQ(evaluateExpr("-2 ^ 2", {}), -4);
    EXPECT_DOUBLE_EQ(evaluateExpr("2 ^ -1", {}), 0.5);
    EXPECT_DOUBLE_EQ(evaluateExpr("--3", {}), 3);
    EXPECT_DOUBLE_EQ(evaluateExpr("10 - 4 - 3", {}), 3); // left-associative
    EXPECT_DOUBLE_EQ(evaluateExpr("12 / 4 / 3", {}), 1);
    EXPECT_DOUBLE_EQ(evaluateExpr("1e9", {}), 1e9);
    EXPECT_DOUBLE_EQ(evaluateExpr("6.7E9 * 2", {}), 13.4e9);
    EXPECT_DOUBLE_EQ(evaluateExpr("1.5e-3", {}), 0.0015);
    EXPECT_DOUBLE_EQ(evaluateExpr(".5 + 0.25", {}), 0.75);
}

TEST(LabExpr, PsiSymbolAndTimesSign) {
    const ExprVariables v{{"psi", 100}, {"N", 4}};
    EXPECT_DOUBLE_EQ(evaluateExpr("4 × ψ + 12 · ψ / N", v), 700);
    EXPECT_DOUBLE_EQ(evaluateExpr("psi_padded_x", {{"psi_padded_x", 3}}), 3);
    EXPECT_EQ(Expr::parse("2*psi + psi/N").variables(), (std::vector<std::string>{"psi", "N"}));
}

TEST(LabExpr, DivisionByZeroIsInfinite) {
    EXPECT_TRUE(std::isinf(evaluateExpr("1/N", {{"N", 0}})));
}

// The error and its column (from 1, in characters).
std::pair<int, std::string> errorOf(const std::string& text, const ExprVariables& v = {}) {
    try {
        evaluateExpr(text, v);
    } catch (const ExprError& e) {
        return {e.column(), e.what()};
    }
    return {0, ""};
}

TEST(LabExpr, ErrorsNameTheColumn) {
    EXPECT_EQ(errorOf("").first, 1);
    EXPECT_EQ(errorOf("4 + ").first, 5);
    EXPECT_EQ(errorOf("(1 + 2").first, 7);
    EXPECT_EQ(errorOf("1 + 2)").first, 6);
    EXPECT_EQ(errorOf("2 $ 3").first, 3);
    EXPECT_EQ(errorOf("1..2").first, 1);
    const auto unknown = errorOf("4 + Psi", {{"psi", 1}});
    EXPECT_EQ(unknown.first, 5);
    EXPECT_NE(unknown.second.find("unknown variable 'Psi'"), std::string::npos) << unknown.second;
    // Columns count characters, not bytes: ψ is two bytes.
    EXPECT_EQ(errorOf("ψ + ψ +", {{"psi", 1}}).first, 8);
    // Juxtaposition is not multiplication: the display string "4ψ" is not a formula.
    EXPECT_EQ(errorOf("4ψ + 12ψ/N", {{"psi", 1}, {"N", 4}}).first, 2);
}

TEST(LabExpr, DeepNestingIsAnErrorNotACrash) {
    const std::string deep = std::string(100000, '(') + "1" + std::string(100000, ')');
    EXPECT_NE(errorOf(deep).second.find("nested too deeply"), std::string::npos);
    const std::string negs(100000, '-');
    EXPECT_NE(errorOf(negs + "1").second.find("nested too deeply"), std::string::npos);
}

} // namespace
} // namespace zerolab
