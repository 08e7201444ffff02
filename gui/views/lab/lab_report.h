// The lab report: a finished lesson's steps, the student's predictions beside the
// formula, the planner and the measurement, and each step's chart, written as one A4
// PDF by Qt's own PDF writer (QPdfWriter) for handing in.
#pragma once

#include <QDateTime>
#include <QImage>
#include <QLocale>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

class QTextDocument;

namespace zerolab {

// One check of a step, every value already formatted in the check's unit ("—" or
// empty where a column has no value), so that the report shows what the view showed.
struct LabReportRow {
    QString label;
    QString prediction; // the student's answer; empty when none was typed
    QString formula;
    QString planner;
    QString measured;
    bool agrees = false;
    QString explain; // why formula, planner and measurement may differ
    // The answer's verdict on the side the step grades against (gradePrediction);
    // empty when no answer was typed. prediction then says both verdicts in words.
    std::optional<bool> answerHit;
    // What agrees with what, e.g. "✓ formula = planner = run"; empty: "yes" / "no".
    QString agreement;
};

// The headings of a step's check table, one per LabReportRow column (label, prediction,
// formula, planner, measured, agrees), in the current language: the Lab view's table
// and the report's.
QStringList labCheckHeadings();

struct LabReportStep {
    QString title;
    QString text;    // plain text, paragraphs separated by blank lines
    QString formula; // display formula, may be empty
    QVector<LabReportRow> rows;
    QImage chart;       // null: the step has no chart (or was not run)
    QString chartTitle; // the lesson's title of the chart; empty: "The chart"
};

struct LabReport {
    QString lessonId;
    QString title;
    QString student; // may be empty
    QDateTime created;
    QLocale locale; // the report's language: its date is written in it
    QVector<LabReportStep> steps;
};

// The report as HTML for QTextDocument, images referenced as "chart:<step>".
QString labReportHtml(const LabReport& report);

// The report in `doc` on pages of `page` (document pixels, the PDF's 600 px wide page):
// the HTML with its charts, each check table on one page where it fits on one (a page
// break before a table that would split), its heading row repeated where it does not.
void layOutLabReport(const LabReport& report, const QSizeF& page, QTextDocument* doc);

// Writes the PDF atomically (a temporary file renamed over `path` only when complete,
// so a failed export keeps an older report). False with `error` naming the file.
bool writeLabReportPdf(const LabReport& report, const QString& path, QString* error);

} // namespace zerolab
