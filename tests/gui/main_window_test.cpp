// The main window's screen manners: the size it opens at, a Console the user closed
// staying closed on the next run, the runs list following the Run tab, and the live
// strip's Stop and Kill only for the live run while it is live.
#include "fixture_store.h"
#include "gui/app/main_window.h"
#include "gui/client/live_controller.h"
#include "gui/client/store_client.h"
#include "gui/views/run/live_panel.h"
#include "gui/views/run/run_view.h"
#include "gui/views/run/runs_dock.h"
#include "gui/widgets/log_console.h"
#include "storage/run_writer.h"
#include "tests/support/tmpfs_mount.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QtTest>

using namespace zerolab;

class MainWindowTest : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<std::int64_t> m_ids;

    // Opens the fixture store and waits until the runs list has it.
    static bool openStore(MainWindow& window, const QString& db) {
        QSignalSpy listed(window.store(), &StoreClient::runsListed);
        window.openStore(db);
        return listed.wait(10000);
    }
    static void openRunAndWait(MainWindow& window, qint64 id) {
        QSignalSpy loaded(window.runView(), &RunView::loaded);
        window.openRun(id);
        QVERIFY(loaded.wait(10000));
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(QStringLiteral("runs.db"));
        m_ids = writeFixtureStore(m_db.toStdString(), defaultFixtureRuns());
    }

    // Issue 29 §7, the GUI: a cleanly closed store on a read-only file system opens
    // read-only, the status bar says so and the runs panel lists its runs (before: "not a
    // readable run store" and "No runs yet").
    void storeOnReadOnlyFileSystemOpensReadOnly() {
        test::TmpfsMount disk(8 << 20);
        if (!disk.ok())
            QSKIP(qPrintable(QString::fromStdString(disk.reason())));
        const QString db = QString::fromStdString(disk.file("runs.db"));
        const auto ids =
            writeFixtureStore(db.toStdString(), {FixtureRun{"frozen", 1, 2, 5, false, {}}});
        QVERIFY(!QFile::exists(db + QStringLiteral("-wal")));
        QVERIFY2(disk.remountReadOnly(), disk.reason().c_str());
        MainWindow window(false);
        QSignalSpy failed(window.store(), &StoreClient::failed);
        QVERIFY(openStore(window, db));
        QVERIFY(window.store()->readOnly());
        QCOMPARE(window.runsDock()->model()->rowCount(), 1);
        QVERIFY(window.runsDock()->model()->rowOf(ids[0]) >= 0);
        const auto labels = window.statusBar()->findChildren<QLabel*>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [&](const QLabel* l) {
            return l->text() == QStringLiteral("Store: %1 (read-only: on a read-only file "
                                               "system; notes, tags and runs cannot be changed)")
                                    .arg(db);
        }));
        QCOMPARE(failed.count(), 0);
    }

    // A store named relative to the working directory is kept absolute: launched runs
    // start in their own launch folder, where "runs.db" would be another file.
    void relativeStorePathIsMadeAbsolute() {
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_dir.path()));
        MainWindow window(false);
        const bool opened = openStore(window, QStringLiteral("runs.db"));
        QDir::setCurrent(cwd);
        QVERIFY(opened);
        QCOMPARE(window.store()->path(), m_db);
    }

    void defaultSizeIsAShareOfTheScreen() {
        const QSize content(900, 500);
        QCOMPARE(MainWindow::defaultSize({1920, 1050}, content), QSize(1632, 892));
        // Never below the minimum while the screen has room...
        QCOMPARE(MainWindow::defaultSize({1366, 728}, content), QSize(1161, 700));
        QCOMPARE(MainWindow::defaultSize({1366, 728}, {1200, 720}), QSize(1200, 720));
        // ...and never beyond the screen.
        QCOMPARE(MainWindow::defaultSize({1024, 600}, content), QSize(1024, 600));
    }

    void windowOpensWithinTheScreen() {
        MainWindow window(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QSize available = window.screen()->availableGeometry().size();
        QCOMPARE(available, QSize(1920, 1080));
        const QSize floor = MainWindow::kMinimumSize.boundedTo(available);
        QVERIFY2(window.width() >= floor.width() && window.height() >= floor.height(),
                 qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));
        QVERIFY2(window.width() <= available.width() && window.height() <= available.height(),
                 qPrintable(QStringLiteral("%1x%2 on %3x%4")
                                .arg(window.width())
                                .arg(window.height())
                                .arg(available.width())
                                .arg(available.height())));
    }

    // A long line (an mpirun error naming a path) wraps at the console's width: its end
    // is read without scrolling sideways.
    void longConsoleLinesWrap() {
        LogConsole console;
        console.resize(420, 300);
        console.show();
        QVERIFY(QTest::qWaitForWindowExposed(&console));
        const QString line = QStringLiteral("[1,3]<stderr>: error: cannot open shard ") +
                             QString(40, QLatin1Char('x')) + QStringLiteral("/") +
                             QString(120, QLatin1Char('y'));
        console.addLine(3, line);
        console.addLine(-1,
                        QStringLiteral("mpirun noticed that process rank 3 exited on signal 9"));
        QCoreApplication::processEvents();
        auto* view = console.findChild<QPlainTextEdit*>();
        QVERIFY(view);
        QCOMPARE(view->horizontalScrollBar()->maximum(), 0);
        QCOMPARE(console.visibleLines().size(), 2);
        console.grab().save(QDir::temp().filePath(QStringLiteral("zerolab-console-wrap.png")));
        // The unbroken run of y's wraps too, anywhere: it is one line of text, shown in several.
        QVERIFY2(view->document()->firstBlock().lineCount() >= 3,
                 qPrintable(QString::number(view->document()->firstBlock().lineCount())));
    }

    void consoleClosedByTheUserStaysClosed() {
        QTemporaryDir dir;
        MainWindow window(false);
        window.show();
        QVERIFY(openStore(window, dir.filePath(QStringLiteral("runs.db"))));
        LauncherOptions o;
        o.launcher = QStringLiteral(ZEROLAB_FAKE_MPIRUN);
        o.stopGraceMs = 300;
        window.live()->setOptions(o);
        qputenv("FAKE_MPIRUN_MODE", "ignore-term");
        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("consoleDock"));
        QVERIFY(dock);
        const auto runOnce = [&] {
            QString error;
            QVERIFY2(window.startRun(&error), qPrintable(error));
            QSignalSpy ended(window.live(), &LiveController::ended);
            window.live()->kill();
            QVERIFY(ended.wait(10000));
        };

        runOnce();
        QVERIFY(dock->isVisible()); // the first run shows its log
        QVERIFY(dock->close());
        QVERIFY(window.consoleDismissed());
        runOnce();
        QVERIFY(!dock->isVisible());
        // Shown again from the View menu, it opens with runs again.
        dock->toggleViewAction()->trigger();
        QVERIFY(dock->isVisible());
        QVERIFY(!window.consoleDismissed());
        runOnce();
        QVERIFY(dock->isVisible());
    }

    void runsListFollowsTheRunTab() {
        MainWindow window(false);
        window.show();
        // Opened before the store has listed its runs (as --open-run does).
        window.openRun(m_ids[2]);
        window.setTab(MainWindow::Tab::Setup);
        QVERIFY(openStore(window, m_db));
        QCOMPARE(window.runsDock()->selectedRunIds(), QList<qint64>{m_ids[2]});
        // Selecting it did not pull the user to another tab.
        QTest::qWait(200);
        QCOMPARE(window.runView()->runId(), m_ids[2]);

        openRunAndWait(window, m_ids[4]);
        QCOMPARE(window.runsDock()->selectedRunIds(), QList<qint64>{m_ids[4]});
        // A new listing (every store change) keeps it.
        QSignalSpy listed(window.store(), &StoreClient::runsListed);
        window.store()->listRuns();
        QVERIFY(listed.wait(10000));
        QCOMPARE(window.runsDock()->selectedRunIds(), QList<qint64>{m_ids[4]});
    }

    void stopAndKillOnlyForTheLiveRun() {
        // A run "left running" elsewhere: created, heartbeating, not finished.
        QTemporaryDir dir;
        const std::string db = dir.filePath(QStringLiteral("runs.db")).toStdString();
        const qint64 pastId =
            writeFixtureStore(db, {FixtureRun{"past", 1, 2, 20, false, {}}}).front();
        RunWriter writer(RunStore::open(db));
        RunInfo info;
        info.name = "live";
        info.host = "another-host";
        info.world = 2;
        info.stage = 1;
        info.precision = "fp32";
        const qint64 liveId = writer.createRun(info);
        writer.beginSegment(Segment{0, 0, 2, 1, 1, 8, "start"});
        writer.heartbeat();

        MainWindow window(false);
        window.show();
        QVERIFY(openStore(window, QString::fromStdString(db)));
        LivePanel* panel = window.livePanel();
        LiveController* live = window.live();
        openRunAndWait(window, liveId);
        QTRY_VERIFY_WITH_TIMEOUT(live->isLive(), 5000); // followed, as a run left running is
        QCOMPARE(live->runId(), liveId);
        QVERIFY(panel->stopButton()->isEnabled());
        QVERIFY(panel->killButton()->isEnabled());

        // Reviewing a past run: nothing on screen to stop.
        openRunAndWait(window, pastId);
        QVERIFY(!panel->stopButton()->isEnabled());
        QVERIFY(!panel->killButton()->isEnabled());
        openRunAndWait(window, liveId);
        QVERIFY(panel->stopButton()->isEnabled());

        // The run ends: the store says so, and the buttons go grey.
        QSignalSpy ended(live, &LiveController::ended);
        writer.finish(RunStatus::Finished, "done");
        QVERIFY(ended.wait(10000));
        QCOMPARE(live->state(), LiveController::State::Ended);
        QVERIFY(!panel->stopButton()->isEnabled());
        QVERIFY(!panel->killButton()->isEnabled());
    }

    // Issue 17: a run whose stored name, tags and event are huge, invalid UTF-8 and full
    // of control characters and markup leaves the window's layout as it was: with the run
    // open in the Run tab and selected in the list, the window needs no more room than
    // with a run of a plain name (before, it grew past a PNG's width limit).
    void hostileStoredTextKeepsTheWindowSize() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("hostile.db"));
        const std::string control = "\x1b[31m\r\n<h1>markup</h1>";
        FixtureRun run{std::string(100'000, 'n') + "\xff\xfe" + control, 1, 2, 20, false,
                       {std::string(5000, 't'), "bad \xff" + control}};
        const auto ids = writeFixtureStore(db.toStdString(), {run});
        {
            RunWriter w(RunStore::open(db.toStdString()));
            w.attachRun(ids[0]);
            w.addEvent(EventLevel::Warn, 0, std::string(100'000, 'e') + control);
        }
        MainWindow window(false);
        QVERIFY(openStore(window, db));
        openRunAndWait(window, ids[0]);
        window.show();
        MainWindow plain(false); // the fixture's first run, with its plain name
        QVERIFY(openStore(plain, m_db));
        openRunAndWait(plain, m_ids[0]);
        plain.show();
        const QSize limit = plain.minimumSizeHint();
        QStringList wide; // what grew, to name it when this fails
        for (QWidget* w : window.findChildren<QWidget*>())
            if (w->minimumSizeHint().width() > limit.width())
                wide << QStringLiteral("%1 %2: %3")
                            .arg(QString::fromUtf8(w->metaObject()->className()), w->objectName())
                            .arg(w->minimumSizeHint().width());
        QVERIFY2(window.minimumSizeHint().width() <= limit.width() &&
                     window.minimumSizeHint().height() <= limit.height(),
                 qPrintable(wide.join(QStringLiteral("; "))));
    }
};

// Qt's offscreen screen is 800x800 by default, smaller than the content; the window
// tests run on a 1920x1080 one (the platform's configfile option).
int main(int argc, char** argv) {
    QTemporaryDir dir;
    QFile screens(dir.filePath(QStringLiteral("screens.json")));
    if (!screens.open(QIODevice::WriteOnly) ||
        screens.write(R"({"screens": [{"name": "fhd", "x": 0, "y": 0, "width": 1920,
          "height": 1080, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})") < 0)
        return 1;
    screens.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + screens.fileName().toUtf8());
    QApplication app(argc, argv);
    MainWindowTest test;
    return QTest::qExec(&test, argc, argv);
}
#include "main_window_test.moc"
