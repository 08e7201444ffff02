// A tiny arithmetic expression evaluator for lesson formulas: numbers (12, 0.5, 1e9),
// + - * / ^ (right-associative power), parentheses, unary minus, and variables
// ([A-Za-z_][A-Za-z0-9_]*). Also accepts ψ as the variable psi and × as *. No
// functions, no assignment: a teacher's file can never do more than arithmetic.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

// what() is "column C: message" (C counted from 1, in characters), e.g.
// "column 7: unknown variable 'Psi'" or "column 4: expected ')'".
class ExprError : public std::runtime_error {
public:
    ExprError(int column, const std::string& message);
    int column() const { return m_column; }
    const std::string& message() const { return m_message; }

private:
    int m_column;
    std::string m_message;
};

using ExprVariables = std::map<std::string, double>;

// A parsed expression, evaluated against variables as often as needed.
class Expr {
public:
    // Throws ExprError for a syntax error (an empty text included).
    static Expr parse(const std::string& text);
    // Throws ExprError naming the column of a variable not in `vars`. Division by
    // zero gives inf (IEEE), which no check agrees with.
    double evaluate(const ExprVariables& vars) const;
    // The variable names used, in order of first use.
    std::vector<std::string> variables() const;
    const std::string& text() const { return m_text; }

    struct Node;

private:
    std::string m_text;
    std::vector<Node> m_nodes; // postfix program
};

struct Expr::Node {
    enum class Op { Number, Variable, Neg, Add, Sub, Mul, Div, Pow } op = Op::Number;
    double value = 0;
    std::string name;
    int column = 0;
};

// parse + evaluate in one.
double evaluateExpr(const std::string& text, const ExprVariables& vars);

} // namespace zerolab
