// The Pareto frontier (gui/core/pareto_frontier.h) and the Tune view's chart that draws it.
// ZEROLAB_SHOT_DIR=DIR also writes the chart to DIR/pareto-chart.png to look at.
#include "gui/core/pareto_frontier.h"
#include "gui/widgets/pareto_chart.h"
#include "gui/widgets/style.h"

#include <QApplication>
#include <QDir>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <limits>

using namespace zerolab;

class ParetoChartTest : public QObject {
    Q_OBJECT
private slots:
    void frontierKeepsWhatNothingBeatsOnBothAxes();
    void frontierSkipsUnmeasuredPointsAndKeepsTheFirstOfEquals();
    void chartDrawsStagesFrontierAndCapacity();
};

void ParetoChartTest::frontierKeepsWhatNothingBeatsOnBothAxes() {
    // (memory, speed): 0 and 2 are dominated by 1; 3 needs more memory for more speed;
    // 4 is slower than 3 at more memory; 5 is the smallest and slowest.
    const std::vector<TradeoffPoint> p = {{100, 50}, {80, 60},  {120, 55},
                                          {150, 90}, {160, 85}, {40, 10}};
    QCOMPARE(paretoFrontier(p), (std::vector<int>{5, 1, 3}));
    QVERIFY(paretoFrontier({}).empty());
    QCOMPARE(paretoFrontier({{5, 5}}), std::vector<int>{0});
}

void ParetoChartTest::frontierSkipsUnmeasuredPointsAndKeepsTheFirstOfEquals() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<TradeoffPoint> p = {{nan, 500}, {100, nan}, {100, 70},
                                          {100, 70},  {90, -1},   {100, 75}};
    // Same memory: only the fastest (5); duplicates of it would keep the first.
    QCOMPARE(paretoFrontier(p), std::vector<int>{5});
    QCOMPARE(paretoFrontier({{10, 7}, {10, 7}}), std::vector<int>{0});
}

void ParetoChartTest::chartDrawsStagesFrontierAndCapacity() {
    ParetoChart chart;
    QVERIFY(!chart.plot()->legend->visible()); // nothing to name yet
    QCOMPARE(chart.plot()->itemCount(), 1);    // the "no finished trial" text
    QSignalSpy activated(&chart, &ParetoChart::trialActivated);
    chart.setTrials({
        {1, 0, 147e6, 3500, "stage 0 · N=2 · micro 8"},
        {2, 1, 134e6, 3600, "stage 1 · N=2 · micro 8"},
        {3, 1, 76e6, 3000, "stage 1 · N=2 · micro 8 · full recompute"},
        {4, 3, 70e6, 2200, "stage 3 · N=2 · micro 8 · full recompute"},
        {5, 2, 131e6, 3400, "stage 2 · N=2 · micro 8"},
    });
    chart.setCapacity(140e6, "capacity 140 MB per rank");
    chart.resize(640, 360);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.plot()->replot();

    // 5 (131 MB, 3400) is on it: less memory than 2, faster than 3; 1 is beaten by 2.
    QCOMPARE(chart.frontierIds(), (QVector<long long>{4, 3, 5, 2}));
    // The frontier and one graph per stage present (0, 1, 2, 3), named in the legend.
    QCOMPARE(chart.plot()->graphCount(), 5);
    QCOMPARE(chart.plot()->graph(0)->dataCount(), 4);
    QStringList names;
    for (int i = 0; i < chart.plot()->graphCount(); ++i)
        names << chart.plot()->graph(i)->name();
    QCOMPARE(names, (QStringList{"Pareto frontier", "ZeRO 0", "ZeRO 1", "ZeRO 2", "ZeRO 3"}));
    QCOMPARE(chart.plot()->graph(2)->dataCount(), 2);
    QCOMPARE(chart.plot()->graph(2)->scatterStyle().pen().color(), ParetoChart::stageColor(1));
    // The capacity line at 140 MB (axis in MB), inside the range.
    QCOMPARE(chart.plot()->xAxis->label(), QString("Peak memory per rank (MB)"));
    QVERIFY(chart.plot()->legend->visible());
    QCPItemStraightLine* line = nullptr;
    for (int i = 0; i < chart.plot()->itemCount(); ++i)
        if (auto* l = qobject_cast<QCPItemStraightLine*>(chart.plot()->item(i)))
            line = l;
    QVERIFY(line);
    QCOMPARE(line->point1->coords().x(), 140.0);
    QVERIFY(chart.plot()->xAxis->range().upper > 147.0);

    // A capacity far beyond every point is named at the edge, not drawn to scale (the
    // points would be squeezed against the axis).
    chart.setCapacity(12.6e9, "capacity 12.6 GB per rank");
    QVERIFY(chart.plot()->xAxis->range().upper < 200.0);
    QCOMPARE(chart.plot()->itemCount(), 1);
    auto* note = qobject_cast<QCPItemText*>(chart.plot()->item(0));
    QVERIFY(note && note->text().contains("far to the right"));
    chart.setCapacity(140e6, "capacity 140 MB per rank");
    chart.plot()->replot();

    // Double-click on trial 3's point asks to open it; beside every point does nothing.
    const QPoint at(int(chart.plot()->xAxis->coordToPixel(76)),
                    int(chart.plot()->yAxis->coordToPixel(3000)));
    QTest::mouseDClick(chart.plot(), Qt::LeftButton, {}, at);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), 3LL);
    QTest::mouseDClick(chart.plot(), Qt::LeftButton, {}, at + QPoint(40, 40));
    QCOMPARE(activated.count(), 1);

    if (const QString dir = qEnvironmentVariable("ZEROLAB_SHOT_DIR"); !dir.isEmpty())
        QVERIFY(chart.grab().save(QDir(dir).filePath("pareto-chart.png")));
}

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    applyAppStyle(app);
    ParetoChartTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "pareto_chart_test.moc"
