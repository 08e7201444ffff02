// Formatting goes through lab_units.h's labels, so a unit added there shows here.

#include "gui/views/lab/lab_values.h"

#include "gui/core/runtime_text.h"
#include "gui/core/units.h"
#include "runtime/lab/lab_expr.h"
#include "runtime/lab/lab_units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace zerolab {

namespace {
// lab_units.h's labels that are words, for lupdate; the others are symbols.
[[maybe_unused]] const char* const kUnitWords[] = {QT_TRANSLATE_NOOP("LabUnits", "ψ (elements)")};
} // namespace

QString labUnitLabel(const std::string& unit) {
    const std::optional<LabUnit> u = findLabUnit(unit);
    if (!u)
        return QString::fromStdString(unit);
    const std::string label(u->label);
    return QCoreApplication::translate("LabUnits", label.c_str());
}

QString formatLabValue(std::optional<double> value, const std::string& unit) {
    if (!value)
        return {};
    const double v = *value;
    if (!std::isfinite(v))
        return QString::number(v);
    if (unit == "bytes")
        return formatBytes(v);
    const QString label = labUnitLabel(unit);
    QString number;
    if (unit == "count" && std::fabs(v - std::round(v)) < 1e-9)
        number = QString::number(static_cast<long long>(std::llround(v)));
    else
        number = QString::number(v, 'g', std::fabs(v) >= 1000 ? 6 : 4);
    if (unit == "count")
        return number;
    return number + QLatin1Char(' ') + label;
}

std::optional<double> parsePrediction(const QString& text, QString* error) {
    const QString t = text.trimmed();
    if (t.isEmpty()) {
        if (error)
            error->clear();
        return std::nullopt;
    }
    try {
        const double v = evaluateExpr(t.toStdString(), {});
        if (!std::isfinite(v)) {
            if (error)
                *error =
                    QCoreApplication::translate("LabView", "'%1' is not a finite number").arg(t);
            return std::nullopt;
        }
        return v;
    } catch (const ExprError& e) {
        if (error)
            *error = QCoreApplication::translate("LabView", "'%1' is not a number: %2")
                         .arg(t, QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

namespace {

QString tick(bool ok) {
    return ok ? QStringLiteral("✓") : QStringLiteral("✗");
}

// "1.5 ψ: ✓ formula (graded) · ✗ run": both sides the answer can be held against, the
// one the step grades on first.
QString answerText(const CheckResult& check, double prediction, const PredictionGrade& g) {
    const QString formula = QCoreApplication::translate("LabReport", "formula");
    const QString run = check.measured ? QCoreApplication::translate("LabReport", "run")
                                       : QCoreApplication::translate("LabReport", "planner");
    QStringList sides;
    auto add = [&](std::optional<bool> v, const QString& name, bool graded) {
        if (!v)
            return;
        const QString s = tick(*v) + QLatin1Char(' ') + name;
        if (graded)
            sides.prepend(QCoreApplication::translate("LabReport", "%1 (graded)").arg(s));
        else
            sides << s;
    };
    add(g.run, run, g.graded == GradeAgainst::Run);
    add(g.formula, formula, g.graded == GradeAgainst::Formula);
    return QCoreApplication::translate("LabReport", "%1: %2")
        .arg(formatLabValue(prediction, check.unit), sides.join(QStringLiteral(" · ")));
}

QString percentApart(double d) {
    return QString::number(d * 100, 'g', 2);
}

// Two sides of a value check: "planner = run" when exact, "planner ≈ run (12% apart)"
// within the check's tolerance, "planner ≠ run (31% apart)" beyond it.
QString pairText(const QString& a, double x, const QString& b, double y, double tolerance) {
    const double d = relativeDifference(x, y);
    if (d <= kExactDifference)
        return a + QStringLiteral(" = ") + b;
    const QString op = d <= tolerance ? QStringLiteral(" ≈ ") : QStringLiteral(" ≠ ");
    return QCoreApplication::translate("LabReport", "%1 (%2% apart)")
        .arg(a + op + b, percentApart(d));
}

// A value check: the sides it compares and how close each pair is, computed from the
// values, so that "formula = planner = run" is said only where all three are equal and a
// formula the engine beats reads "planner = run, 5.7% below the formula".
QString valueAgreement(const CheckResult& check) {
    const QString formula = QCoreApplication::translate("LabReport", "formula");
    const QString planner = QCoreApplication::translate("LabReport", "planner");
    const QString run = QCoreApplication::translate("LabReport", "run");
    QString text;
    QString reference; // what the formula is held against
    std::optional<double> value;
    if (check.planner && check.measured) {
        text = pairText(planner, *check.planner, run, *check.measured, check.tolerance);
        reference = text;
        value = check.planner;
    } else if (check.planner || check.measured) {
        text = check.planner ? planner : run;
        reference = text;
        value = check.planner ? check.planner : check.measured;
    }
    if (!check.formula)
        return text;
    if (!value)
        return formula;
    const double d = relativeDifference(*check.formula, *value);
    const bool exactPair = !check.planner || !check.measured ||
                           relativeDifference(*check.planner, *check.measured) <= kExactDifference;
    if (d <= kExactDifference && exactPair)
        return formula + QStringLiteral(" = ") + reference;
    if (d <= kExactDifference)
        return QCoreApplication::translate("LabReport", "%1, equal to the formula").arg(text);
    const QString off = *value < *check.formula
                            ? QCoreApplication::translate("LabReport", "%1, %2% below the formula")
                            : QCoreApplication::translate("LabReport", "%1, %2% above the formula");
    const QString said = off.arg(text, percentApart(d));
    return d <= check.formula_tolerance
               ? said
               : QCoreApplication::translate("LabReport", "%1 (beyond its %2%)")
                     .arg(said, percentApart(check.formula_tolerance));
}

// "✓ formula = planner = run", "✓ planner = run, 5.7% below the formula", "✗ planner ≠ run
// (31% apart)": the sides a check compares and what agrees with what.
QString agreementText(const CheckResult& check) {
    if (check.kind == CheckKind::Value)
        return tick(check.agrees) + QLatin1Char(' ') + valueAgreement(check);
    QStringList sides;
    if (check.formula)
        sides << QCoreApplication::translate("LabReport", "formula");
    if (check.kind == CheckKind::Erratum) {
        sides << QCoreApplication::translate("LabReport", "correct sum");
    } else {
        const bool planned = std::any_of(check.points.begin(), check.points.end(),
                                         [](const RelationPoint& p) { return p.planner; });
        const bool measured = std::any_of(check.points.begin(), check.points.end(),
                                          [](const RelationPoint& p) { return p.measured; });
        if (planned)
            sides << QCoreApplication::translate("LabReport", "planner");
        if (measured)
            sides << QCoreApplication::translate("LabReport", "run");
    }
    if (check.kind == CheckKind::Relation)
        return tick(check.agrees) + QLatin1Char(' ') +
               QCoreApplication::translate("LabReport", "%1 as stated")
                   .arg(sides.join(QStringLiteral(", ")));
    return tick(check.agrees) + QLatin1Char(' ') +
           sides.join(check.agrees ? QStringLiteral(" = ") : QStringLiteral(" ≠ "));
}

} // namespace

LabReportRow labReportRow(const CheckResult& check, std::optional<double> prediction,
                          const std::string& lang) {
    LabReportRow row;
    row.label = QString::fromStdString(check.label.in(lang));
    if (prediction) {
        const PredictionGrade g = gradePrediction(check, *prediction, check.grade);
        row.prediction = answerText(check, *prediction, g);
        row.answerHit = g.hit;
    }
    row.formula = formatLabValue(check.formula, check.unit);
    row.agrees = check.agrees;
    row.agreement = agreementText(check);
    QString explain = QString::fromStdString(check.explain.in(lang));
    if (check.kind == CheckKind::Relation) {
        QStringList planned, measured;
        for (const RelationPoint& p : check.points) {
            planned << formatLabValue(p.planner, check.unit);
            measured << formatLabValue(p.measured, check.unit);
        }
        row.planner = planned.join(QStringLiteral(" · "));
        row.measured = measured.join(QStringLiteral(" · "));
    } else if (check.kind == CheckKind::Erratum) {
        // The chapter's claim in the "measured" column would mislead: it goes in the
        // explanation beside the correct sum.
        row.planner = formatLabValue(check.planner, check.unit);
        const QString claim =
            QCoreApplication::translate("LabView", "The chapter: %1 = %2. Correct: %3 = %4.")
                .arg(runtimeText(check.claimed_text), formatLabValue(check.claimed, check.unit),
                     runtimeText(check.correct_text), formatLabValue(check.planner, check.unit));
        explain = explain.isEmpty() ? claim : claim + QLatin1Char(' ') + explain;
    } else {
        row.planner = formatLabValue(check.planner, check.unit);
        row.measured = formatLabValue(check.measured, check.unit);
    }
    if (!check.agrees && !check.reason.empty())
        explain = QString::fromStdString(check.reason) +
                  (explain.isEmpty() ? QString() : QStringLiteral(" — ") + explain);
    row.explain = explain;
    return row;
}

} // namespace zerolab
