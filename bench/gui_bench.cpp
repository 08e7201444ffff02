// gui_bench [STEPS] [RUNS] [SHOTS]: review at scale, against 1 s targets.
// (1) A store with one run of STEPS (default 1,000,000) logged steps x 8 ranks, a
// one-step loss spike in it: how long the Run view takes from openRun() to the run on
// screen (store read on the worker thread included; a level of detail past 20,000
// steps), how long a zoom takes to come back refined, and one replot of each plot.
// (2) A store with RUNS (default 1,000) sweep-like runs of 100 steps x 8 ranks: the runs
// panel's listing, its filter, and Compare opening over 8 and over 100 of them.
// Prints medians against the targets (open, filter, Compare <= 1000 ms; replot <= 16
// ms). With SHOTS, saves the Run view and the runs panel as PNGs into that folder.
#include "fixture_store.h"
#include "gui/client/store_client.h"
#include "gui/core/runs_model.h"
#include "gui/views/compare/compare_view.h"
#include "gui/views/run/run_view.h"
#include "gui/views/run/runs_dock.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_series_plot.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTableView>
#include <QTemporaryDir>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double replotMedian(QCustomPlot* plot, int repeats) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        plot->replot(QCustomPlot::rpImmediateRefresh);
        times.push_back(plot->replotTime());
    }
    return median(times);
}

double ms(const QElapsedTimer& clock) {
    return double(clock.nsecsElapsed()) / 1e6;
}

// Runs `signal`'s event loop until it fires.
template <typename Obj, typename Signal, typename Start>
void waitFor(Obj* obj, Signal signal, Start start) {
    QEventLoop wait;
    QObject::connect(obj, signal, &wait, &QEventLoop::quit);
    start();
    wait.exec();
}

void openStore(zerolab::StoreClient& store, const QString& db) {
    waitFor(&store, &zerolab::StoreClient::opened, [&] { store.open(db); });
}

void row(const QString& what, double value, double target) {
    std::printf("%-46s %8.1f ms %7.0f ms %8.2f\n", qPrintable(what), value, target, value / target);
}

// Sweep-like runs: stages 0-3, N = 1, 2, 4, 8, a few tags, 100 steps each.
std::vector<zerolab::FixtureRun> sweepRuns(int count) {
    std::vector<zerolab::FixtureRun> runs;
    const int worlds[] = {1, 2, 4, 8};
    for (int i = 0; i < count; ++i) {
        zerolab::FixtureRun r;
        char name[64];
        std::snprintf(name, sizeof name, "sweep-%02d-trial-%04d", i / 100, i);
        r.name = name;
        r.stage = i % 4;
        r.world = worlds[(i / 4) % 4];
        r.steps = 100;
        r.bf16 = i % 3 == 0;
        r.tags = {"sweep", "sweep-" + std::to_string(i / 100)};
        runs.push_back(r);
    }
    return runs;
}

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    zerolab::applyAppStyle(app);
    const int steps = argc > 1 ? std::atoi(argv[1]) : 1000000;
    const int runCount = argc > 2 ? std::atoi(argv[2]) : 1000;
    const QString shots = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();
    QTemporaryDir dir;
    const QString longDb = dir.filePath(QStringLiteral("long.db"));
    const QString manyDb = dir.filePath(QStringLiteral("many.db"));

    QElapsedTimer clock;
    clock.start();
    zerolab::FixtureRun longRun{"bench-1m", 1, 8, steps, false, {"bench"}};
    longRun.lossAt = {{steps * 63 / 100, 9.0}};
    const auto ids = zerolab::writeFixtureStore(longDb.toStdString(), {longRun});
    std::printf("store: %d steps x 8 ranks written in %.1f s\n", steps, clock.elapsed() / 1000.0);
    clock.restart();
    const auto manyIds = zerolab::writeFixtureStore(manyDb.toStdString(), sweepRuns(runCount));
    std::printf("store: %d runs x 100 steps x 1-8 ranks written in %.1f s\n", runCount,
                clock.elapsed() / 1000.0);

    // (1) The Run view over the long run.
    std::vector<double> openMs, zoomMs;
    double loss = 0, breakdown = 0, memory = 0;
    {
        zerolab::StoreClient store;
        zerolab::RunView view(&store);
        view.resize(1280, 1600);
        view.show();
        openStore(store, longDb);
        for (int i = 0; i < 5; ++i) {
            clock.restart();
            waitFor(&view, &zerolab::RunView::loaded, [&] { view.openRun(ids[0]); });
            // On screen: the queued replots of every plot have run.
            QCoreApplication::processEvents();
            for (auto* p : {view.lossPlot()->plot(), view.breakdownPlot()->plot()})
                p->replot(QCustomPlot::rpImmediateRefresh);
            openMs.push_back(ms(clock));
        }
        std::printf("run view: %lld steps logged, %d rows drawn, loss max %.2f\n",
                    static_cast<long long>(view.loggedSteps()), view.shownSteps().size(),
                    *std::max_element(view.shownSteps()[zerolab::Metric::Loss].begin(),
                                      view.shownSteps()[zerolab::Metric::Loss].end()));
        if (!shots.isEmpty())
            view.grab().save(QDir(shots).filePath(QStringLiteral("run-view-1m-steps.png")));
        // A zoom to 1% of the run at five places, until the refined range is drawn.
        QCustomPlot* plot = view.lossPlot()->plot();
        for (int i = 0; i < 5; ++i) {
            const double lo = steps * (0.1 + 0.17 * i), hi = lo + steps / 100.0;
            clock.restart();
            waitFor(&view, &zerolab::RunView::detailShown, [&] { plot->xAxis->setRange(lo, hi); });
            plot->replot(QCustomPlot::rpImmediateRefresh);
            zoomMs.push_back(ms(clock));
        }
        loss = replotMedian(view.lossPlot()->plot(), 11);
        breakdown = replotMedian(view.breakdownPlot()->plot(), 11);
        memory = replotMedian(view.memoryChart()->plot(), 11);
    }

    // (2) The runs panel and Compare over many runs.
    std::vector<double> listMs, filterMs, compare8Ms, compare100Ms;
    int shown = 0;
    {
        zerolab::StoreClient store;
        zerolab::RunsDock dock(&store);
        dock.resize(760, 900);
        dock.show();
        openStore(store, manyDb);
        for (int i = 0; i < 5; ++i) {
            clock.restart();
            waitFor(&store, &zerolab::StoreClient::runsListed, [&] { store.listRuns(); });
            QCoreApplication::processEvents();
            listMs.push_back(ms(clock));
        }
        const char* filters[] = {"trial-04", "sweep-07", "zero", "failed", "sweep-0 trial-00", ""};
        for (int repeat = 0; repeat < 3; ++repeat)
            for (const char* f : filters) {
                clock.restart();
                dock.setFilterText(QString::fromLatin1(f));
                dock.table()->repaint();
                filterMs.push_back(ms(clock));
            }
        dock.setFilterText(QStringLiteral("sweep-03"));
        shown = dock.proxy()->rowCount();
        if (!shots.isEmpty()) {
            dock.setFilterText(QString());
            dock.table()->selectRow(2);
            dock.grab().save(QDir(shots).filePath(QStringLiteral("runs-panel-1000-runs.png")));
            dock.setFilterText(QStringLiteral("sweep-03 trial-031"));
            dock.grab().save(
                QDir(shots).filePath(QStringLiteral("runs-panel-1000-runs-filtered.png")));
        }
        for (auto [count, out] : {std::pair{8, &compare8Ms}, std::pair{100, &compare100Ms}}) {
            for (int i = 0; i < 3; ++i) {
                zerolab::CompareView compare(&store);
                compare.resize(1280, 900);
                compare.show();
                QList<qint64> pick;
                for (int k = 0; k < count && k < int(manyIds.size()); ++k)
                    pick << manyIds[std::size_t(k * 7 + i) % manyIds.size()];
                clock.restart();
                waitFor(&compare, &zerolab::CompareView::loaded, [&] { compare.setRuns(pick); });
                QCoreApplication::processEvents();
                compare.plot()->plot()->replot(QCustomPlot::rpImmediateRefresh);
                out->push_back(ms(clock));
            }
        }
    }

    const QString n = QString::number(runCount);
    std::printf("\n%-46s %10s %10s %8s\n", "measure (median)", "value", "target", "ratio");
    row(QStringLiteral("run view open, %1 steps x 8 ranks").arg(steps), median(openMs), 1000.0);
    row(QStringLiteral("zoom to 1% of the run, refined and drawn"), median(zoomMs), 1000.0);
    row(QStringLiteral("replot: loss + EMA"), loss, 16.0);
    row(QStringLiteral("replot: step breakdown (4 stacked)"), breakdown, 16.0);
    row(QStringLiteral("replot: per-rank memory bars"), memory, 16.0);
    row(QStringLiteral("runs panel: list %1 runs").arg(n), median(listMs), 1000.0);
    row(QStringLiteral("runs panel: filter %1 runs").arg(n), median(filterMs), 1000.0);
    row(QStringLiteral("compare: open 8 of %1 runs").arg(n), median(compare8Ms), 1000.0);
    row(QStringLiteral("compare: open 100 of %1 runs").arg(n), median(compare100Ms), 1000.0);
    std::printf("(filter 'sweep-03' shows %d runs)\n", shown);
    return 0;
}
