// The Compare tab over a fixture store: bars, run table and config columns in the
// order of the compared runs, one column and one bar per segment of a restarted run
// with that segment's own prediction, and checklist entries and headers shown whole.
#include "fixture_store.h"
#include "gui/app/main_window.h"
#include "gui/client/store_client.h"
#include "gui/core/config_validation.h"
#include "gui/core/ema_smooth.h"
#include "gui/core/language.h"
#include "gui/core/units.h"
#include "gui/views/compare/compare_view.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/style.h"
#include "gui/widgets/time_series_plot.h"
#include "runtime/planner/planner_units.h"
#include "storage/run_reader.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <vector>

using namespace zerolab;

class CompareViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<std::int64_t> m_ids; // the default runs, then the restarted one

    void load(StoreClient& store, CompareView& view, const QList<qint64>& ids) {
        QSignalSpy listed(&store, &StoreClient::runsListed);
        store.open(m_db);
        store.listRuns();
        QVERIFY(listed.wait(10000));
        QSignalSpy loaded(&view, &CompareView::loaded);
        view.setRuns(ids);
        QVERIFY(loaded.wait(10000));
    }

    // Every shown column of `table` lies inside its viewport, the viewport inside `window`,
    // and each column is as wide as its header and its cells (text, the run's swatch).
    static void checkColumnsWhole(const QTableWidget* table, const QWidget* window,
                                  const char* what) {
        const QWidget* viewport = table->viewport();
        const QRect inWindow(viewport->mapTo(window, QPoint(0, 0)), viewport->size());
        QVERIFY2(window->rect().contains(inWindow),
                 qPrintable(QStringLiteral("%1: viewport %2,%3 %4x%5 outside the window")
                                .arg(what)
                                .arg(inWindow.x())
                                .arg(inWindow.y())
                                .arg(inWindow.width())
                                .arg(inWindow.height())));
        const QFontMetrics header(table->horizontalHeader()->font());
        const int icon = table->style()->pixelMetric(QStyle::PM_SmallIconSize);
        for (int c = 0; c < table->columnCount(); ++c) {
            if (table->isColumnHidden(c))
                continue;
            const QString name = table->horizontalHeaderItem(c)->text();
            const int left = table->columnViewportPosition(c), width = table->columnWidth(c);
            QVERIFY2(left >= 0 && left + width <= viewport->width() + 1,
                     qPrintable(QStringLiteral("%1 column '%2' at %3 + %4 px of %5")
                                    .arg(what, name)
                                    .arg(left)
                                    .arg(width)
                                    .arg(viewport->width())));
            int need = header.horizontalAdvance(name) + 8;
            for (int r = 0; r < table->rowCount(); ++r) {
                const QTableWidgetItem* item = table->item(r, c);
                if (!item)
                    continue;
                QFont f = table->font();
                f.setBold(item->font().bold());
                // The key column may lose a long key's start (ElideLeft, the key as tooltip).
                if (table->textElideMode() == Qt::ElideLeft && c == 0)
                    continue;
                const bool swatch = item->data(Qt::DecorationRole).isValid();
                need = std::max(need, QFontMetrics(f).horizontalAdvance(item->text()) + 6 +
                                          (swatch ? icon + 4 : 0));
            }
            QVERIFY2(width >= need, qPrintable(QStringLiteral("%1 column '%2': %3 px, needs %4")
                                                   .arg(what, name)
                                                   .arg(width)
                                                   .arg(need)));
        }
    }

    static QStringList headers(const QTableWidget* table) {
        QStringList out;
        for (int c = 0; c < table->columnCount(); ++c)
            out << table->horizontalHeaderItem(c)->text();
        return out;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        auto runs = defaultFixtureRuns();
        runs.push_back(restartedFixtureRun());
        m_ids = writeFixtureStore(m_db.toStdString(), runs);
        QCOMPARE(m_ids.size(), std::size_t(6));
    }

    // Bars, table rows, config columns and legend all list the runs as they were given.
    void everyPanelFollowsTheComparedOrder() {
        StoreClient store;
        CompareView view(&store);
        const QList<qint64> ids{m_ids[3], m_ids[0], m_ids[1]};
        load(store, view, ids);
        const auto& groups = view.memoryChart()->groups();
        QCOMPARE(groups.size(), 3);
        const QStringList diffHeaders = headers(view.diffTable());
        QCOMPARE(diffHeaders.size(), 4);
        QCOMPARE(view.runTable()->rowCount(), 3);
        for (int i = 0; i < 3; ++i) {
            const QString id = QStringLiteral("#%1").arg(ids[i]);
            QVERIFY2(groups[i].label.startsWith(id + QLatin1Char('\n')),
                     qPrintable(groups[i].label));
            QCOMPARE(diffHeaders[i + 1], id);
            QVERIFY(view.diffTable()->horizontalHeaderItem(i + 1)->toolTip().startsWith(id + ' '));
            QVERIFY(view.runTable()->item(i, 0)->text().startsWith(id + QLatin1Char(' ')));
            QVERIFY(view.plot()->plot()->graph(i)->name().startsWith(id + QLatin1Char(' ')));
        }
    }

    // A run restarted as ZeRO-3 on three ranks: a bar per segment at its own last step,
    // outlined by that segment's stored prediction.
    void segmentsGetTheirOwnBarsAndPredictions() {
        StoreClient store;
        CompareView view(&store);
        const qint64 restarted = m_ids[5];
        load(store, view, {restarted, m_ids[0]});
        RunReader reader(RunStore::open(m_db.toStdString()));
        const RunRecord run = reader.run(restarted);
        const std::vector<Segment> segments = reader.segments(restarted);
        QCOMPARE(segments.size(), std::size_t(2));

        const auto& groups = view.memoryChart()->groups();
        QCOMPARE(groups.size(), 3);
        QCOMPARE(groups[0].label, QStringLiteral("#%1 seg 0\nZeRO 1\nN=2").arg(restarted));
        QCOMPARE(groups[1].label, QStringLiteral("#%1 seg 1\nZeRO 3\nN=3").arg(restarted));
        QCOMPARE(groups[2].label, QStringLiteral("#%1\nZeRO 0\nN=8").arg(m_ids[0]));
        for (int s = 0; s < 2; ++s) {
            const auto seg = std::size_t(s);
            QVERIFY(groups[s].predictedBytes.has_value());
            QCOMPARE(*groups[s].predictedBytes, *predictedTotal(run.info, &segments[seg]));
            const auto last = reader.lastStepOfSegment(restarted, segments[seg].index);
            QVERIFY(last.has_value());
            QCOMPARE(groups[s].bytes.bytes, reader.rankRows(restarted, *last).front().mem.bytes);
        }
        QVERIFY(*groups[1].predictedBytes < *groups[0].predictedBytes);

        // Stage, N, accumulation, micro-batch and model states per segment.
        QTableWidget* table = view.runTable();
        QCOMPARE(table->rowCount(), 3);
        const QStringList columns = headers(table);
        auto text = [&](int row, const QString& column) {
            return table->item(row, int(columns.indexOf(column)))->text();
        };
        QCOMPARE(text(1, QStringLiteral("Stage")), QStringLiteral("3"));
        QCOMPARE(text(1, QStringLiteral("N")), QStringLiteral("3"));
        QCOMPARE(text(1, QStringLiteral("Accum.")), QStringLiteral("2"));
        QCOMPARE(text(1, QStringLiteral("Micro")), QStringLiteral("8"));
        QCOMPARE(text(0, QStringLiteral("Accum.")), QStringLiteral("1"));
        const MemBreakdown& states = *segments[1].predicted;
        QCOMPARE(text(1, QStringLiteral("States/rank")),
                 formatBytes(double(states[MemCategory::Params] +
                                    states[MemCategory::MasterParams] + states[MemCategory::Grads] +
                                    states[MemCategory::OptimM] + states[MemCategory::OptimV])));
        QVERIFY(text(1, QStringLiteral("Peak/rank")).endsWith(QStringLiteral("B")));
    }

    // Within / across host bytes per run: the median of the part's logged steps.
    void runTableShowsTrafficByLinkClass() {
        StoreClient store;
        CompareView view(&store);
        load(store, view, {m_ids[2], m_ids[0]});
        RunReader reader(RunStore::open(m_db.toStdString()));
        QTableWidget* table = view.runTable();
        const QStringList columns = headers(table);
        QVERIFY(columns.contains(QStringLiteral("Within")));
        QVERIFY(columns.contains(QStringLiteral("Across")));
        for (int row = 0; row < 2; ++row) {
            const std::vector<StepRecord> steps = reader.steps(row == 0 ? m_ids[2] : m_ids[0]);
            std::vector<double> within;
            for (const StepRecord& s : steps)
                within.push_back(s.traffic.link.within);
            std::nth_element(within.begin(), within.begin() + within.size() / 2, within.end());
            QCOMPARE(table->item(row, int(columns.indexOf(QStringLiteral("Within"))))->text(),
                     formatBytes(within[within.size() / 2]));
            QCOMPARE(table->item(row, int(columns.indexOf(QStringLiteral("Across"))))->text(),
                     formatBytes(steps.front().traffic.link.across));
        }
    }

    // Issue 39: what a reviewer compares, per run: median tokens/s, step time and exposed
    // communication of the logged steps, peak memory per rank, and the step-time model's
    // forecast (here none: the store has no profile, and the cell says why).
    void runTableSummarisesThroughputStepTimeAndForecast() {
        StoreClient store;
        CompareView view(&store);
        load(store, view, {m_ids[2], m_ids[0]});
        RunReader reader(RunStore::open(m_db.toStdString()));
        QTableWidget* table = view.runTable();
        const QStringList columns = headers(table);
        for (const char* name : {"Tokens/s", "Step", "Exposed", "Forecast", "Peak/rank"})
            QVERIFY2(columns.contains(QString::fromLatin1(name)), name);
        const auto median = [](std::vector<double> v) {
            std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
            return v[v.size() / 2];
        };
        for (int row = 0; row < 2; ++row) {
            std::vector<double> tokens, step, exposed;
            for (const StepRecord& s : reader.steps(row == 0 ? m_ids[2] : m_ids[0])) {
                tokens.push_back(s.tokens_per_s);
                step.push_back(s.step_ms);
                exposed.push_back(s.comm.exposed_ms);
            }
            const auto text = [&](const char* column) {
                return table->item(row, int(columns.indexOf(QString::fromLatin1(column))))->text();
            };
            QCOMPARE(text("Tokens/s"), formatCount(median(tokens)));
            QCOMPARE(text("Step"), QString::fromStdString(formatSeconds(median(step) / 1e3)));
            QCOMPARE(text("Exposed"), QString::fromStdString(formatSeconds(median(exposed) / 1e3)));
            QCOMPARE(text("Forecast"), QStringLiteral("—"));
            QVERIFY(table->item(row, int(columns.indexOf(QStringLiteral("Forecast"))))
                        ->toolTip()
                        .contains(QStringLiteral("no calibrated profile")));
        }
    }

    // Issue 39: five runs at 1280 px: every run's config column in view, and an overlay
    // tall enough to read, smoothed as the Run view's loss chart is.
    void fiveRunsFitTheConfigDiffAndTheOverlayIsSmoothed() {
        StoreClient store;
        CompareView view(&store);
        view.resize(1280, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        load(store, view, {m_ids[0], m_ids[1], m_ids[2], m_ids[3], m_ids[4]});
        QTableWidget* diff = view.diffTable();
        QCOMPARE(diff->columnCount(), 6);
        QTRY_VERIFY2(diff->columnViewportPosition(5) + diff->columnWidth(5) <=
                         diff->viewport()->width() + 1,
                     qPrintable(QStringLiteral("last column at %1 + %2 px of %3")
                                    .arg(diff->columnViewportPosition(5))
                                    .arg(diff->columnWidth(5))
                                    .arg(diff->viewport()->width())));
        QVERIFY(diff->columnWidth(0) >= 120);
        QVERIFY2(view.plot()->height() >= 220, qPrintable(QString::number(view.plot()->height())));
        // Each run's line is the EMA of its values (0.9 by default); 0 draws them raw.
        QCOMPARE(view.smoothing(), 0.9);
        RunReader reader(RunStore::open(m_db.toStdString()));
        QVector<double> steps, losses;
        for (const StepRecord& r : reader.steps(m_ids[0])) {
            steps << double(r.step);
            losses << r.loss;
        }
        QCustomPlot* plot = view.plot()->plot();
        QCOMPARE(plot->graph(0)->data()->size(), int(steps.size()));
        QCOMPARE(plot->graph(0)->data()->at(10)->value, emaSmoothSteps(steps, losses, 0.9)[10]);
        view.setSmoothing(0);
        QCOMPARE(plot->graph(0)->data()->at(10)->value, losses[10]);
        QVERIFY(losses[10] != emaSmoothSteps(steps, losses, 0.9)[10]);
    }

    // Keys changed by the restart differ between the run's own segments.
    void configDiffHasAColumnPerSegment() {
        StoreClient store;
        CompareView view(&store);
        const qint64 restarted = m_ids[5];
        load(store, view, {restarted, m_ids[4]});
        const QStringList diffHeaders = headers(view.diffTable());
        QCOMPARE(diffHeaders.size(), 4);
        // "#id seg k", short so that every run's column fits the panel; the name in the tooltip.
        QCOMPARE(diffHeaders[1], QStringLiteral("#%1 seg 0").arg(restarted));
        QCOMPARE(diffHeaders[2], QStringLiteral("#%1 seg 1").arg(restarted));
        QVERIFY(view.diffTable()->horizontalHeaderItem(1)->toolTip().endsWith("\nseg 0"));
        QMap<QString, QStringList> rows;
        for (int r = 0; r < view.diffTable()->rowCount(); ++r) {
            QStringList values;
            for (int c = 1; c < 4; ++c)
                values << view.diffTable()->item(r, c)->text();
            rows.insert(view.diffTable()->item(r, 0)->text(), values);
        }
        QCOMPARE(rows.value(QStringLiteral("zero_optimization.stage")),
                 (QStringList{QStringLiteral("1"), QStringLiteral("3"), QStringLiteral("1")}));
        QCOMPARE(rows.value(QStringLiteral("gradient_accumulation_steps")),
                 (QStringList{QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("1")}));
        QCOMPARE(rows.value(QStringLiteral("(segment) world")),
                 (QStringList{QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("2")}));
    }

    // At the default window size every checklist line and config header fits its cell.
    void namesAreShownWhole() {
        StoreClient store;
        CompareView view(&store);
        view.resize(1280, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        load(store, view, {m_ids[0], m_ids[1], m_ids[5]});
        QListWidget* list = view.checklist();
        QCOMPARE(list->count(), 6);
        const QFontMetrics fm(list->font());
        for (int i = 0; i < list->count(); ++i) {
            const QRect rect = list->visualItemRect(list->item(i));
            // The check box takes the left of the row.
            for (const QString& line : list->item(i)->text().split(QLatin1Char('\n')))
                QVERIFY2(fm.horizontalAdvance(line) + 28 <=
                             std::min(rect.width(), list->viewport()->width()),
                         qPrintable(line));
        }
        // No capacity: no caption row above the memory plot, only the axis rect's margin.
        QCustomPlot* plot = view.memoryChart()->plot();
        plot->replot();
        QVERIFY2(plot->axisRect()->rect().top() < 20,
                 qPrintable(QString::number(plot->axisRect()->rect().top())));
        QHeaderView* header = view.diffTable()->horizontalHeader();
        const QFontMetrics hfm(header->font());
        for (int c = 1; c < view.diffTable()->columnCount(); ++c) {
            const QString text = view.diffTable()->horizontalHeaderItem(c)->text();
            for (const QString& line : text.split(QLatin1Char('\n')))
                QVERIFY2(hfm.horizontalAdvance(line) < header->sectionSize(c), qPrintable(line));
        }
        // A key the column cannot hold loses its start, never its leaf, and the whole JSON
        // path is its tooltip.
        QTableWidget* diff = view.diffTable();
        QCOMPARE(diff->textElideMode(), Qt::ElideLeft);
        QVERIFY(diff->rowCount() > 0);
        int widest = 0;
        for (int r = 0; r < diff->rowCount(); ++r) {
            QCOMPARE(diff->item(r, 0)->toolTip(), diff->item(r, 0)->text());
            QFont f = diff->font();
            f.setBold(diff->item(r, 0)->font().bold());
            widest = std::max(widest, QFontMetrics(f).horizontalAdvance(diff->item(r, 0)->text()));
        }
        // Cell padding: a key shown whole needs a few pixels more than its text.
        QVERIFY2(diff->columnWidth(0) >= std::min(widest + 6, 160),
                 qPrintable(QStringLiteral("key column %1 px, widest key %2 px")
                                .arg(diff->columnWidth(0))
                                .arg(widest)));
    }

    // The memory legend's labels wrap only when longer than the legend's width, at any font
    // size: after a larger font (the font zoom) a short label is still on one line.
    void memoryLegendLabelsKeepTheirWidthUnderAFontZoom() {
        StoreClient store;
        CompareView view(&store);
        view.resize(1280, 760);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QFont larger = view.font();
        larger.setPointSizeF(larger.pointSizeF() * 1.5);
        view.setFont(larger);
        QCoreApplication::processEvents();
        int shortLabels = 0;
        for (const QLabel* label : view.findChildren<QLabel*>(QStringLiteral("legendLabel"))) {
            QVERIFY(label->wordWrap());
            const int advance = label->fontMetrics().horizontalAdvance(label->text());
            if (advance >= 100)
                continue;
            ++shortLabels;
            QVERIFY2(label->width() >= advance,
                     qPrintable(QStringLiteral("'%1': %2 px for %3 px of text")
                                    .arg(label->text())
                                    .arg(label->width())
                                    .arg(advance)));
        }
        QVERIFY(shortLabels >= 4);
    }

    // Issue 39: the whole main window at 1280x800 with five runs, in English and in zh_CN
    // (whose Runs panel is wider): the window keeps its size, every run table column and
    // every config diff column and row is in view and as wide as its header and values.
    void fiveRunsFitTheMainWindowAt1280x800_data() {
        QTest::addColumn<bool>("chinese");
        QTest::newRow("en") << false;
        QTest::newRow("zh_CN") << true;
    }
    void fiveRunsFitTheMainWindowAt1280x800() {
        QFETCH(bool, chinese);
        applyAppStyle(*qApp); // as the app looks
        QVERIFY(setLanguage(chinese ? Language::Chinese : Language::English));
        MainWindow window(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        CompareView* view = window.compareView();
        QSignalSpy loaded(view, &CompareView::loaded);
        window.openStore(m_db);
        window.compareRuns({m_ids[0], m_ids[1], m_ids[2], m_ids[3], m_ids[4]});
        window.setTab(MainWindow::Tab::Compare);
        QVERIFY(loaded.wait(10000));
        QTRY_COMPARE(view->diffTable()->columnCount(), 6);
        QTest::qWait(100); // the splitters settle
        QCOMPARE(view->runTable()->rowCount(), 5);
        checkColumnsWhole(view->diffTable(), &window, "config diff");
        if (QTest::currentTestFailed())
            return;
        checkColumnsWhole(view->runTable(), &window, "run table");
        if (QTest::currentTestFailed())
            return;
        // Not grown past 800 px by a minimum height the screen lacks.
        QCOMPARE(window.size(), QSize(1280, 800));
        QTableWidget* diff = view->diffTable();
        const int last = diff->rowCount() - 1;
        QVERIFY2(diff->rowViewportPosition(last) + diff->rowHeight(last) <=
                     diff->viewport()->height() + 1,
                 qPrintable(QStringLiteral("last diff row at %1 of %2")
                                .arg(diff->rowViewportPosition(last))
                                .arg(diff->viewport()->height())));
        QVERIFY2(view->plot()->height() >= 220,
                 qPrintable(QString::number(view->plot()->height())));
        QVERIFY(setLanguage(Language::English));
    }
};

QTEST_MAIN(CompareViewTest)
#include "compare_view_test.moc"
