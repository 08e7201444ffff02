// Runs list, run view, CSV export and compare over a fixture store read by the
// store worker thread.
#include "fixture_store.h"
#include "gui/client/store_client.h"
#include "gui/core/display_text.h"
#include "gui/core/events_model.h"
#include "gui/core/runs_model.h"
#include "gui/timeline/timeline_chart.h"
#include "gui/timeline/timeline_panel.h"
#include "gui/views/compare/compare_view.h"
#include "gui/views/run/comms_summary_dialog.h"
#include "gui/views/run/run_view.h"
#include "gui/views/run/runs_dock.h"
#include "gui/widgets/grouped_bar_chart.h"
#include "gui/widgets/memory_bar_chart.h"
#include "gui/widgets/time_series_plot.h"
#include "runtime/monitor/comms_logger.h"
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/sqlite_db.h"
#include "storage/stored_text.h"
#include "tests/support/tampered_store.h"
#include "timeline_fixture.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace zerolab;

class RunsViewTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<std::int64_t> m_ids;

    // Opens `db` (the fixture store when empty) and waits for its runs list.
    void openStore(StoreClient& store, const QString& db = {}) {
        QSignalSpy listed(&store, &StoreClient::runsListed);
        store.open(db.isEmpty() ? m_db : db);
        store.listRuns();
        QVERIFY(listed.wait(10000));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        m_ids = writeFixtureStore(m_db.toStdString(), defaultFixtureRuns());
        QCOMPARE(m_ids.size(), std::size_t(5));
    }

    void runsListShowsEveryRun() {
        StoreClient store;
        RunsDock dock(&store);
        openStore(store);
        QCOMPARE(dock.model()->rowCount(), 5);
        QCOMPARE(dock.model()->columnCount(), RunsModel::kColumnCount);
        const int row = dock.model()->rowOf(m_ids[1]);
        QVERIFY(row >= 0);
        QCOMPARE(dock.model()->index(row, RunsModel::Name).data().toString(),
                 QStringLiteral("zero1-n8"));
        QCOMPARE(dock.model()->index(row, RunsModel::Stage).data().toInt(), 1);
        QCOMPARE(dock.model()->index(row, RunsModel::Steps).data().toLongLong(), 299);
        QCOMPARE(dock.model()->index(row, RunsModel::Status).data().toString(),
                 QStringLiteral("finished"));
        dock.setFilterText(QStringLiteral("sweep"));
        QCOMPARE(dock.proxy()->rowCount(), 3);
        dock.setFilterText(QStringLiteral("sweep zero3"));
        QCOMPARE(dock.proxy()->rowCount(), 1);
        dock.setFilterText(QString());
        QCOMPARE(dock.proxy()->rowCount(), 5);
    }

    // Issue 39 item 6: names alike at the start read whole in the runs panel (before: the
    // name column stayed 104 px, "stage1-op…" for each), and one longer than the cap is
    // elided, not widening the dock.
    void runNamesReadWhole() {
        const QString db = m_dir.filePath(QStringLiteral("names.db"));
        const auto ids = writeFixtureStore(
            db.toStdString(), {FixtureRun{"stage1-optimizer-states", 1, 2, 3, false, {}},
                               FixtureRun{"stage1-optimizer-master", 1, 2, 3, false, {}},
                               FixtureRun{std::string(200, 'n'), 1, 2, 3, false, {}}});
        StoreClient store;
        RunsDock dock(&store);
        openStore(store, db);
        dock.resize(350, 600);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        QTableView* table = dock.table();
        const QFontMetrics metrics(table->font());
        for (int i = 0; i < 2; ++i) {
            const QString name =
                dock.model()->index(dock.model()->rowOf(ids[i]), RunsModel::Name).data().toString();
            QVERIFY2(table->columnWidth(RunsModel::Name) >= metrics.horizontalAdvance(name) + 8,
                     qPrintable(QStringLiteral("%1: %2 px")
                                    .arg(name)
                                    .arg(table->columnWidth(RunsModel::Name))));
        }
        QVERIFY(table->columnWidth(RunsModel::Name) <= 240);
        QVERIFY2(dock.minimumSizeHint().width() < 400,
                 qPrintable(QString::number(dock.minimumSizeHint().width())));
    }

    void runViewLoadsAndExportsCsv() {
        StoreClient store;
        RunView view(&store);
        openStore(store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(m_ids[2]);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(view.steps().size(), 300);
        QCOMPARE(view.memoryChart()->groups().size(), 8);
        QVERIFY(view.memoryChart()->groups()[0].predictedBytes.has_value());
        QVERIFY(view.memoryChart()->groups()[0].bytes.total() > 0);

        const QString csv = m_dir.filePath(QStringLiteral("run.csv"));
        QString error;
        QVERIFY2(view.exportCsv(csv, &error), qPrintable(error));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 301);
        QVERIFY(lines[0].startsWith(QStringLiteral("step,wall_time_s,tokens,loss")));
        QCOMPARE(lines[1].split(',')[0], QStringLiteral("0"));
        QCOMPARE(lines[1].split(',').size(), kMetricCount);
        QVERIFY(!view.exportCsv(m_dir.filePath(QStringLiteral("missing/dir/x.csv")), &error));
        QVERIFY(error.contains(QStringLiteral("missing/dir")));
    }

    // The traffic card by link class draws each step's stored within / across bytes in MB,
    // and the CSV carries both columns under the metric line's names.
    void linkTrafficCardShowsWithinAndAcrossHosts() {
        StoreClient store;
        RunView view(&store);
        openStore(store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(m_ids[2]);
        QVERIFY(loaded.wait(10000));
        RunReader reader(RunStore::open(m_db.toStdString()));
        const std::vector<StepRecord> steps = reader.steps(m_ids[2]);
        QCustomPlot* plot = view.linkTrafficPlot()->plot();
        QCOMPARE(plot->graphCount(), 2);
        for (int g = 0; g < 2; ++g) {
            QCPGraphDataContainer& data = *plot->graph(g)->data();
            QCOMPARE(data.size(), int(steps.size()));
            const double want =
                (g == 0 ? steps[7].traffic.link.within : steps[7].traffic.link.across) / 1e6;
            QCOMPARE(data.at(7)->value, want);
        }
        QVERIFY(steps[7].traffic.link.within > 0);
        const QString csv = m_dir.filePath(QStringLiteral("link.csv"));
        QVERIFY(view.exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString header = QString::fromUtf8(f.readLine()).trimmed();
        QVERIFY2(header.endsWith(QStringLiteral(",within_traffic_bytes,across_traffic_bytes")),
                 qPrintable(header));
    }

    // The memory card's views: model states only hides what ZeRO does not shard, bytes
    // per parameter divides by psi, and a held scale keeps its top across runs.
    void memoryCardViewsCompareByEye() {
        StoreClient store;
        RunView view(&store);
        openStore(store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(m_ids[2]);
        QVERIFY(loaded.wait(10000));
        MemoryBarChart* chart = view.memoryChart();
        QVERIFY(chart->segmentBytes(0, MemCategory::Activations) > 0);
        const double params = chart->segmentBytes(0, MemCategory::Params);

        view.statesOnlyBox()->setChecked(true);
        QCOMPARE(chart->segmentBytes(0, MemCategory::Activations), 0.0);
        QCOMPARE(chart->segmentBytes(0, MemCategory::Params), params);
        QVERIFY(chart->groups()[0].predictedBytes.has_value());
        QCOMPARE(*chart->groups()[0].predictedBytes, double(chart->groups()[0].bytes.total()));

        view.perParameterBox()->setChecked(true);
        QVERIFY(chart->perParameter());
        QVERIFY2(chart->plot()->yAxis->label().contains(QStringLiteral("per parameter")),
                 qPrintable(chart->plot()->yAxis->label()));
        view.perParameterBox()->setChecked(false);
        view.statesOnlyBox()->setChecked(false);

        // Hold the scale of the largest run, then open a smaller one: the top stays.
        std::int64_t largest = m_ids[0];
        double top = 0;
        for (std::int64_t id : m_ids) {
            QSignalSpy again(&view, &RunView::loaded);
            view.openRun(id);
            QVERIFY(again.wait(10000));
            if (chart->scaleTopBytes() > top) {
                top = chart->scaleTopBytes();
                largest = id;
            }
        }
        QSignalSpy back(&view, &RunView::loaded);
        view.openRun(largest);
        QVERIFY(back.wait(10000));
        view.holdScaleBox()->setChecked(true);
        for (std::int64_t id : m_ids) {
            QSignalSpy again(&view, &RunView::loaded);
            view.openRun(id);
            QVERIFY(again.wait(10000));
            QCOMPARE(chart->scaleTopBytes(), top);
        }
        view.holdScaleBox()->setChecked(false);
    }

    // A CUDA run's rank rows carry device_used: the resident chart shows the GPU's
    // bytes in use (not host RSS) under its own name and axis title, named as the whole
    // GPU's (issue 38: it read as the rank's own) with a tooltip on sharing.
    void runViewShowsDeviceMemoryOfGpuRuns() {
        const QString db = m_dir.filePath(QStringLiteral("gpu.db"));
        const auto ids = writeFixtureStore(db.toStdString(),
                                           {gpuFixtureRun(), {"zero1-cpu", 1, 2, 20, false, {}}});
        StoreClient store;
        RunView view(&store);
        QSignalSpy listed(&store, &StoreClient::runsListed);
        store.open(db);
        store.listRuns();
        QVERIFY(listed.wait(10000));
        for (int i = 0; i < 2; ++i) {
            QSignalSpy loaded(&view, &RunView::loaded);
            view.openRun(ids[i]);
            QVERIFY(loaded.wait(10000));
            const auto& series = view.residentChart()->series();
            QCOMPARE(series.size(), 2);
            const QString axis = view.residentChart()->plot()->yAxis->label() +
                                 view.residentChart()->plot()->xAxis->label();
            if (i == 0) {
                // The whole GPU's bytes, said so where ranks might be read as their own.
                QCOMPARE(series[0].name, QStringLiteral("device used (whole GPU)"));
                const QString tip = view.residentChart()->toolTip();
                QVERIFY2(tip.contains(QStringLiteral("whole GPU")) &&
                             tip.contains(QStringLiteral("share a GPU")),
                         qPrintable(tip));
                QVERIFY2(axis.contains(QStringLiteral("GPU memory")), qPrintable(axis));
                // device_used (ledger + context), not the fixture's 900 MB host RSS
                QVERIFY(series[0].values[0] > series[1].values[0] * 0.5);
            } else {
                QCOMPARE(series[0].name, QStringLiteral("rss"));
                QVERIFY(view.residentChart()->toolTip().isEmpty());
                QVERIFY2(axis.contains(QStringLiteral("Resident")), qPrintable(axis));
            }
        }
    }

    void configDiffKeepsOnlyDifferences() {
        const QVector<std::map<std::string, std::string>> configs = {
            {{"a", "1"}, {"b", "2"}, {"c", "x"}}, {{"a", "1"}, {"b", "3"}}};
        const auto all = configDiff(configs, false);
        QCOMPARE(all.size(), 3);
        const auto diff = configDiff(configs, true);
        QCOMPARE(diff.size(), 2);
        QCOMPARE(diff[0].key, QStringLiteral("b"));
        QCOMPARE(diff[0].values, (QStringList{QStringLiteral("2"), QStringLiteral("3")}));
        QCOMPARE(diff[1].key, QStringLiteral("c"));
        QCOMPARE(diff[1].values[1], QString());
    }

    void compareOverlaysRuns() {
        StoreClient store;
        CompareView view(&store);
        openStore(store);
        QSignalSpy loaded(&view, &CompareView::loaded);
        view.setRuns({m_ids[1], m_ids[3]});
        QVERIFY(loaded.wait(10000));
        QCOMPARE(view.plot()->seriesCount(), 2);
        QStringList keys;
        for (int r = 0; r < view.diffTable()->rowCount(); ++r)
            keys << view.diffTable()->item(r, 0)->text();
        QVERIFY2(keys.contains(QStringLiteral("zero_optimization.stage")),
                 qPrintable(keys.join(',')));
        QVERIFY(!keys.contains(QStringLiteral("model.preset")));
        view.setDifferencesOnly(false);
        QVERIFY(view.diffTable()->rowCount() > keys.size());
    }

    void deleteRemovesTheRun() {
        const QString db = m_dir.filePath(QStringLiteral("delete.db"));
        const auto ids = writeFixtureStore(db.toStdString(), {{"doomed", 1, 2, 5, false, {}}});
        StoreClient store;
        RunsDock dock(&store);
        QSignalSpy listed(&store, &StoreClient::runsListed);
        store.open(db);
        store.listRuns();
        QVERIFY(listed.wait(10000));
        QCOMPARE(dock.model()->rowCount(), 1);
        dock.deleteRunNow(ids[0]);
        QVERIFY(listed.wait(10000));
        QCOMPARE(dock.model()->rowCount(), 0);
    }

    // Issue 17: whatever the store holds (an older zerolab, another tool), the runs list,
    // its details, the run view and compare show it valid, on one line and short, and no
    // layout grows with it.
    // Issue 29 §11, the GUI reader: a run stored as running whose heartbeat is older than
    // its collective timeout (rank 0 stopped or hung writes nothing) shows as stalled with
    // the heartbeat's age in the runs list and the Run view (before: running).
    void silentHeartbeatShowsStalledWithItsAge() {
        const QString db = m_dir.filePath(QStringLiteral("silent.db"));
        const auto ids =
            writeFixtureStore(db.toStdString(), {FixtureRun{"silent", 1, 2, 5, false, {}}});
        SqliteDb(db.toStdString(), SQLITE_OPEN_READWRITE)
            .exec("UPDATE runs SET status = 'running', ended_at = NULL, heartbeat_at = "
                  "strftime('%s', 'now') - 100, config_json = json_set(config_json, "
                  "'$.run.collective_timeout_s', 10) WHERE id = " +
                  std::to_string(ids[0]));
        StoreClient store;
        RunsDock dock(&store);
        RunView view(&store);
        openStore(store, db);
        const int row = dock.model()->rowOf(ids[0]);
        QVERIFY(row >= 0);
        const QString status =
            dock.model()->index(row, RunsModel::Status).data(Qt::DisplayRole).toString();
        QVERIFY2(status.startsWith(QStringLiteral("stalled (no heartbeat for 1 min ")),
                 qPrintable(status));
        QCOMPARE(dock.model()->index(row, RunsModel::Status).data(Qt::ForegroundRole),
                 QVariant(runStatusColor(RunStatus::Stalled)));
        QVERIFY(store.silentRuns().value(ids[0]) >= 99);

        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(ids[0]);
        QVERIFY(loaded.wait(10000));
        const auto labels = view.findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel* l) {
            return l->text().startsWith(QStringLiteral("stalled (no heartbeat for 1 min "));
        }));

        // Within its timeout it is running, as stored.
        SqliteDb(db.toStdString(), SQLITE_OPEN_READWRITE)
            .exec("UPDATE runs SET heartbeat_at = strftime('%s', 'now') - 2");
        openStore(store, db);
        QCOMPARE(dock.model()->index(row, RunsModel::Status).data(Qt::DisplayRole).toString(),
                 QStringLiteral("running"));
    }

    // Issue 29 §1, the GUI: a stored timeline whose world or ranks the run cannot have
    // shows the error naming the run, the table and the value in the timeline's place,
    // nothing is sized by it, and the rest of the run (its steps, its good timeline) shows.
    void tamperedTimelineShowsItsErrorAndTheRestOfTheRun() {
        const QString db = m_dir.filePath(QStringLiteral("tampered.db"));
        const test::TamperedStore t = test::writeTamperedStore(db.toStdString());
        StoreClient store;
        RunView view(&store);
        openStore(store, db);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(t.run);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(view.steps().size(), t.steps);
        auto* panel = view.findChild<TimelinePanel*>();
        QVERIFY(panel);
        const auto shows = [&](long long step, const QString& text) {
            panel->pickStep(step);
            QTRY_VERIFY_WITH_TIMEOUT(
                panel->shownStep() == step && panel->chart()->messageText().contains(text), 10000);
        };
        shows(t.huge_world, db + QStringLiteral(": run 1, timeline of step 1: table timelines: "
                                                "world 2147483647 is not one the run ran at "
                                                "(1..2)"));
        QVERIFY(panel->chart()->layout().world() == 0);
        shows(t.foreign_rank, QStringLiteral("table timelines, spans: rank 7 outside the world "
                                             "of 2 (ranks 0..1)"));
        shows(t.negative_rank, QStringLiteral("table timelines, memory: rank -3 outside the "
                                              "world of 2"));
        panel->pickStep(t.good_timeline);
        QTRY_VERIFY_WITH_TIMEOUT(
            panel->shownStep() == t.good_timeline && !panel->chart()->showsMessage(), 10000);
        QCOMPARE(panel->chart()->layout().world(), 2);
        QCOMPARE(view.steps().size(), t.steps);
    }

    // Issue 29 §1, the GUI's rank rows: a step whose rows disagree with its world (a rank
    // beyond it, a rank missing) draws only the ranks it can have, and the Run view says
    // what was left out, naming the store, the run, the step and the table; a whole step
    // of the same run then shows without a message.
    void rankRowsThatDisagreeWithTheWorldAreSaidNotDrawn() {
        const QString db = m_dir.filePath(QStringLiteral("ranks.db"));
        const auto ids =
            writeFixtureStore(db.toStdString(), {FixtureRun{"ranks", 1, 2, 5, false, {}}});
        const std::string run = std::to_string(ids[0]);
        SqliteDb(db.toStdString(), SQLITE_OPEN_READWRITE)
            .exec("UPDATE rank_steps SET rank = 7 WHERE step = 4 AND rank = 1 AND run_id = " + run +
                  "; DELETE FROM rank_steps WHERE step = 2 AND rank = 0 AND run_id = " + run);
        StoreClient store;
        RunView view(&store);
        openStore(store, db);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(ids[0]);
        QVERIFY(loaded.wait(10000));
        QCOMPARE(view.steps().size(), 5);
        const auto groups = [&] {
            QStringList labels;
            for (const MemoryBarGroup& g : view.memoryChart()->groups())
                labels << g.label;
            return labels;
        };
        QCOMPARE(groups(), QStringList{QStringLiteral("rank 0")});
        QCOMPARE(view.ranksProblem(),
                 QStringLiteral("Rank rows: ") + db + QStringLiteral(": run ") +
                     QString::number(ids[0]) +
                     QStringLiteral(", step 4: table rank_steps: rank 7 outside the world of 2 "
                                    "(ranks 0..1); 1 of the 2 ranks missing (the first: rank 1)"));

        store.loadRanks(ids[0], 2);
        QTRY_VERIFY_WITH_TIMEOUT(view.ranksProblem().contains(QStringLiteral("step 2")), 10000);
        QCOMPARE(groups(), QStringList{QStringLiteral("rank 1")});
        QVERIFY(view.ranksProblem().endsWith(
            QStringLiteral("1 of the 2 ranks missing (the first: rank 0)")));

        store.loadRanks(ids[0], 3);
        QTRY_VERIFY_WITH_TIMEOUT(view.ranksProblem().isEmpty(), 10000);
        QCOMPARE(groups(), (QStringList{QStringLiteral("rank 0"), QStringLiteral("rank 1")}));
    }

    // Issue 28 §3, on demand: the Run view's "Comms summary…" shows the comms logger's
    // log_summary table of the shown run from its stored step timelines (the runtime's
    // formatter, CommsSummary), saying how many steps it covers; a run without timelines
    // says so, and a damaged timeline gives its error instead of a table.
    void commsSummaryShowsTheLoggersTableOfTheStoredTimelines() {
        const QString db = m_dir.filePath(QStringLiteral("comms.db"));
        const auto ids =
            writeFixtureStore(db.toStdString(), {FixtureRun{"comms", 3, 2, 6, true, {}},
                                                 FixtureRun{"untimed", 1, 2, 3, false, {}}});
        const std::vector<StepTimeline> timelines = {stage3OverlapTimeline(2, 2),
                                                     stage3OverlapTimeline(2, 4)};
        {
            RunWriter w(RunStore::open(db.toStdString()));
            w.attachRun(ids[0]);
            w.appendTimelines(timelines);
        }
        CommsSummary expected(2);
        for (const StepTimeline& t : timelines)
            for (const CommRecord& r : commRecordsOf(t, 0))
                expected.add(r);
        QVERIFY(!expected.empty());

        StoreClient store;
        RunView view(&store);
        openStore(store, db);
        const auto summaryOf = [&](std::int64_t id) {
            QSignalSpy loaded(&view, &RunView::loaded);
            view.openRun(id);
            QVERIFY(loaded.wait(10000));
            QSignalSpy came(&store, &StoreClient::commsSummaryLoaded);
            view.showCommsSummary();
            QVERIFY(came.wait(10000));
            QVERIFY(view.commsSummaryDialog() && view.commsSummaryDialog()->isVisible());
        };
        summaryOf(ids[0]);
        QVERIFY(!expected.splitText().empty());
        QCOMPARE(view.commsSummaryDialog()->table(),
                 QString::fromStdString(expected.text() + "\n" + expected.splitText()));
        // Issue 39: every column in view, the last header ("busbw_avg (Gbps)") not cut.
        const auto* text = view.commsSummaryDialog()->findChild<QPlainTextEdit*>();
        QVERIFY(text);
        QTRY_COMPARE(text->horizontalScrollBar()->maximum(), 0);
        QVERIFY2(view.commsSummaryDialog()->note().contains(QStringLiteral("2 sampled step")),
                 qPrintable(view.commsSummaryDialog()->note()));
        summaryOf(ids[1]);
        QVERIFY(view.commsSummaryDialog()->note().contains(QStringLiteral("no step timeline")));

        const QString tampered = m_dir.filePath(QStringLiteral("tampered-comms.db"));
        const test::TamperedStore t = test::writeTamperedStore(tampered.toStdString());
        openStore(store, tampered);
        summaryOf(t.run);
        QVERIFY2(view.commsSummaryDialog()->note().contains(
                     QStringLiteral("world 2147483647 is not one the run ran at")),
                 qPrintable(view.commsSummaryDialog()->note()));
        QVERIFY(view.commsSummaryDialog()->table().isEmpty());
    }

    // Issue 39: a run stopped at step 20 of 40 says so in the header ("step 20 of 40", its
    // config's run.steps), and why it ended (the stored end message).
    void headerSaysHowFarAStoppedRunGotAndWhy() {
        const QString db = m_dir.filePath(QStringLiteral("stopped.db"));
        const std::string why = "stopped by request (the Stop command) after step 20 of 40";
        std::int64_t id = 0;
        {
            RunWriter w(RunStore::open(db.toStdString()));
            RunInfo info;
            info.name = "half-way";
            info.world = 2;
            info.config_json = R"({"run":{"steps":40,"device":"cpu"}})";
            id = w.createRun(info);
            Segment segment;
            segment.world = 2;
            segment.start_step = 1;
            segment.reason = "start";
            w.beginSegment(segment);
            for (long long step = 1; step <= 20; ++step) {
                StepRecord s;
                s.step = step;
                for (int r = 0; r < 2; ++r) {
                    RankRecord rr;
                    rr.rank = r;
                    s.ranks.push_back(rr);
                }
                w.appendStep(s);
            }
            w.finish(RunStatus::Stopped, why);
        }
        StoreClient store;
        RunView view(&store);
        openStore(store, db);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(id);
        QVERIFY(loaded.wait(10000));
        QVERIFY2(view.factsText().contains(QStringLiteral("step <b>20</b> of 40")),
                 qPrintable(view.factsText()));
        QVERIFY2(view.factsText().contains(QString::fromStdString(why)),
                 qPrintable(view.factsText()));
    }

    void hostileStoredTextStaysBounded() {
        const QString db = m_dir.filePath(QStringLiteral("hostile.db"));
        const std::string control = "\x1b[31m\r\n<b>markup</b>";
        FixtureRun run{std::string(100'000, 'n') + "\xff\xfe" + control, 1, 2, 20, false,
                       {std::string(5000, 't'), "bad \xff" + control}};
        const auto ids = writeFixtureStore(db.toStdString(), {run});
        {
            RunWriter w(RunStore::open(db.toStdString()));
            w.attachRun(ids[0]);
            w.addEvent(EventLevel::Warn, 0, std::string(1 << 20, 'e') + "\xc3" + control);
            RunReader r(RunStore::open(db.toStdString()));
            r.setNotes(ids[0], std::string(1 << 20, 'x') + "\xc3\x28" + control);
        }
        StoreClient store;
        RunsDock dock(&store);
        openStore(store, db);
        const int row = dock.model()->rowOf(ids[0]);
        QVERIFY(row >= 0);
        const auto shown = [&](int column, int role) {
            return dock.model()->index(row, column).data(role).toString();
        };
        for (const QString& text :
             {shown(RunsModel::Name, Qt::DisplayRole), shown(RunsModel::Tags, Qt::DisplayRole)}) {
            QVERIFY2(text.size() <= kShownTagsChars, qPrintable(text.left(200)));
            QVERIFY(!text.contains(QLatin1Char('\n')) && !text.contains(QChar(0x1b)));
        }
        QVERIFY(shown(RunsModel::Name, Qt::DisplayRole).endsWith(QChar(0x2026)));
        QVERIFY(shown(RunsModel::Name, Qt::ToolTipRole).size() < 2000);
        dock.selectRun(ids[0]);
        QVERIFY2(dock.minimumSizeHint().width() < 1000,
                 qPrintable(QString::number(dock.minimumSizeHint().width())));
        // A megabyte of notes on one line would stall the editor's layout for minutes.
        const auto* notes = dock.findChild<QPlainTextEdit*>();
        QVERIFY(notes);
        QVERIFY(notes->toPlainText().toUtf8().size() <= qsizetype(kMaxNotesBytes));

        RunView view(&store);
        QSignalSpy loaded(&view, &RunView::loaded);
        view.openRun(ids[0]);
        QVERIFY(loaded.wait(10000));
        QVERIFY2(view.minimumSizeHint().width() < 2000,
                 qPrintable(QString::number(view.minimumSizeHint().width())));
        const EventsModel* events = view.events();
        QTRY_VERIFY_WITH_TIMEOUT(events->rowCount() > 0, 10000);
        for (int r = 0; r < events->rowCount(); ++r) {
            const QString message =
                events->index(r, EventsModel::Message).data(Qt::DisplayRole).toString();
            QVERIFY2(message.size() <= kShownMessageChars, qPrintable(message.left(200)));
        }

        CompareView compare(&store);
        QSignalSpy compared(&compare, &CompareView::loaded);
        compare.setRuns({ids[0]});
        QVERIFY(compared.wait(10000));
        QVERIFY2(compare.minimumSizeHint().width() < 2000,
                 qPrintable(QString::number(compare.minimumSizeHint().width())));
    }
};

QTEST_MAIN(RunsViewTest)
#include "runs_view_test.moc"
