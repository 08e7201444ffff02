// gui_bench [STEPS]: writes a store with STEPS (default 100,000) logged steps x 8
// ranks, then measures (1) how long the run view takes from openRun() to the run
// on screen, store read on the worker thread included, and (2) one replot of each
// series plot (QCustomPlot::replotTime). Prints medians against the targets
// (open <= 1000 ms, replot <= 16 ms).
#include "fixture_store.h"
#include "gui/memory_bar_chart.h"
#include "gui/run_view.h"
#include "gui/store_client.h"
#include "gui/style.h"
#include "gui/time_series_plot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
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

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    zerolab::applyAppStyle(app);
    const int steps = argc > 1 ? std::atoi(argv[1]) : 100000;
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("bench.db"));

    QElapsedTimer clock;
    clock.start();
    const auto ids =
        zerolab::writeFixtureStore(db.toStdString(), {{"bench", 1, 8, steps, false, {}}});
    std::printf("store: %d steps x 8 ranks written in %.1f s\n", steps, clock.elapsed() / 1000.0);

    zerolab::StoreClient store;
    zerolab::RunView view(&store);
    view.resize(1280, 1600);
    view.show();
    {
        QEventLoop wait;
        QObject::connect(&store, &zerolab::StoreClient::opened, &wait, &QEventLoop::quit);
        store.open(db);
        wait.exec();
    }
    std::vector<double> openMs;
    for (int i = 0; i < 5; ++i) {
        QEventLoop wait;
        QObject::connect(&view, &zerolab::RunView::loaded, &wait, &QEventLoop::quit);
        clock.restart();
        view.openRun(ids[0]);
        wait.exec();
        // On screen: the queued replots of every plot have run.
        QCoreApplication::processEvents();
        for (auto* p : {view.lossPlot()->plot(), view.breakdownPlot()->plot()})
            p->replot(QCustomPlot::rpImmediateRefresh);
        openMs.push_back(double(clock.nsecsElapsed()) / 1e6);
    }
    const double loss = replotMedian(view.lossPlot()->plot(), 11);
    const double breakdown = replotMedian(view.breakdownPlot()->plot(), 11);
    const double memory = replotMedian(view.memoryChart()->plot(), 11);
    std::printf("\n%-36s %10s %10s %8s\n", "measure (median)", "value", "target", "ratio");
    std::printf("%-36s %8.1f ms %7.0f ms %8.2f\n", "run view open (read + build + plot)",
                median(openMs), 1000.0, median(openMs) / 1000.0);
    std::printf("%-36s %8.1f ms %7.0f ms %8.2f\n", "replot: loss + EMA (2 x steps pts)", loss, 16.0,
                loss / 16.0);
    std::printf("%-36s %8.1f ms %7.0f ms %8.2f\n", "replot: step breakdown (4 stacked)", breakdown,
                16.0, breakdown / 16.0);
    std::printf("%-36s %8.1f ms %7.0f ms %8.2f\n", "replot: per-rank memory bars", memory, 16.0,
                memory / 16.0);
    return 0;
}
