// Recursive descent over the text, emitting a postfix program:
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/') unary)*
//   unary   := '-' unary | power
//   power   := atom ('^' unary)?          (right-associative; -2^2 = -4, 2^-1 = 0.5)
//   atom    := number | name | '(' sum ')'
#include "runtime/lab/lab_expr.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace zerolab {

namespace {

constexpr int kMaxDepth = 200; // nesting a teacher never needs; keeps the stack bounded

class Parser {
public:
    explicit Parser(const std::string& text) : m_text(text) {}

    std::vector<Expr::Node> parse() {
        skipSpace();
        if (atEnd())
            throw ExprError(column(), "empty formula");
        sum();
        skipSpace();
        if (!atEnd())
            throw ExprError(column(), "unexpected '" + currentSymbol() + "'");
        return std::move(m_out);
    }

private:
    using Op = Expr::Node::Op;

    // Column of m_pos in characters (UTF-8 continuation bytes not counted), from 1.
    int column() const {
        int c = 1;
        for (std::size_t i = 0; i < m_pos && i < m_text.size(); ++i)
            if ((static_cast<unsigned char>(m_text[i]) & 0xC0) != 0x80)
                ++c;
        return c;
    }
    bool atEnd() const { return m_pos >= m_text.size(); }
    void skipSpace() {
        while (!atEnd() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }
    bool startsWith(std::string_view s) const { return m_text.compare(m_pos, s.size(), s) == 0; }
    std::string currentSymbol() const {
        std::size_t n = 1;
        const auto lead = static_cast<unsigned char>(m_text[m_pos]);
        if (lead >= 0xF0)
            n = 4;
        else if (lead >= 0xE0)
            n = 3;
        else if (lead >= 0xC0)
            n = 2;
        return m_text.substr(m_pos, n);
    }
    // Consumes one of the operator spellings; returns the op or nullopt.
    bool accept(char c) {
        skipSpace();
        if (!atEnd() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    bool acceptTimes() {
        skipSpace();
        if (startsWith("×") || startsWith("·")) {
            m_pos += 2;
            return true;
        }
        return accept('*');
    }
    void emit(Op op, int col, double value = 0, std::string name = {}) {
        m_out.push_back(Expr::Node{op, value, std::move(name), col});
    }
    void enter() {
        if (++m_depth > kMaxDepth)
            throw ExprError(column(), "formula nested too deeply");
    }

    void sum() {
        enter();
        product();
        for (;;) {
            skipSpace();
            const int col = column();
            if (accept('+')) {
                product();
                emit(Op::Add, col);
            } else if (accept('-')) {
                product();
                emit(Op::Sub, col);
            } else {
                break;
            }
        }
        --m_depth;
    }
    void product() {
        unary();
        for (;;) {
            skipSpace();
            const int col = column();
            if (acceptTimes()) {
                unary();
                emit(Op::Mul, col);
            } else if (accept('/')) {
                unary();
                emit(Op::Div, col);
            } else {
                break;
            }
        }
    }
    void unary() {
        enter();
        skipSpace();
        const int col = column();
        if (accept('-')) {
            unary();
            emit(Op::Neg, col);
        } else if (accept('+')) {
            unary();
        } else {
            power();
        }
        --m_depth;
    }
    void power() {
        atom();
        skipSpace();
        const int col = column();
        if (accept('^')) {
            unary();
            emit(Op::Pow, col);
        }
    }
    void atom() {
        skipSpace();
        const int col = column();
        if (atEnd())
            throw ExprError(col, "expected a number, a variable or '(' at the end");
        const char c = m_text[m_pos];
        if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
            number(col);
        } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
            const std::size_t start = m_pos;
            while (!atEnd() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) ||
                                m_text[m_pos] == '_'))
                ++m_pos;
            emit(Op::Variable, col, 0, m_text.substr(start, m_pos - start));
        } else if (startsWith("ψ")) {
            m_pos += 2;
            emit(Op::Variable, col, 0, "psi");
        } else if (accept('(')) {
            sum();
            skipSpace();
            if (!accept(')'))
                throw ExprError(column(), atEnd()
                                              ? "expected ')' at the end"
                                              : "expected ')', found '" + currentSymbol() + "'");
        } else {
            throw ExprError(col, "expected a number, a variable or '(', found '" + currentSymbol() +
                                     "'");
        }
    }
    void number(int col) {
        const std::size_t start = m_pos;
        while (!atEnd() &&
               (std::isdigit(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '.'))
            ++m_pos;
        if (!atEnd() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            std::size_t p = m_pos + 1;
            if (p < m_text.size() && (m_text[p] == '+' || m_text[p] == '-'))
                ++p;
            if (p < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[p]))) {
                while (p < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[p])))
                    ++p;
                m_pos = p;
            }
        }
        const std::string digits = m_text.substr(start, m_pos - start);
        char* end = nullptr;
        const double v = std::strtod(digits.c_str(), &end);
        if (end != digits.c_str() + digits.size() || digits == ".")
            throw ExprError(col, "malformed number '" + digits + "'");
        emit(Op::Number, col, v);
    }

    const std::string& m_text;
    std::size_t m_pos = 0;
    int m_depth = 0;
    std::vector<Expr::Node> m_out;
};

} // namespace

ExprError::ExprError(int column, const std::string& message)
    : std::runtime_error("column " + std::to_string(column) + ": " + message), m_column(column),
      m_message(message) {}

Expr Expr::parse(const std::string& text) {
    Expr e;
    e.m_text = text;
    e.m_nodes = Parser(text).parse();
    return e;
}

double Expr::evaluate(const ExprVariables& vars) const {
    std::vector<double> stack;
    stack.reserve(m_nodes.size());
    const auto pop = [&] {
        const double v = stack.back();
        stack.pop_back();
        return v;
    };
    for (const Node& n : m_nodes) {
        switch (n.op) {
        case Node::Op::Number:
            stack.push_back(n.value);
            break;
        case Node::Op::Variable: {
            const auto it = vars.find(n.name);
            if (it == vars.end())
                throw ExprError(n.column, "unknown variable '" + n.name + "'");
            stack.push_back(it->second);
            break;
        }
        case Node::Op::Neg:
            stack.back() = -stack.back();
            break;
        default: {
            const double b = pop();
            const double a = pop();
            stack.push_back(n.op == Node::Op::Add   ? a + b
                            : n.op == Node::Op::Sub ? a - b
                            : n.op == Node::Op::Mul ? a * b
                            : n.op == Node::Op::Div ? a / b
                                                    : std::pow(a, b));
        }
        }
    }
    return stack.back();
}

std::vector<std::string> Expr::variables() const {
    std::vector<std::string> names;
    for (const Node& n : m_nodes)
        if (n.op == Node::Op::Variable &&
            std::find(names.begin(), names.end(), n.name) == names.end())
            names.push_back(n.name);
    return names;
}

double evaluateExpr(const std::string& text, const ExprVariables& vars) {
    return Expr::parse(text).evaluate(vars);
}

} // namespace zerolab
