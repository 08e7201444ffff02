// The lab report PDF (gui/views/lab/lab_report.h): written by QPdfWriter, rendered back with
// pdftoppm and checked to be a page with ink on it; a report that cannot be written
// says which file. ZEROLAB_SHOT_DIR=DIR keeps DIR/lab-report-unit.png to look at.
#include "gui/views/lab/lab_report.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"

#include "pdf_ink.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace zerolab;

class LabReportTest : public QObject {
    Q_OBJECT
private slots:
    void writesAPdfWithTextTableAndChart();
    void failedWriteNamesTheFileAndKeepsTheOldReport();
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

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    applyAppStyle(app);
    LabReportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "lab_report_test.moc"
