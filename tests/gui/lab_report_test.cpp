// The lab report PDF (gui/views/lab/lab_report.h): written by QPdfWriter, rendered back with
// pdftoppm and checked to be a page with ink on it; a report that cannot be written
// says which file. ZEROLAB_SHOT_DIR=DIR keeps DIR/lab-report-unit.png to look at.
#include "gui/views/lab/lab_report.h"
#include "gui/views/lab/lab_values.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"

#include "pdf_ink.h"

#include <QAbstractTextDocumentLayout>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QtTest>

using namespace zerolab;

class LabReportTest : public QObject {
    Q_OBJECT
private slots:
    void writesAPdfWithTextTableAndChart();
    void failedWriteNamesTheFileAndKeepsTheOldReport();
    void answerIsGradedOnWhatTheStepAsksAndColouredInThePdf();
    void eachStepOnItsPageWithItsTitledChartAndWholeWords();
    void agreementSaysWhichSidesAreEqual();
    void eachCheckTableOnOnePageWhereItFits();
};

static LabReport sampleReport() {
    MemoryBarChart chart;
    chart.resize(900, 420);
    MemoryBarGroup g;
    g.label = QStringLiteral("N = 2");
    g.bytes[MemCategory::Params] = 4000000;
    g.bytes[MemCategory::OptimM] = 2000000;
    g.predictedBytes = 6e6;
    chart.setGroups({g});
    LabReport r;
    r.lessonId = QStringLiteral("stage1");
    r.title = QStringLiteral("阶段 1：优化器状态分片");
    r.student = QStringLiteral("Ada");
    r.created = QDateTime(QDate(2026, 12, 1), QTime(9, 0));
    LabReportStep step;
    step.title = QStringLiteral("Optimizer states at N = 2");
    step.text = QStringLiteral("Each rank keeps 1/N of m and v.\n\nSecond paragraph.");
    step.formula = QStringLiteral("4ψ + 12ψ/N");
    step.rows.push_back({QStringLiteral("optimizer states"), QStringLiteral("6.00 ψ"),
                         QStringLiteral("6.00 ψ"), QStringLiteral("6.00 ψ"),
                         QStringLiteral("6.00 ψ"), true, QStringLiteral("padding to N")});
    step.rows.push_back({QStringLiteral("traffic"),
                         {},
                         QStringLiteral("1.00 ψ"),
                         QStringLiteral("1.00 ψ"),
                         QStringLiteral("1.20 ψ"),
                         false,
                         {}});
    step.chart = chart.grab().toImage();
    r.steps.push_back(step);
    return r;
}

void LabReportTest::writesAPdfWithTextTableAndChart() {
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(writeLabReportPdf(sampleReport(), pdf, &error), qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(5) == "%PDF-");

    const PdfInk ink = pdfFirstPageInk(pdf, dir.path());
    if (!ink.error.isEmpty())
        QSKIP(qPrintable(ink.error));
    // Text, a table and a chart: a few percent of the page is ink, and colour (the
    // chart's bars, the green and red verdicts) is there too.
    QVERIFY2(ink.inkFraction > 0.01, qPrintable(QString::number(ink.inkFraction)));
    QVERIFY2(ink.colourFraction > 0.001, qPrintable(QString::number(ink.colourFraction)));
    const QString shots = qEnvironmentVariable("ZEROLAB_SHOT_DIR");
    if (!shots.isEmpty())
        ink.image.save(QDir(shots).filePath(QStringLiteral("lab-report-unit.png")));
}

void LabReportTest::failedWriteNamesTheFileAndKeepsTheOldReport() {
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no-such-dir/report.pdf"));
    QString error;
    QVERIFY(!writeLabReportPdf(sampleReport(), missing, &error));
    QVERIFY2(error.contains(missing), qPrintable(error));

    // A directory in the way of the file: the write fails, the directory stays.
    const QString blocked = dir.filePath(QStringLiteral("blocked.pdf"));
    QVERIFY(QDir().mkpath(blocked));
    QVERIFY(!writeLabReportPdf(sampleReport(), blocked, &error));
    QVERIFY(QFileInfo(blocked).isDir());
}

// Lesson 3's stage-3 traffic: the paper's formula 3(N-1)/N = 1.5, the engine's run 1.415.
// A student who types 1.5 where the step grades against the formula is right, and the
// row says so beside the run's verdict; where the step grades against the run the same
// answer is wrong, in red on screen and in the PDF, and the check's "agrees" names what
// agrees with what instead of a bare "yes" beside a wrong answer.
void LabReportTest::answerIsGradedOnWhatTheStepAsksAndColouredInThePdf() {
    CheckResult c;
    c.kind = CheckKind::Value;
    c.label.en = "Traffic per rank per step at stage 3";
    c.unit = "psi_elements";
    c.formula = 1.5;
    c.planner = 1.415;
    c.measured = 1.415;
    c.agrees = true; // formula within formula_tolerance, planner = measured
    c.formula_tolerance = 0.08;
    c.grade = GradeAgainst::Formula;
    const LabReportRow byFormula = labReportRow(c, 1.5, "en");
    QCOMPARE(byFormula.answerHit, std::optional<bool>(true));
    QVERIFY2(byFormula.prediction.contains(QStringLiteral("✓ formula (graded)")),
             qPrintable(byFormula.prediction));
    QVERIFY2(byFormula.prediction.contains(QStringLiteral("✗ run")),
             qPrintable(byFormula.prediction));
    // Issue 39 item 1: the formula is not said equal to a planner and run 5.7% below it.
    QCOMPARE(byFormula.agreement, QStringLiteral("✓ planner = run, 5.7% below the formula"));

    c.grade = GradeAgainst::Run;
    const LabReportRow byRun = labReportRow(c, 1.5, "en");
    QCOMPARE(byRun.answerHit, std::optional<bool>(false));
    QVERIFY2(byRun.prediction.startsWith(QStringLiteral("1.5 ψ (elements): ✗ run (graded)")),
             qPrintable(byRun.prediction));

    LabReport r;
    r.title = QStringLiteral("Stages 2 and 3");
    LabReportStep step;
    step.title = QStringLiteral("Traffic");
    step.rows = {byRun};
    r.steps = {step};
    const QString html = labReportHtml(r);
    QVERIFY2(html.contains(QStringLiteral("<td class=\"bad\">1.5 ψ (elements): ✗ run (graded)")),
             qPrintable(html));
    QVERIFY2(html.contains(
                 QStringLiteral("<td class=\"ok\">✓ planner = run, 5.7% below the formula</td>")),
             qPrintable(html));
}

// Issue 39 item 1: what agrees with what is computed from the values: all three equal, a
// time within its tolerance, a formula beyond its own.
void LabReportTest::agreementSaysWhichSidesAreEqual() {
    CheckResult c;
    c.kind = CheckKind::Value;
    c.unit = "psi";
    c.formula = 7.0;
    c.planner = 7.0;
    c.measured = 7.0;
    c.agrees = true;
    QCOMPARE(labReportRow(c, std::nullopt, "en").agreement,
             QStringLiteral("✓ formula = planner = run"));

    CheckResult t;
    t.kind = CheckKind::Value;
    t.unit = "ms";
    t.planner = 100;
    t.measured = 112;
    t.tolerance = 0.25;
    t.agrees = true;
    QCOMPARE(labReportRow(t, std::nullopt, "en").agreement,
             QStringLiteral("✓ planner ≈ run (11% apart)"));
    t.measured = 150;
    t.agrees = false;
    QCOMPARE(labReportRow(t, std::nullopt, "en").agreement,
             QStringLiteral("✗ planner ≠ run (33% apart)"));

    c.formula = 6.0;
    c.formula_tolerance = 0.01;
    c.agrees = false;
    QCOMPARE(labReportRow(c, std::nullopt, "en").agreement,
             QStringLiteral("✗ planner = run, 14% above the formula (beyond its 1%)"));

    CheckResult plan; // a plan step: no run
    plan.kind = CheckKind::Value;
    plan.unit = "GB";
    plan.formula = 13.4;
    plan.planner = 13.4;
    plan.agrees = true;
    QCOMPARE(labReportRow(plan, std::nullopt, "en").agreement,
             QStringLiteral("✓ formula = planner"));
}

// Issue 39 item 6: lesson 3's PDF had pages holding a table's last one or two rows. Steps
// whose text leaves their table less room on the page each time: every table that fits on
// a page is on one page; one longer than a page repeats its heading row on each.
void LabReportTest::eachCheckTableOnOnePageWhereItFits() {
    const LabReport sample = sampleReport();
    LabReport r = sample;
    r.steps.clear();
    LabReportStep step = sample.steps.front();
    step.rows.clear();
    for (int i = 0; i < 8; ++i)
        step.rows.push_back({QStringLiteral("Traffic per rank per step at stage %1").arg(i),
                             {},
                             QStringLiteral("3 B/ψ"),
                             QStringLiteral("2.829 B/ψ"),
                             QStringLiteral("2.829 B/ψ"),
                             true,
                             {},
                             std::nullopt,
                             QStringLiteral("✓ planner = run, 5.7% below the formula")});
    QString text;
    for (int i = 0; i < 24; ++i) {
        text += QStringLiteral("Stage 3 gathers each layer before its forward and again before "
                               "its backward, and reduce-scatters the gradients.\n\n");
        step.text = text;
        r.steps.push_back(step);
    }
    LabReportStep longer = step;
    longer.text.clear();
    for (int i = 0; i < 6; ++i)
        longer.rows += step.rows;
    r.steps.push_back(longer);

    QTextDocument doc;
    const QSizeF page(600, 848);
    layOutLabReport(r, page, &doc);
    const qreal room = page.height() - 2 * doc.documentMargin();
    int tables = 0, fitting = 0;
    for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
        auto* table = qobject_cast<QTextTable*>(frame);
        if (!table)
            continue;
        ++tables;
        const QRectF box = doc.documentLayout()->frameBoundingRect(table);
        const int first = int(box.top() / page.height());
        const int last = int(box.bottom() / page.height());
        QCOMPARE(table->format().headerRowCount(), 1);
        if (box.height() <= room) {
            ++fitting;
            QVERIFY2(first == last, qPrintable(QStringLiteral("table %1: pages %2 to %3 (%4 px)")
                                                   .arg(tables)
                                                   .arg(first + 1)
                                                   .arg(last + 1)
                                                   .arg(box.height())));
        } else {
            QVERIFY2(table->rows() > 40, qPrintable(QString::number(table->rows())));
        }
    }
    QCOMPARE(tables, r.steps.size());
    QCOMPARE(fitting, r.steps.size() - 1);
}

// The text of page `page` (1-based) of a PDF, by pdftotext; null when the tool is missing.
static QString pdfPageText(const QString& pdf, int page) {
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
    if (tool.isEmpty())
        return {};
    QProcess p;
    p.start(tool, {QStringLiteral("-f"), QString::number(page), QStringLiteral("-l"),
                   QString::number(page), pdf, QStringLiteral("-")});
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        return {};
    return QString::fromUtf8(p.readAllStandardOutput());
}

// Issue 27 items 9 and 11: a step and its chart share a page (each step from a page of its
// own), the chart carries its lesson's title, a long label wraps between words and never
// inside one, and the date is written in the report's language.
void LabReportTest::eachStepOnItsPageWithItsTitledChartAndWholeWords() {
    LabReport r = sampleReport();
    r.locale = QLocale(QStringLiteral("zh_CN"));
    const QImage chart = r.steps.front().chart;
    r.steps.front().chartTitle = QStringLiteral("Memory per rank, step one");
    LabReportRow wide = r.steps.front().rows.front();
    wide.label = QStringLiteral("Reduce-scatters per optimizer step, accumulation four, "
                                "stage two, overlapped communication");
    wide.agreement = QStringLiteral("✓ formula = planner = run");
    r.steps.front().rows.push_back(wide);
    LabReportStep second;
    second.title = QStringLiteral("Gradients at stage two");
    second.text = QStringLiteral("Stage two reduce-scatters after every micro-batch.");
    second.chart = chart;
    second.chartTitle = QStringLiteral("Bytes sent per rank, step two");
    r.steps.push_back(second);

    const QString html = labReportHtml(r);
    const QString zhDate =
        QLocale(QStringLiteral("zh_CN")).toString(r.created, QLocale::ShortFormat);
    QVERIFY2(html.contains(zhDate.toHtmlEscaped()), qPrintable(html.left(600)));

    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("two-steps.pdf"));
    QString error;
    QVERIFY2(writeLabReportPdf(r, pdf, &error), qPrintable(error));
    const QString one = pdfPageText(pdf, 1);
    if (one.isNull())
        QSKIP("pdftotext not found (Debian: poppler-utils, in scripts/install-deps)");
    const QString two = pdfPageText(pdf, 2);
    QVERIFY2(one.contains(QStringLiteral("Optimizer states at N = 2")), qPrintable(one));
    QVERIFY2(one.contains(QStringLiteral("Memory per rank, step one")), qPrintable(one));
    QVERIFY2(!one.contains(QStringLiteral("Gradients at stage two")), qPrintable(one));
    QVERIFY2(two.contains(QStringLiteral("Gradients at stage two")), qPrintable(two));
    QVERIFY2(two.contains(QStringLiteral("Bytes sent per rank, step two")), qPrintable(two));
    const QString words = one.simplified();
    for (const char* word :
         {"Reduce-scatters", "accumulation", "overlapped", "communication", "optimizer", "planner"})
        QVERIFY2(words.contains(QLatin1String(word)), qPrintable(word + (": " + words)));
}

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    applyAppStyle(app);
    LabReportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "lab_report_test.moc"
