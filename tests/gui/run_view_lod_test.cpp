// The Run view over long runs: a run of more than kFullDetailSteps steps opens as a
// level of detail that still draws a one-step loss spike and a one-step dip; zooming
// into a range refines it to the steps as logged (and keeps the zoom); a live run
// opened as a level of detail keeps appending the steps it logs.
#include "fixture_store.h"
#include "gui/client/store_client.h"
#include "gui/core/step_detail.h"
#include "gui/views/run/run_view.h"
#include "gui/widgets/time_series_plot.h"
#include "storage/run_writer.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace zerolab;

namespace {

constexpr int kSteps = 30000;
constexpr int kSpikeStep = 23456;
constexpr double kSpike = 40.0;
constexpr int kDipStep = 5432;
constexpr double kDip = 0.05;

double maxOf(const QVector<double>& v) {
    return *std::max_element(v.begin(), v.end());
}
double minOf(const QVector<double>& v) {
    return *std::min_element(v.begin(), v.end());
}

// The drawn points of a plot's first graph (the raw loss).
QVector<double> drawnValues(QCustomPlot* plot) {
    QVector<double> out;
    for (const auto& p : *plot->graph(0)->data())
        out << p.value;
    return out;
}

StepRecord liveStep(std::int64_t step, double loss) {
    StepRecord s;
    s.step = step;
    s.loss = loss;
    s.wall_time_s = 0.1 * double(step);
    s.tokens = 1024 * (step + 1);
    s.tokens_per_s = 10000;
    s.fwd_ms = s.bwd_ms = s.optim_ms = s.comm.exposed_ms = 1.0;
    RankRecord r;
    r.rank = 0;
    r.rss = 1000;
    s.ranks.push_back(r);
    return s;
}

} // namespace

class RunViewLodTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    qint64 m_id = 0;

    void openStore(StoreClient& store) {
        QSignalSpy opened(&store, &StoreClient::opened);
        store.open(m_db);
        QVERIFY(opened.wait(10000));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        FixtureRun r{"long-run", 2, 2, kSteps, false, {"long"}};
        r.lossAt = {{kSpikeStep, kSpike}, {kDipStep, kDip}};
        m_id = writeFixtureStore(m_db.toStdString(), {r}).front();
    }

    void opensAsALevelOfDetailThatKeepsTheSpikeAndTheDip() {
        StoreClient store;
        RunView view(&store);
        view.resize(1200, 1400);
        openStore(store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(m_id);
        QVERIFY(loaded.wait(20000));
        QVERIFY(view.isLevelOfDetail());
        QCOMPARE(view.loggedSteps(), std::int64_t(kSteps));
        QVERIFY(view.steps().size() <= 2 * kLodBuckets + 4 * 128);
        QVERIFY(view.steps().size() < kSteps / 4);
        QCOMPARE(maxOf(view.steps()[Metric::Loss]), kSpike);
        QCOMPARE(minOf(view.steps()[Metric::Loss]), kDip);
        // What the loss plot holds, not only what the view read.
        const QVector<double> drawn = drawnValues(view.lossPlot()->plot());
        QCOMPARE(maxOf(drawn), kSpike);
        QCOMPARE(minOf(drawn), kDip);
        // The run's last steps as logged: the header's last loss is the last step's.
        QCOMPARE(view.steps().last(Metric::Step), double(kSteps - 1));
    }

    void zoomingInRefinesToTheLoggedSteps() {
        StoreClient store;
        RunView view(&store);
        view.resize(1200, 1400);
        openStore(store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(m_id);
        QVERIFY(loaded.wait(20000));
        QSignalSpy refined(&view, &RunView::detailShown);
        QCustomPlot* plot = view.lossPlot()->plot();
        plot->xAxis->setRange(23000, 23999); // as a wheel zoom ends
        QVERIFY(refined.wait(20000));
        const StepColumns& shown = view.shownSteps();
        const QVector<double>& steps = shown[Metric::Step];
        auto from = std::lower_bound(steps.begin(), steps.end(), 23000.0);
        QVERIFY(from != steps.end());
        for (int s = 23000; s <= 23999; ++s, ++from)
            QCOMPARE(*from, double(s)); // every step, one row each
        const qsizetype at =
            std::lower_bound(steps.begin(), steps.end(), double(kSpikeStep)) - steps.begin();
        QCOMPARE(shown[Metric::Loss][at], kSpike);
        // The refinement keeps the user's zoom.
        QCOMPARE(plot->xAxis->range().lower, 23000.0);
        QCOMPARE(plot->xAxis->range().upper, 23999.0);
        // The rest of the run is still drawn, coarse, around the refined range.
        QCOMPARE(steps.front(), 0.0);
        QCOMPARE(steps.back(), double(kSteps - 1));
        for (qsizetype i = 1; i < steps.size(); ++i)
            QVERIFY(steps[i - 1] < steps[i]);
    }

    void aLiveRunKeepsAppending() {
        const QString db = m_dir.filePath(QStringLiteral("live.db"));
        RunWriter writer(RunStore::open(db.toStdString()));
        RunInfo info;
        info.name = "live-long";
        info.world = 1;
        info.stage = 0;
        const std::int64_t id = writer.createRun(info);
        writer.beginSegment({});
        std::vector<StepRecord> steps;
        for (int s = 0; s < 25000; ++s)
            steps.push_back(liveStep(s, 3.0 - s * 1e-5));
        writer.appendSteps(steps);

        StoreClient store;
        RunView view(&store);
        QSignalSpy opened(&store, &StoreClient::opened);
        store.open(db);
        QVERIFY(opened.wait(10000));
        store.setPollInterval(50);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(id);
        QVERIFY(loaded.wait(20000));
        QVERIFY(view.isLevelOfDetail());
        writer.appendStep(liveStep(25000, 9.0));
        QTRY_COMPARE_WITH_TIMEOUT(view.loggedSteps(), std::int64_t(25001), 20000);
        QCOMPARE(view.steps().last(Metric::Step), 25000.0);
        QCOMPARE(view.shownSteps().last(Metric::Loss), 9.0);
        QCOMPARE(maxOf(drawnValues(view.lossPlot()->plot())), 9.0);
    }

    // Evenly logged steps decay by alpha each (every 10th step logged too); a gap of
    // ten intervals decays by alpha^10.
    void emaDecaysPerLoggingInterval() {
        const QVector<double> y = {1, 0, 0, 0};
        const QVector<double> even = emaSmoothSteps({0, 10, 20, 30}, y, 0.5);
        const QVector<double> plain = emaSmoothSteps({}, y, 0.5);
        QCOMPARE(even, plain);
        QCOMPARE(even[1], 0.5 * 0.5 / (0.5 * 0.5 + 0.5)); // ema / bias-corrected weight
        const QVector<double> gap = emaSmoothSteps({0, 1, 11, 12}, {1, 1, 0, 0}, 0.5);
        const double w2 = std::pow(0.5, 10);
        // After two samples at 1 the EMA is 1; a step ten intervals on keeps w2 of it.
        QCOMPARE(gap[2], (w2 * 0.75) / (w2 * 0.75 + (1 - w2)));
    }

    void mergeAndVisibleSteps() {
        StepColumns overview;
        std::vector<StepRecord> rows;
        for (int s : {0, 99, 100, 199, 200, 299})
            rows.push_back(liveStep(s, s));
        overview.append(rows);
        QVERIFY(!visibleSteps(overview, Metric::Step, -10, 400));
        const auto v = visibleSteps(overview, Metric::Step, 120, 180);
        QVERIFY(v);
        QCOMPARE(v->first, std::int64_t(100));
        QCOMPARE(v->second, std::int64_t(199));
        StepColumns detail;
        rows.clear();
        for (int s = 100; s <= 199; ++s)
            rows.push_back(liveStep(s, s));
        detail.append(rows);
        const StepColumns merged = mergeDetail(overview, detail, 100, 199);
        QCOMPARE(merged.size(), 2 + 100 + 2);
        QCOMPARE(merged[Metric::Step][2], 100.0);
        QCOMPARE(merged[Metric::Step][101], 199.0);
        QCOMPARE(merged[Metric::Step][102], 200.0);
    }
};

QTEST_MAIN(RunViewLodTest)
#include "run_view_lod_test.moc"
