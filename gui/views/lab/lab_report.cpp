// Lays the report out with QTextDocument (tables, wrapping, pagination) and prints
// it on a QPdfWriter that writes into a QSaveFile.

#include "gui/views/lab/lab_report.h"

#include "gui/widgets/style.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QLocale>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextOption>
#include <QTextTable>
#include <QUrl>

namespace zerolab {
namespace {

QString paragraphs(const QString& text) {
    QString html;
    for (const QString& p : text.split(QStringLiteral("\n\n"), Qt::SkipEmptyParts))
        html += QStringLiteral("<p>%1</p>")
                    .arg(p.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br/>")));
    return html;
}

QString cell(const QString& text, const char* extra = "") {
    return QStringLiteral("<td %1>%2</td>")
        .arg(QLatin1String(extra), text.isEmpty() ? QStringLiteral("—") : text.toHtmlEscaped());
}

QString chartName(int step) {
    return QStringLiteral("chart:%1").arg(step);
}

// Chart width on the page in document pixels (the page is laid out 600 px wide).
constexpr int kChartWidth = 560;

// The check table's columns (label, answer, formula, planner, measured, agrees), in
// percent of the page width: the label and the answer's two verdicts get the most. They
// add up to 88: each cell's padding (6 px a side, 72 px of the 600) takes the rest.
constexpr int kColumnPercent[] = {24, 17, 10, 10, 10, 17};

} // namespace

QStringList labCheckHeadings() {
    return {QCoreApplication::translate("LabReport", "Check"),
            QCoreApplication::translate("LabReport", "Your answer"),
            QCoreApplication::translate("LabReport", "Formula"),
            QCoreApplication::translate("LabReport", "Planner"),
            QCoreApplication::translate("LabReport", "Measured"),
            QCoreApplication::translate("LabReport", "Agrees")};
}

QString labReportHtml(const LabReport& report) {
    QString html =
        QStringLiteral("<html><head><style>"
                       "body { font-size: 10pt; }"
                       "h1 { font-size: 17pt; margin-bottom: 2px; }"
                       "h2 { font-size: 13pt; margin-top: 16px; color: %1; }"
                       "h2.next { page-break-before: always; }"
                       "p.caption { font-size: 10pt; font-weight: bold; margin-top: 8px; }"
                       "p.meta { color: %2; }"
                       "p.formula { font-size: 12pt; font-family: 'DejaVu Sans Mono', monospace; }"
                       "table.checks { border-collapse: collapse; margin-top: 6px; }"
                       "table.checks th { background: %3; padding: 3px 6px; text-align: left; }"
                       "table.checks td { padding: 3px 6px; border-bottom: 1px solid %3; }"
                       "td.ok { color: %4; font-weight: bold; }"
                       "td.bad { color: %5; font-weight: bold; }"
                       "p.explain { color: %6; font-size: 9pt; }"
                       "</style></head><body>")
            .arg(kAccent.name(), kTextMuted.name(), kGridColor.name(), kOkColor.name(),
                 kErrorColor.name(), kTextStrong.name());
    html += QStringLiteral("<h1>%1</h1>").arg(report.title.toHtmlEscaped());
    QString meta =
        QCoreApplication::translate("LabReport", "Lesson %1").arg(report.lessonId.toHtmlEscaped());
    if (!report.student.isEmpty())
        meta += QStringLiteral(" · ") + QCoreApplication::translate("LabReport", "Student: %1")
                                            .arg(report.student.toHtmlEscaped());
    meta += QStringLiteral(" · ") +
            report.locale.toString(report.created, QLocale::ShortFormat).toHtmlEscaped();
    html += QStringLiteral("<p class=\"meta\">%1</p>").arg(meta);

    for (int i = 0; i < report.steps.size(); ++i) {
        const LabReportStep& step = report.steps[i];
        // Each step from a page of its own: its text, its chart and its checks.
        html += QStringLiteral("<h2%1>%2. %3</h2>")
                    .arg(i > 0 ? QStringLiteral(" class=\"next\"") : QString())
                    .arg(i + 1)
                    .arg(step.title.toHtmlEscaped());
        html += paragraphs(step.text);
        if (!step.formula.isEmpty())
            html += QStringLiteral("<p class=\"formula\">%1</p>").arg(step.formula.toHtmlEscaped());
        // The chart right under the step's text, so that it is on the step's first page
        // even when the checks run onto the next.
        if (!step.chart.isNull())
            html += QStringLiteral("<p class=\"caption\">%1</p>")
                        .arg((step.chartTitle.isEmpty()
                                  ? QCoreApplication::translate("LabReport", "The chart")
                                  : step.chartTitle)
                                 .toHtmlEscaped()) +
                    QStringLiteral("<p><img src=\"%1\" width=\"%2\"/></p>")
                        .arg(chartName(i))
                        .arg(kChartWidth);
        if (!step.rows.isEmpty()) {
            html += QStringLiteral("<table class=\"checks\" width=\"100%\"><tr>");
            const QStringList headings = labCheckHeadings();
            for (int c = 0; c < headings.size(); ++c)
                html += QStringLiteral("<th width=\"%1%\">%2</th>")
                            .arg(kColumnPercent[c])
                            .arg(headings[c].toHtmlEscaped());
            html += QStringLiteral("</tr>");
            for (const LabReportRow& row : step.rows) {
                const QString agreement = !row.agreement.isEmpty() ? row.agreement
                                          : row.agrees
                                              ? QCoreApplication::translate("LabReport", "yes")
                                              : QCoreApplication::translate("LabReport", "no");
                const char* answerClass = !row.answerHit   ? ""
                                          : *row.answerHit ? "class=\"ok\""
                                                           : "class=\"bad\"";
                html += QStringLiteral("<tr>") + cell(row.label) +
                        cell(row.prediction, answerClass) + cell(row.formula) + cell(row.planner) +
                        cell(row.measured) +
                        cell(agreement, row.agrees ? "class=\"ok\"" : "class=\"bad\"") +
                        QStringLiteral("</tr>");
            }
            html += QStringLiteral("</table>");
            for (const LabReportRow& row : step.rows)
                if (!row.explain.isEmpty())
                    html += QStringLiteral("<p class=\"explain\"><b>%1:</b> %2</p>")
                                .arg(row.label.toHtmlEscaped(), row.explain.toHtmlEscaped());
        }
    }
    html += QStringLiteral("</body></html>");
    return html;
}

void layOutLabReport(const LabReport& report, const QSizeF& page, QTextDocument* doc) {
    // Lines break between words (and between CJK characters), never inside a word.
    QTextOption wrap = doc->defaultTextOption();
    wrap.setWrapMode(QTextOption::WordWrap);
    doc->setDefaultTextOption(wrap);
    for (int i = 0; i < report.steps.size(); ++i)
        if (!report.steps[i].chart.isNull())
            doc->addResource(QTextDocument::ImageResource, QUrl(chartName(i)),
                             report.steps[i].chart);
    doc->setHtml(labReportHtml(report));
    doc->setPageSize(page);
    // A check table that would run over a page's end starts on the next page when it fits
    // on one (no page holding a table's last row or two); a longer one repeats its heading
    // row on each page. In document order: a break moves what follows it.
    const qreal room = page.height() - 2 * doc->documentMargin();
    for (QTextFrame* frame : doc->rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table)
            continue;
        QTextTableFormat format = table->format();
        format.setHeaderRowCount(1);
        const QRectF box = doc->documentLayout()->frameBoundingRect(table);
        const bool splits = int(box.top() / page.height()) != int(box.bottom() / page.height());
        if (splits && box.height() <= room)
            format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
        table->setFormat(format);
    }
}

bool writeLabReportPdf(const LabReport& report, const QString& path, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QCoreApplication::translate("LabReport", "Cannot write the lab report %1: %2")
                         .arg(path, file.errorString());
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setTitle(report.title);
        writer.setCreator(QStringLiteral("zerolab"));
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(16, 16, 16, 16), QPageLayout::Millimeter);
        writer.setResolution(300);

        QTextDocument doc;
        // Lay the text out on a 600 px wide page so that fonts and the chart width in
        // the HTML keep their proportions whatever the writer's resolution.
        const QSizeF page = writer.pageLayout().paintRectPoints().size();
        layOutLabReport(report, QSizeF(600, 600 * page.height() / page.width()), &doc);
        doc.print(&writer);
    }
    if (!file.commit()) {
        if (error)
            *error = QCoreApplication::translate("LabReport", "Cannot write the lab report %1: %2")
                         .arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace zerolab
