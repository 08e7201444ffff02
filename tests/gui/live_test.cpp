// Launching and steering live runs. A fake mpirun (fake_mpirun.sh) covers the
// SIGTERM -> SIGKILL path, the parsing of a crash message and a missing launcher; the
// real runtime under real mpirun on `nano` covers start, live points, Apply & restart
// (same run, new segment, another stage and N), stop -> stopped, a killed rank ->
// failed naming the rank, and the scripted `zerolab --start --exit-when-done`.
#include "gui/app/main_window.h"
#include "gui/client/live_controller.h"
#include "gui/client/store_client.h"
#include "gui/core/config_validation.h"
#include "gui/core/language.h"
#include "gui/views/run/live_panel.h"
#include "gui/views/run/run_view.h"
#include "gui/views/setup/config_form.h"
#include "gui/views/setup/setup_view.h"
#include "gui/widgets/log_console.h"
#include "gui/widgets/time_series_plot.h"
#include "storage/run_reader.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace zerolab;

namespace {

constexpr int kRunTimeoutMs = 30000;

QString nanoConfig(int steps, int stage) {
    return QStringLiteral(R"({"train_batch_size": 12, "optimizer": {"type": "AdamW",
  "params": {"lr": 0.003}}, "zero_optimization": {"stage": %1},
  "model": {"preset": "nano", "seq_len": 16},
  "run": {"steps": %2, "log_every": 1, "threads": 1}})")
        .arg(stage)
        .arg(steps);
}

TrainConfig validConfig(const QString& text, int world) {
    const ConfigValidation v = validateConfigText(text, world);
    if (!v.config)
        qFatal("test config invalid: %s", qPrintable(v.diagnostics.value(0).message));
    return *v.config;
}

RunRecord storedRun(const QString& db, qint64 id) {
    RunReader reader(RunStore::open(db.toStdString(), OpenMode::ReadOnly));
    return reader.run(id);
}

} // namespace

class LiveTest : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void stopEscalatesToSigkill();
    void crashMessageNamesTheRank();
    void metricLinesOfWrongTypesAreIgnored();
    void missingLauncherIsAClearMessage();
    void realRunStartRestartStop();
    void languageSwitchKeepsTheLiveRun();
    void killedRankFailsTheRun();
    void stalledRankShowsTheBanner();
    void runLeftRunningIsLiveAgainOnReopen();
    void scriptedStartExitWhenDone();

private:
    void openStore(StoreClient& store);
    bool openWithNano(MainWindow& window, int stage, int world);
    QTemporaryDir* m_dir = nullptr;
    QString m_db;
};

void LiveTest::init() {
    delete m_dir;
    m_dir = new QTemporaryDir;
    m_db = m_dir->filePath(QStringLiteral("runs.db"));
}

void LiveTest::cleanup() {
    QVERIFY(setLanguage(Language::English));
}

void LiveTest::openStore(StoreClient& store) {
    QSignalSpy opened(&store, &StoreClient::opened);
    store.open(m_db);
    QVERIFY(opened.wait(10000));
}

void LiveTest::stopEscalatesToSigkill() {
    StoreClient store;
    openStore(store);
    LiveController live(&store);
    LauncherOptions o;
    o.launcher = QStringLiteral(ZEROLAB_FAKE_MPIRUN);
    o.stopGraceMs = 500;
    live.setOptions(o);
    qputenv("FAKE_MPIRUN_MODE", "ignore-term");
    QStringList lines;
    connect(&live, &LiveController::logLine, this, [&lines](int rank, const QString& text) {
        lines << QStringLiteral("%1:%2").arg(rank).arg(text);
    });
    QString error;
    QVERIFY2(live.start(validConfig(nanoConfig(10, 1), 2), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(lines.contains(QStringLiteral("1:fake rank 1 up")), 10000);
    QSignalSpy ended(&live, &LiveController::ended);
    live.stop();
    QVERIFY(ended.wait(10000));
    QVERIFY(live.lastExit().stopRequested);
    QVERIFY(live.lastExit().killed); // SIGTERM was ignored: the timeout sent SIGKILL
    QVERIFY(live.lastExit().crashed);
    QVERIFY(!live.ownsProcess());
    QCOMPARE(live.state(), LiveController::State::Ended);
}

void LiveTest::crashMessageNamesTheRank() {
    StoreClient store;
    openStore(store);
    LiveController live(&store);
    LivePanel panel(&live);
    LauncherOptions o;
    o.launcher = QStringLiteral(ZEROLAB_FAKE_MPIRUN);
    live.setOptions(o);
    qputenv("FAKE_MPIRUN_MODE", "crash");
    QSignalSpy ended(&live, &LiveController::ended);
    QString error;
    QVERIFY2(live.start(validConfig(nanoConfig(10, 1), 2), &error), qPrintable(error));
    QVERIFY(ended.wait(10000));
    QCOMPARE(ended.first().at(0).toInt(), 137);
    const QString failure = ended.first().at(1).toString();
    QVERIFY2(failure.contains(QStringLiteral("Rank 1")) &&
                 failure.contains(QStringLiteral("signal 9")),
             qPrintable(failure));
    QVERIFY(live.lastExit().failure);
    QCOMPARE(live.lastExit().failure->rank, 1);
    QVERIFY2(panel.bannerText().contains(QStringLiteral("Rank 1")), qPrintable(panel.bannerText()));
    QVERIFY(!panel.resumeCheckpointButton()->isHidden());
}

// Issue 17 §4 (fuzzing): a metric line whose "type", "run_id" or "step" had another JSON
// type threw nlohmann's type_error out of a slot and aborted the GUI. Such values are now
// read as absent, and the good line that follows still counts.
void LiveTest::metricLinesOfWrongTypesAreIgnored() {
    StoreClient store;
    openStore(store);
    LiveController live(&store);
    LauncherOptions o;
    o.launcher = QStringLiteral(ZEROLAB_FAKE_MPIRUN);
    live.setOptions(o);
    qputenv("FAKE_MPIRUN_MODE", "hostile-lines");
    QSignalSpy ended(&live, &LiveController::ended);
    QString error;
    QVERIFY2(live.start(validConfig(nanoConfig(10, 1), 2), &error), qPrintable(error));
    QVERIFY(ended.wait(10000));
    QCOMPARE(ended.first().at(0).toInt(), 0);
    QCOMPARE(live.progress().step, qint64(2));
    QCOMPARE(live.progress().loss, 3.5);
}

void LiveTest::missingLauncherIsAClearMessage() {
    StoreClient store;
    openStore(store);
    LiveController live(&store);
    LauncherOptions o;
    o.launcher = QStringLiteral("/nonexistent/mpirun");
    live.setOptions(o);
    QSignalSpy ended(&live, &LiveController::ended);
    QString error;
    QVERIFY2(live.start(validConfig(nanoConfig(10, 1), 2), &error), qPrintable(error));
    QVERIFY(ended.wait(10000));
    const QString failure = ended.first().at(1).toString();
    QVERIFY2(failure.contains(QStringLiteral("/nonexistent/mpirun")), qPrintable(failure));
    QCOMPARE(live.lastExit().failure->kind, LaunchFailureKind::LauncherMissing);
}

// Shows the window on the test store with this build's zerolab-train and, in Setup, a
// nano config at ZeRO `stage` on `world` ranks that trains until stopped.
bool LiveTest::openWithNano(MainWindow& window, int stage, int world) {
    window.resize(1280, 800);
    window.show();
    QSignalSpy opened(window.store(), &StoreClient::opened);
    window.openStore(m_db);
    if (!opened.wait(10000))
        return false;
    window.live()->setTrainProgram(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab-train"));
    window.setupView()->setText(nanoConfig(1000000, stage));
    window.setupView()->form()->setWorld(world);
    return true;
}

void LiveTest::realRunStartRestartStop() {
    MainWindow window(false);
    QVERIFY(openWithNano(window, 1, 2));
    LiveController* live = window.live();
    QElapsedTimer clock;
    clock.start();
    QString error;
    QVERIFY2(window.startRun(&error), qPrintable(error));
    RunView* view = window.runView();
    QTRY_VERIFY2_WITH_TIMEOUT(
        view->steps().size() > 0 && view->runId() == live->runId(),
        qPrintable(QStringLiteral("view run %1 with %2 steps, live run %3; "
                                  "console:\n%4")
                       .arg(view->runId())
                       .arg(view->steps().size())
                       .arg(live->runId())
                       .arg(window.console()->visibleLines().join(QLatin1Char('\n')))),
        kRunTimeoutMs);
    qInfo("first point on screen %lld ms after Start", qint64(clock.elapsed()));
    const qint64 runId = live->runId();
    QTRY_VERIFY_WITH_TIMEOUT(view->steps().size() >= 5, kRunTimeoutMs);

    // Apply & restart: stage 3 on 3 ranks, the same run as a new segment.
    QVERIFY2(live->applyAndRestart(3, 3, 1, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(view->segments().size() == 2 && view->steps().size() > 0 &&
                                 view->steps().last(Metric::Step) >
                                     double(view->segments().back().start_step) + 2,
                             kRunTimeoutMs);
    QCOMPARE(live->runId(), runId);
    QCOMPARE(view->segments().back().stage, 3);
    QCOMPARE(view->segments().back().world, 3);
    QCOMPARE(view->lossPlot()->markerCount(), 1);
    QCOMPARE(live->config()->batch.micro_batch, 4);

    QSignalSpy ended(live, &LiveController::ended);
    live->stop();
    QVERIFY(ended.wait(kRunTimeoutMs));
    QCOMPARE(ended.first().at(0).toInt(), 3);
    QCOMPARE(storedRun(m_db, runId).status, RunStatus::Stopped);
    QTRY_COMPARE_WITH_TIMEOUT(view->record().status, RunStatus::Stopped, 10000);
    // The run view lists the run's events as they arrive: the start, the resume, the stop.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const Event& e : view->events()->events())
                if (QString::fromStdString(e.message).contains(
                        QStringLiteral("stopped by request")))
                    return true;
            return false;
        }(),
        10000);
    QVERIFY(view->events()->rowCount() >= 3);
}

// View → Language during a live run: the strip's words change, the run, its supervision,
// the Run view following it and a learning rate being typed are untouched.
void LiveTest::languageSwitchKeepsTheLiveRun() {
    MainWindow window(false);
    QVERIFY(openWithNano(window, 1, 2));
    LiveController* live = window.live();
    QString error;
    QVERIFY2(window.startRun(&error), qPrintable(error));
    RunView* view = window.runView();
    QTRY_VERIFY_WITH_TIMEOUT(view->steps().size() >= 3 && view->runId() == live->runId(),
                             kRunTimeoutMs);
    const qint64 runId = live->runId();
    auto* lr = window.livePanel()->findChild<QDoubleSpinBox*>();
    QVERIFY(lr);
    lr->setValue(0.00123);

    window.findChild<QAction*>(QStringLiteral("language_zh_CN"))->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(window.livePanel()->stopButton()->text(), QStringLiteral("停止"));
    QStringList labels;
    for (const QLabel* l : window.livePanel()->findChildren<QLabel*>())
        labels << l->text();
    QVERIFY2(labels.contains(QStringLiteral("运行中")), qPrintable(labels.join(QLatin1Char('|'))));
    QCOMPARE(live->state(), LiveController::State::Running);
    QCOMPARE(live->runId(), runId);
    QCOMPARE(lr->value(), 0.00123);
    QVERIFY(window.livePanel()->stopButton()->isEnabled());
    // The run goes on and the Run view keeps following it.
    const qsizetype steps = view->steps().size();
    QTRY_VERIFY_WITH_TIMEOUT(view->steps().size() > steps + 2, kRunTimeoutMs);
    QCOMPARE(view->runId(), runId);

    window.findChild<QAction*>(QStringLiteral("language_en"))->trigger();
    QCoreApplication::processEvents();
    QCOMPARE(window.livePanel()->stopButton()->text(), QStringLiteral("Stop"));
    QSignalSpy ended(live, &LiveController::ended);
    live->stop();
    QVERIFY(ended.wait(kRunTimeoutMs));
    QCOMPARE(storedRun(m_db, runId).status, RunStatus::Stopped);
}

void LiveTest::killedRankFailsTheRun() {
    MainWindow window(false);
    QVERIFY(openWithNano(window, 2, 3));
    QString error;
    QVERIFY2(window.startRun(&error), qPrintable(error));
    LiveController* live = window.live();
    QTRY_VERIFY2_WITH_TIMEOUT(window.runView()->steps().size() >= 3,
                              qPrintable(window.console()->visibleLines().join(QLatin1Char('\n'))),
                              kRunTimeoutMs);
    const qint64 runId = live->runId();
    // Rank 1 is mpirun's second child.
    QProcess kids;
    kids.start(QStringLiteral("pgrep"), {QStringLiteral("-P"), QString::number(live->processId())});
    QVERIFY(kids.waitForFinished());
    const QStringList pids = QString::fromLatin1(kids.readAllStandardOutput())
                                 .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(pids.size() >= 2, qPrintable(pids.join(QLatin1Char(' '))));
    QSignalSpy ended(live, &LiveController::ended);
    QCOMPARE(::kill(pid_t(pids[1].toLongLong()), SIGKILL), 0);
    QVERIFY(ended.wait(kRunTimeoutMs));
    QVERIFY(ended.first().at(0).toInt() != 0);
    const QString failure = ended.first().at(1).toString();
    QVERIFY2(failure.contains(QStringLiteral("Rank 1")), qPrintable(failure));
    QVERIFY2(window.livePanel()->bannerText().contains(QStringLiteral("Rank 1")),
             qPrintable(window.livePanel()->bannerText()));
    QVERIFY(!window.livePanel()->resumeCheckpointButton()->isHidden());
    // The store keeps every step before the failure, says failed, and holds mpirun's word.
    QTRY_VERIFY_WITH_TIMEOUT(storedRun(m_db, runId).status == RunStatus::Failed, 10000);
    RunReader reader(RunStore::open(m_db.toStdString(), OpenMode::ReadOnly));
    QVERIFY(reader.summary(runId).steps >= 3);
    bool said = false;
    for (const Event& e : reader.events(runId))
        // The runtime's rank watch ("rank 1 (pid ...) died") or the GUI's parse of
        // mpirun's message ("Rank 1 ... signal 9"), whichever reached the store first.
        said = said || QString::fromStdString(e.message).contains(QStringLiteral("rank 1"),
                                                                  Qt::CaseInsensitive);
    QVERIFY(said);
    QVERIFY(window.console()
                ->visibleLines()
                .join(QLatin1Char('\n'))
                .contains(QStringLiteral("signal 9")));
}

// A rank stopped with SIGSTOP (run.on_stall flag): the store says stalled and the live
// strip shows it with the ranks that have not arrived, offering Kill and Kill & resume;
// Kill ends the job and the run is failed, keeping the stall's reason.
void LiveTest::stalledRankShowsTheBanner() {
    MainWindow window(false);
    QVERIFY(openWithNano(window, 1, 3));
    window.setupView()->setText(
        nanoConfig(1000000, 1)
            .replace(QStringLiteral(R"("threads": 1)"),
                     QStringLiteral(R"("threads": 1, "collective_timeout_s": 2, )"
                                    R"("on_stall": "flag")")));
    QString error;
    QVERIFY2(window.startRun(&error), qPrintable(error));
    LiveController* live = window.live();
    QTRY_VERIFY2_WITH_TIMEOUT(window.runView()->steps().size() >= 3,
                              qPrintable(window.console()->visibleLines().join(QLatin1Char('\n'))),
                              kRunTimeoutMs);
    const qint64 runId = live->runId();
    QProcess kids;
    kids.start(QStringLiteral("pgrep"), {QStringLiteral("-P"), QString::number(live->processId())});
    QVERIFY(kids.waitForFinished());
    const QStringList pids = QString::fromLatin1(kids.readAllStandardOutput())
                                 .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY2(pids.size() == 3, qPrintable(pids.join(QLatin1Char(' '))));
    QCOMPARE(::kill(pid_t(pids[1].toLongLong()), SIGSTOP), 0);
    QTRY_COMPARE_WITH_TIMEOUT(storedRun(m_db, runId).status, RunStatus::Stalled, kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!window.livePanel()->stallText().isEmpty(), kRunTimeoutMs);
    const QString text = window.livePanel()->stallText();
    QVERIFY2(text.contains(QStringLiteral("Run stalled")) &&
                 text.contains(QStringLiteral("rank 1 (pid ") + pids[1]),
             qPrintable(text));
    QVERIFY(window.livePanel()->stallKillButton()->isVisible());
    QVERIFY(window.livePanel()->stallResumeButton()->isVisible());
    QCOMPARE(window.runView()->record().status, RunStatus::Stalled);
    if (qEnvironmentVariableIsSet("ZEROLAB_STALL_SHOT"))
        window.grab().save(qEnvironmentVariable("ZEROLAB_STALL_SHOT"));
    QSignalSpy ended(live, &LiveController::ended);
    window.livePanel()->stallKillButton()->click();
    QVERIFY(ended.wait(kRunTimeoutMs));
    ::kill(pid_t(pids[1].toLongLong()), SIGKILL); // should the job have left it behind
    QTRY_COMPARE_WITH_TIMEOUT(storedRun(m_db, runId).status, RunStatus::Failed, 10000);
    QVERIFY(storedRun(m_db, runId).end_message.find("rank 1 (pid") != std::string::npos);
    QTRY_VERIFY_WITH_TIMEOUT(window.livePanel()->stallText().isEmpty(), 10000);
}

// "Leave running" when the window closes: the job keeps training and writing the store,
// and a new window follows it live again and can stop it through the store.
void LiveTest::runLeftRunningIsLiveAgainOnReopen() {
    qint64 runId = -1;
    {
        MainWindow window(false);
        QVERIFY(openWithNano(window, 1, 2));
        QString error;
        QVERIFY2(window.startRun(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.runView()->steps().size() >= 3, kRunTimeoutMs);
        runId = window.live()->runId();
        window.live()->detach(); // what the close dialog's "Leave running" does
    }
    const std::int64_t before =
        storedRun(m_db, runId).status == RunStatus::Running
            ? RunReader(RunStore::open(m_db.toStdString(), OpenMode::ReadOnly)).summary(runId).steps
            : -1;
    QVERIFY2(before >= 3, "the run did not keep running after its window closed");

    MainWindow again(false);
    QSignalSpy opened(again.store(), &StoreClient::opened);
    again.openStore(m_db);
    QVERIFY(opened.wait(10000));
    again.openRun(runId);
    QTRY_VERIFY_WITH_TIMEOUT(again.live()->isLive() && again.live()->runId() == runId,
                             kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(again.runView()->steps().size() > 0 &&
                                 again.runView()->steps().last(Metric::Step) > double(before) + 5,
                             kRunTimeoutMs);
    QSignalSpy ended(again.live(), &LiveController::ended);
    again.live()->stop(); // no process of ours: a stop command through the store
    QTRY_COMPARE_WITH_TIMEOUT(storedRun(m_db, runId).status, RunStatus::Stopped, kRunTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(again.runView()->record().status, RunStatus::Stopped, 10000);
}

void LiveTest::scriptedStartExitWhenDone() {
    const QString cfg = m_dir->filePath(QStringLiteral("nano.json"));
    QFile f(cfg);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(nanoConfig(20, 1).toUtf8());
    f.close();
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir->filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab"),
              {QStringLiteral("--db"), m_db, QStringLiteral("--config"), cfg,
               QStringLiteral("--start"), QStringLiteral("--exit-when-done")});
    QVERIFY(app.waitForFinished(kRunTimeoutMs));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QVERIFY2(app.exitCode() == 0, app.readAllStandardError().constData());
    RunReader reader(RunStore::open(m_db.toStdString(), OpenMode::ReadOnly));
    const auto runs = reader.listRuns();
    QCOMPARE(int(runs.size()), 1);
    QCOMPARE(runs.front().status, RunStatus::Finished);
    QCOMPARE(runs.front().steps, qint64(20));
}

QTEST_MAIN(LiveTest)
#include "live_test.moc"
