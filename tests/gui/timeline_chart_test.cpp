// The step timeline chart and panel over the in-memory fixtures: spans land on their
// rank's lane at their time, hovering names the span and outlines its collective on
// every rank, equal seq is linked across ranks, zoom changes only time, the empty and
// flat-memory messages, the panel's follow-latest requests, and that the fixtures
// show what the chart is for (prefetch, hidden reduce-scatters, a slow rank).
#include "gui/core/units.h"
#include "gui/timeline/timeline_chart.h"
#include "gui/timeline/timeline_panel.h"
#include "gui/timeline/timeline_style.h"
#include "gui/widgets/category_colors.h"
#include "gui/widgets/style.h"
#include "timeline_fixture.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using namespace zerolab;

namespace {

void moveMouse(QWidget* target, const QPointF& pos, Qt::KeyboardModifiers mods = {}) {
    QMouseEvent e(QEvent::MouseMove, pos, target->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                  mods);
    QCoreApplication::sendEvent(target, &e);
}

void wheel(QWidget* target, const QPointF& pos, int delta) {
    QWheelEvent e(pos, target->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(target, &e);
}

bool overlaps(const TimelineSpan& a, const TimelineSpan& b) {
    return a.start_us < b.end_us && b.start_us < a.end_us;
}

const TimelineSpan* find(const StepTimeline& t, int rank, SpanKind kind, int unit,
                         Collective c = Collective::AllReduce) {
    for (const auto& s : t.spans)
        if (s.rank == rank && s.kind == kind && s.unit == unit &&
            (kind != SpanKind::Collective || s.collective == c))
            return &s;
    return nullptr;
}

double waitOf(const StepTimeline& t, int rank) {
    double sum = 0;
    for (const auto& s : t.spans)
        if (s.rank == rank && s.kind == SpanKind::Wait)
            sum += s.end_us - s.start_us;
    return sum;
}

} // namespace

class TimelineChartTest : public QObject {
    Q_OBJECT
private:
    // A chart on screen at a realistic size, laid out and replotted.
    static void present(TimelineChart& chart, const StepTimeline& t) {
        chart.resize(1200, 560);
        chart.setTimeline(t);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.plot()->replot();
    }

private slots:
    void initTestCase() { applyAppStyle(*qApp); }

    // Each span sits on its rank's compute or comm row, at its time; spanAt finds it
    // back at its centre.
    void spansGoToTheirLanesAndTimes() {
        const StepTimeline t = stage3OverlapTimeline(2);
        TimelineChart chart;
        present(chart, t);
        const TimelineLayout& layout = chart.layout();
        QCOMPARE(layout.world(), 2);
        QCOMPARE(layout.spans().size(), t.spans.size());
        // Two lanes and a memory strip (activations change) per rank.
        QCOMPARE(layout.rows().size(), std::size_t(6));
        std::map<std::pair<int, int>, int> expected, drawn;
        for (const auto& s : t.spans)
            ++expected[{s.rank, int(laneOf(s.kind))}];
        QCPAxis* x = chart.plot()->xAxis;
        int hits = 0;
        for (int i = 0; i < int(layout.spans().size()); ++i) {
            const TimelineSpan& s = layout.spans()[std::size_t(i)];
            const TimelineRow& row = layout.rows()[std::size_t(layout.spanRow(i))];
            QCOMPARE(row.rank, s.rank);
            QCOMPARE(int(row.kind), int(laneOf(s.kind)));
            ++drawn[{row.rank, int(row.kind)}];
            const QPointF c = chart.spanCenter(i);
            QVERIFY(std::fabs(c.x() - x->coordToPixel((s.start_us + s.end_us) / 2000)) < 1.5);
            // Bars of a few pixels or more are found at their centre.
            if (x->coordToPixel(s.end_us / 1000) - x->coordToPixel(s.start_us / 1000) >= 4) {
                QCOMPARE(chart.spanAt(c), i);
                ++hits;
            }
        }
        QVERIFY(drawn == expected);
        QVERIFY(hits > int(t.spans.size()) / 2);
        // Rank 0's rows come first, top-down.
        QVERIFY(chart.plot()->yAxis->coordToPixel(layout.rows()[0].y) <
                chart.plot()->yAxis->coordToPixel(layout.rows()[3].y));
        // Between two ranks (the gap) there is no span.
        const double gapY = (layout.rows()[2].y + layout.rows()[3].y) / 2;
        QCOMPARE(
            chart.spanAt(QPointF(chart.spanCenter(0).x(), chart.plot()->yAxis->coordToPixel(gapY))),
            -1);
    }

    // Hovering an all-gather names rank, kind, unit, micro-batch, bytes, start and
    // duration, and outlines the same collective on the other rank.
    void hoverNamesTheSpanAndItsCollective() {
        const StepTimeline t = stage3OverlapTimeline(2);
        TimelineChart chart;
        present(chart, t);
        const auto& spans = chart.layout().spans();
        int gather = -1;
        for (int i = 0; i < int(spans.size()); ++i)
            if (spans[std::size_t(i)].rank == 1 &&
                spans[std::size_t(i)].kind == SpanKind::Collective &&
                spans[std::size_t(i)].collective == Collective::AllGather &&
                spans[std::size_t(i)].unit == 4)
                gather = i;
        QVERIFY(gather >= 0);
        const TimelineSpan& s = spans[std::size_t(gather)];
        moveMouse(chart.plot(), chart.spanCenter(gather));
        const QString text = chart.hoverText();
        for (const QString& part :
             {QStringLiteral("rank 1"), QStringLiteral("all-gather"), QStringLiteral("unit 4"),
              QStringLiteral("micro-batch 0"), formatBytes(double(s.bytes)),
              QStringLiteral("start %1").arg(formatMicros(s.start_us)),
              QStringLiteral("duration %1").arg(formatMicros(s.end_us - s.start_us))})
            QVERIFY2(text.contains(part), qPrintable(part + QStringLiteral(" not in ") + text));
        const auto& hot = chart.highlighted();
        QVERIFY(std::find(hot.begin(), hot.end(), gather) != hot.end());
        std::set<int> ranks;
        for (int i : hot) {
            QCOMPARE(spans[std::size_t(i)].seq, s.seq);
            ranks.insert(spans[std::size_t(i)].rank);
        }
        QVERIFY(ranks == (std::set<int>{0, 1}));

        // A forward bar: its own name; off every bar: nothing.
        int forward = -1;
        for (int i = 0; i < int(spans.size()); ++i)
            if (spans[std::size_t(i)].kind == SpanKind::Forward &&
                spans[std::size_t(i)].unit == 3 && spans[std::size_t(i)].rank == 0)
                forward = i;
        moveMouse(chart.plot(), chart.spanCenter(forward));
        QVERIFY(chart.hoverText().contains(QStringLiteral("rank 0 · Forward")));
        QVERIFY(chart.highlighted() == std::vector<int>{forward});
        moveMouse(chart.plot(), QPointF(2, 2));
        QVERIFY(chart.hoverText().isEmpty());
        QVERIFY(chart.highlighted().empty());
    }

    // Every collective is joined to the same seq on the next rank, and only to it.
    void linksJoinEqualSeqAcrossRanks() {
        const StepTimeline t = slowRankTimeline(4, 1);
        TimelineChart chart;
        present(chart, t);
        const auto& spans = chart.layout().spans();
        std::map<int, int> perSeq;
        for (const auto& [a, b] : chart.layout().links()) {
            const auto& sa = spans[std::size_t(a)];
            const auto& sb = spans[std::size_t(b)];
            QCOMPARE(int(sa.kind), int(SpanKind::Collective));
            QCOMPARE(sa.seq, sb.seq);
            QCOMPARE(sb.rank, sa.rank + 1);
            ++perSeq[sa.seq];
        }
        int collectivesOnRank0 = 0;
        for (const auto& s : t.spans)
            collectivesOnRank0 += s.rank == 0 && s.kind == SpanKind::Collective;
        QCOMPARE(int(perSeq.size()), collectivesOnRank0);
        for (const auto& [seq, n] : perSeq)
            QCOMPARE(n, 3);
        // A Wait names the collective it waited for: hovering it outlines that
        // collective on all four ranks.
        int wait = -1;
        for (int i = 0; i < int(spans.size()); ++i)
            if (spans[std::size_t(i)].kind == SpanKind::Wait && spans[std::size_t(i)].rank == 0)
                wait = i;
        QVERIFY(wait >= 0);
        int collectives = 0;
        for (int i : chart.layout().linked(wait))
            collectives += spans[std::size_t(i)].kind == SpanKind::Collective;
        QCOMPARE(collectives, 4);
    }

    // The wheel zooms time around the cursor, never the rows; double-click shows the
    // whole step again; ranges stay inside the step.
    void zoomChangesOnlyTime() {
        const StepTimeline t = stage2NoOverlapTimeline(2);
        TimelineChart chart;
        present(chart, t);
        const QCPRange whole = chart.xRange();
        const QCPRange rows = chart.plot()->yAxis->range();
        QCOMPARE(whole.lower, 0.0);
        QVERIFY(whole.upper >= chart.layout().endUs() / 1000);
        QVERIFY(!chart.zoomed());
        const QPointF centre = chart.plot()->axisRect()->rect().center();
        wheel(chart.plot(), centre, 240);
        QVERIFY(chart.xRange().size() < 0.9 * whole.size());
        QVERIFY(chart.zoomed());
        QCOMPARE(chart.plot()->yAxis->range(), rows);
        QTest::mouseDClick(chart.plot(), Qt::LeftButton, {}, centre.toPoint());
        QCOMPARE(chart.xRange(), whole);
        chart.setXRange(-500, 1e6);
        QCOMPARE(chart.xRange().size(), whole.size() * (1.02 / 1.01));
        chart.setXRange(3.0, 3.000001);
        QVERIFY(chart.xRange().size() >= 0.005 - 1e-12);
    }

    // Shift+drag over the plot zooms time to the dragged interval.
    void shiftDragZoomsToTheInterval() {
        TimelineChart chart;
        present(chart, stage3OverlapTimeline(2));
        QCustomPlot* plot = chart.plot();
        const QRect area = plot->axisRect()->rect();
        const QPointF from(plot->xAxis->coordToPixel(10), area.center().y());
        const QPointF to(plot->xAxis->coordToPixel(20), area.center().y() + 20);
        const auto send = [&](QEvent::Type type, const QPointF& pos, Qt::MouseButtons buttons) {
            QMouseEvent e(type, pos, plot->mapToGlobal(pos), Qt::LeftButton, buttons,
                          Qt::ShiftModifier);
            QCoreApplication::sendEvent(plot, &e);
        };
        send(QEvent::MouseButtonPress, from, Qt::LeftButton);
        send(QEvent::MouseMove, (from + to) / 2, Qt::LeftButton);
        send(QEvent::MouseMove, to, Qt::LeftButton);
        send(QEvent::MouseButtonRelease, to, Qt::NoButton);
        QVERIFY(std::fabs(chart.xRange().lower - 10) < 0.2);
        QVERIFY(std::fabs(chart.xRange().upper - 20) < 0.2);
    }

    // Eight ranks fit a 1280 px card: nothing (the per-rank summary) forces it wider,
    // and the render is a real picture.
    void panelFitsACardAt1280() {
        TimelinePanel panel;
        QObject::connect(&panel, &TimelinePanel::stepRequested, &panel,
                         [&panel](long long s) { panel.setTimeline(stage3OverlapTimeline(8, s)); });
        panel.setSteps({50, 100});
        QCOMPARE(panel.shownStep(), 100LL);
        QVERIFY(panel.summary().contains(QStringLiteral("least rank")));
        QVERIFY(panel.minimumSizeHint().width() <= 1256);
        panel.resize(1256, panel.sizeHint().height());
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.chart()->plot()->replot();
        QCOMPARE(panel.width(), 1256);
        const QImage image = panel.grab().toImage();
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 3)
            for (int x = 0; x < image.width(); x += 3)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 40, qPrintable(QString::number(colours.size())));
    }

    // No sampled step, or a step without spans: a centred explanation, no plot.
    void emptyShowsAnExplanation() {
        TimelinePanel panel;
        panel.setSteps({});
        QVERIFY(panel.chart()->showsMessage());
        QVERIFY(panel.chart()->messageText().contains(QStringLiteral("No timeline recorded")));
        QVERIFY(panel.chart()->messageText().contains(QStringLiteral("run.timeline_every")));
        TimelineChart chart;
        StepTimeline none;
        none.step = 5;
        none.world = 2;
        chart.setTimeline(none);
        QVERIFY(chart.showsMessage());
        QVERIFY(chart.messageText().contains(QStringLiteral("step 5")));
        chart.setTimeline(stage3OverlapTimeline(2));
        QVERIFY(!chart.showsMessage());
    }

    // Categories that change get a strip; flat ones are named as preallocated.
    void flatMemoryIsNamedChangingMemoryIsDrawn() {
        TimelineChart chart;
        chart.setTimeline(stage3OverlapTimeline(2));
        QVERIFY(chart.layout().changingCategories() ==
                std::vector<MemCategory>{MemCategory::Activations});
        QVERIFY(chart.layout().hasMemoryStrip());
        QVERIFY(chart.memoryCaption().contains(QStringLiteral("flat through the step")));
        QVERIFY(chart.memoryCaption().contains(QStringLiteral("Comm buffers")));
        QVERIFY(chart.memoryCaption().contains(memCategoryLabel(MemCategory::Workspace)));
        QVERIFY(!chart.memoryCaption().contains(QStringLiteral("Activations")));
        // Activations at the turn from forward to backward exceed those at the start.
        const TimelineLayout& layout = chart.layout();
        const TimelineSpan* b7 = nullptr;
        for (const auto& s : layout.spans())
            if (s.rank == 0 && s.kind == SpanKind::Backward && s.unit == 7)
                b7 = &s;
        QVERIFY(b7);
        QVERIFY(layout.memoryAt(0, b7->start_us).at(0).second > layout.memoryAt(0, 0).at(0).second);

        // Only flat samples: no strip (two rows per rank), and the caption says so.
        StepTimeline flat = stage3OverlapTimeline(2);
        flat.memory.erase(std::remove_if(flat.memory.begin(), flat.memory.end(),
                                         [](const TimelineMemory& m) {
                                             return m.category == MemCategory::Activations;
                                         }),
                          flat.memory.end());
        chart.setTimeline(flat);
        QVERIFY(!chart.layout().hasMemoryStrip());
        QCOMPARE(chart.layout().rows().size(), std::size_t(4));
        QVERIFY(chart.memoryCaption().startsWith(
            QStringLiteral("Preallocated buffers: flat through the step")));
    }

    // The legend lists the kinds present, collectives by kind, Wait as exposed comm.
    void legendNamesTheKindsPresent() {
        TimelineChart chart;
        chart.setTimeline(stage2NoOverlapTimeline(2, 1, true));
        const QStringList labels = chart.legendLabels();
        for (const char* l : {"Forward", "Backward", "Recompute", "Optimizer",
                              "Wait (exposed comm)", "reduce-scatter", "all-gather", "all-reduce"})
            QVERIFY2(labels.contains(QString::fromLatin1(l)), l);
        QVERIFY(!labels.contains(QStringLiteral("Checkpoint")));
        QVERIFY(!labels.contains(QStringLiteral("broadcast")));
        TimelineSpan f, r, b;
        f.kind = SpanKind::Forward;
        r.kind = SpanKind::Recompute;
        b.kind = SpanKind::Backward;
        QVERIFY(spanColor(r) != spanColor(f) && spanColor(r) != spanColor(b));
        std::set<QRgb> collectiveColors;
        for (std::size_t c = 0; c < kCollectiveCount; ++c) {
            TimelineSpan s;
            s.kind = SpanKind::Collective;
            s.collective = static_cast<Collective>(c);
            collectiveColors.insert(spanColor(s).rgb());
        }
        QCOMPARE(collectiveColors.size(), kCollectiveCount);
    }

    // Issue 39 item 8: the forecast under the measured step shares its time axis: both fit
    // the longer step, a millisecond is the same pixel on both, and a zoom or pan of one is
    // the other's. Before: each fitted its own step, so a forecast of three quarters of the
    // step was drawn as wide as the step.
    void forecastSharesTheTimeAxis() {
        TimelinePanel panel;
        QObject::connect(&panel, &TimelinePanel::stepRequested, &panel, [&panel](long long s) {
            panel.setTimeline(stage2NoOverlapTimeline(2, 2, false, s));
        });
        panel.setSteps({100});
        StepTimeline forecast = stage2NoOverlapTimeline(2, 2, false, 100);
        forecast.memory.clear();
        std::erase_if(forecast.spans, [](const TimelineSpan& s) { return s.rank != 0; });
        for (TimelineSpan& s : forecast.spans) {
            s.issue_us *= 0.75;
            s.start_us *= 0.75;
            s.end_us *= 0.75;
        }
        panel.setForecast(forecast);
        panel.resize(1200, 900);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.showsForecast());
        TimelineChart* measured = panel.chart();
        TimelineChart* predicted = panel.forecastChart();
        measured->plot()->replot();
        predicted->plot()->replot();
        const double end = measured->layout().endUs() / 1000;
        QVERIFY(predicted->layout().endUs() / 1000 < 0.8 * end);
        const auto sameAxis = [&] {
            const QCPRange a = measured->xRange(), b = predicted->xRange();
            return std::fabs(a.lower - b.lower) < 1e-9 && std::fabs(a.upper - b.upper) < 1e-9;
        };
        QVERIFY(sameAxis());
        QVERIFY(measured->xRange().upper >= end);
        for (const double ms : {0.0, 0.5 * end, predicted->layout().endUs() / 1000, end})
            QCOMPARE(qRound(measured->plot()->xAxis->coordToPixel(ms)),
                     qRound(predicted->plot()->xAxis->coordToPixel(ms)));
        QCOMPARE(measured->plot()->axisRect()->left(), predicted->plot()->axisRect()->left());
        QCOMPARE(measured->plot()->axisRect()->width(), predicted->plot()->axisRect()->width());
        measured->setXRange(0.1 * end, 0.4 * end);
        QVERIFY(sameAxis());
        predicted->setXRange(0.5 * end, 0.9 * end);
        QVERIFY(sameAxis());
        QVERIFY(std::fabs(measured->xRange().lower - 0.5 * end) < 1e-9);
        predicted->resetZoom();
        QVERIFY(sameAxis());
        QVERIFY(measured->xRange().upper >= end);
        panel.grab().save(QDir::temp().filePath(QStringLiteral("zerolab-timeline-forecast.png")));
    }

    // Following requests each new latest step once; a pick of an older step stops
    // following; late answers are dropped.
    void panelFollowsTheLatestStep() {
        TimelinePanel panel;
        QSignalSpy requested(&panel, &TimelinePanel::stepRequested);
        panel.setSteps({10, 20});
        QCOMPARE(requested.size(), 1);
        QCOMPARE(requested.takeFirst().at(0).toLongLong(), 20LL);
        panel.setSteps({10, 20});
        QCOMPARE(requested.size(), 0);
        panel.setSteps({10, 20, 30});
        QCOMPARE(requested.takeFirst().at(0).toLongLong(), 30LL);
        panel.setTimeline(stage3OverlapTimeline(2, 30));
        QCOMPARE(panel.shownStep(), 30LL);
        QVERIFY(panel.summary().contains(QStringLiteral("Step 30")));

        panel.pickStep(10);
        QVERIFY(!panel.following());
        QCOMPARE(requested.takeFirst().at(0).toLongLong(), 10LL);
        panel.setSteps({10, 20, 30, 40});
        QCOMPARE(requested.size(), 0);
        QCOMPARE(panel.requestedStep(), 10LL);
        panel.setTimeline(stage3OverlapTimeline(2, 30)); // a late answer
        QCOMPARE(panel.shownStep(), 30LL);
        panel.setTimeline(stage3OverlapTimeline(2, 10));
        QCOMPARE(panel.shownStep(), 10LL);

        panel.setFollowing(true);
        QCOMPARE(requested.takeFirst().at(0).toLongLong(), 40LL);
        panel.clear();
        QVERIFY(panel.chart()->showsMessage());
        QCOMPARE(panel.requestedStep(), -1LL);
    }

    // What the fixtures are for: the chart must show these at a glance.
    void fixturesShowPrefetchHiddenReduceScattersAndASlowRank() {
        // ZeRO-3 + overlap: the all-gather of unit k+1 runs during forward of unit k,
        // and the reduce-scatter of unit k during backward of unit k-1.
        const StepTimeline s3 = stage3OverlapTimeline(2);
        for (int k = 1; k <= 5; ++k) {
            const auto* f = find(s3, 0, SpanKind::Forward, k);
            const auto* ag = find(s3, 0, SpanKind::Collective, k + 1, Collective::AllGather);
            QVERIFY(f && ag && overlaps(*f, *ag));
        }
        for (int k = 2; k <= 6; ++k) {
            const auto* b = find(s3, 0, SpanKind::Backward, k - 1);
            const auto* rs = find(s3, 0, SpanKind::Collective, k, Collective::ReduceScatter);
            QVERIFY(b && rs && overlaps(*b, *rs));
        }
        // ZeRO-2 without overlap: every reduce-scatter blocks compute.
        const StepTimeline s2 = stage2NoOverlapTimeline(2, 2);
        int waits = 0;
        for (const auto& s : s2.spans)
            waits += s.rank == 0 && s.kind == SpanKind::Wait &&
                     s.collective == Collective::ReduceScatter;
        QCOMPARE(waits, 2 * 8);
        // A slow rank 1: the others wait far longer than it does.
        const StepTimeline slow = slowRankTimeline(4, 1);
        for (int r : {0, 2, 3})
            QVERIFY(waitOf(slow, r) > waitOf(slow, 1) + 5000);
        for (const auto* t : {&s3, &s2, &slow})
            for (const auto& s : t->spans) {
                QVERIFY(s.end_us >= s.start_us);
                QVERIFY(s.kind != SpanKind::Collective || s.issue_us <= s.start_us);
            }
    }
};

QTEST_MAIN(TimelineChartTest)
#include "timeline_chart_test.moc"
