// Setup's "Calibrate this machine…" (issue 24 item 1): the main window over a fresh store
// runs a real, tiny zerolab-calibrate through CalibrateClient; its bar follows the tool's
// --progress-json and only grows, and when it ends the step-time card forecasts from the
// new profile and names it. A cancel kills the calibration and leaves the store's profiles
// as they were; a refused option shows the tool's own message. With ZEROLAB_CALIBRATE_SHOTS
// set to a folder, the window is saved there mid-calibration and after (en and zh_CN).
#include "gui/app/main_window.h"
#include "gui/client/calibrate_client.h"
#include "gui/client/store_client.h"
#include "gui/core/language.h"
#include "gui/views/setup/setup_view.h"
#include "gui/widgets/step_time_card.h"
#include "gui/widgets/time_source_combo.h"
#include "storage/profile_store.h"
#include "storage/run_store.h"

#include <QApplication>
#include <QDir>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <unistd.h>

using namespace zerolab;

namespace {

// One model, one micro-batch, two ranks, collectives up to 64 KiB: about two seconds.
// --allow-load: ctest runs other tests beside this one, and the test is of the GUI, not of
// the profile's accuracy (calibrate_load.h).
const QStringList kTiny = {"--model", "micro", "--micro",     "1",     "--ranks",     "2",
                           "--reps",  "1",     "--max-bytes", "65536", "--allow-load"};
// The same with every collective size up to 64 MiB: long enough to cancel mid-job.
const QStringList kLonger = {"--model", "micro",  "--micro", "1",           "--ranks",
                             "2",       "--reps", "1",       "--allow-load"};

std::size_t storedProfiles(const QString& db) {
    RunStore store = RunStore::open(db.toStdString());
    return machineProfiles(store).size();
}

QString hostName() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return QString::fromLocal8Bit(host);
}

struct Window {
    explicit Window(const QString& db) : window(false) {
        window.resize(1280, 800);
        window.show();
        QSignalSpy opened(window.store(), &StoreClient::opened);
        window.openStore(db);
        opened.wait(10000);
        SetupView* setup = window.setupView();
        setup->forecastTabs()->setCurrentIndex(1); // Step time
        setup->calibrateClient()->setProgram(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab-calibrate"));
    }
    StepTimeCard* card() const { return window.setupView()->stepTime(); }
    CalibrateClient* client() const { return window.setupView()->calibrateClient(); }
    void shot(const QString& name) {
        const QString dir = qEnvironmentVariable("ZEROLAB_CALIBRATE_SHOTS");
        if (dir.isEmpty())
            return;
        QCoreApplication::processEvents();
        window.grab().save(QDir(dir).filePath(
            name + (currentLanguage() == Language::Chinese ? "-zh_CN.png" : "-en.png")));
    }
    MainWindow window;
};

} // namespace

class CalibrateTest : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { QVERIFY(setLanguage(Language::English)); }

    void calibrationMovesTheBarAndNamesTheNewProfile_data() {
        QTest::addColumn<bool>("chinese");
        QTest::newRow("en") << false;
        QTest::newRow("zh_CN") << true;
    }
    void calibrationMovesTheBarAndNamesTheNewProfile() {
        QFETCH(bool, chinese);
        QVERIFY(setLanguage(chinese ? Language::Chinese : Language::English));
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.db"));
        Window w(db);
        StepTimeCard* card = w.card();
        QTRY_VERIFY(card->calibrateButton()->isEnabled());
        QVERIFY(!w.window.store()->machineProfile());
        w.client()->setOptions(kTiny);
        QList<int> values;
        bool shotTaken = false;
        connect(card->calibrationBar(), &QProgressBar::valueChanged, this, [&](int v) {
            values << v;
            if (!shotTaken && v >= 700) { // in the collectives job
                shotTaken = true;
                w.shot(QStringLiteral("calibrate-running"));
            }
        });
        QSignalSpy finished(w.client(), &CalibrateClient::finished);
        card->calibrateButton()->click();
        QVERIFY(w.client()->running());
        QVERIFY(!card->calibrateButton()->isEnabled());
        QVERIFY(card->calibrationBar()->isVisible());
        QVERIFY2(finished.wait(120000), qPrintable(card->calibrationText()));
        // The bar moved through the tool's steps, never back, and ended full.
        QVERIFY2(values.size() >= 10, qPrintable(QString::number(values.size())));
        for (int i = 1; i < values.size(); ++i)
            QVERIFY2(values[i] >= values[i - 1], qPrintable(QString::number(i)));
        QCOMPARE(values.back(), 1000);
        QVERIFY(!card->calibrationBar()->isVisible());
        // The store holds the profile and the card forecasts from it, named.
        QCOMPARE(storedProfiles(db), std::size_t(1));
        QTRY_VERIFY(w.window.store()->machineProfile().has_value());
        QVERIFY(card->sourceCombo()->source().isMachine());
        QVERIFY(card->forecasts()[1].has_value());
        const QString named =
            chinese ? QStringLiteral("本机") : QStringLiteral("this machine, calibrated on ");
        QVERIFY2(card->profileText().contains(named), qPrintable(card->profileText()));
        QVERIFY2(card->profileText().contains(hostName()), qPrintable(card->profileText()));
        QVERIFY(card->calibrateButton()->isEnabled());
        w.shot(QStringLiteral("calibrate-done"));
    }

    void cancelLeavesTheStoresProfilesAsTheyWere() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.db"));
        Window w(db);
        StepTimeCard* card = w.card();
        QTRY_VERIFY(card->calibrateButton()->isEnabled());
        // One profile there already, from a calibration that ended.
        w.client()->setOptions(kTiny);
        QSignalSpy finished(w.client(), &CalibrateClient::finished);
        card->calibrateButton()->click();
        QVERIFY2(finished.wait(120000), qPrintable(card->calibrationText()));
        QCOMPARE(storedProfiles(db), std::size_t(1));

        // Cancelled in its collectives job: the tool's mpirun ranks are running.
        w.client()->setOptions(kLonger);
        QSignalSpy cancelled(w.client(), &CalibrateClient::cancelled);
        QSignalSpy ended(w.client(), &CalibrateClient::finished);
        connect(w.client(), &CalibrateClient::progressed, this, [&](const CalibrationStep& s) {
            if (s.phase == QStringLiteral("collectives") &&
                card->cancelCalibrationButton()->isVisible())
                card->cancelCalibrationButton()->click();
        });
        card->calibrateButton()->click();
        QVERIFY2(cancelled.wait(120000), qPrintable(card->calibrationText()));
        QCOMPARE(ended.count(), 0);
        QVERIFY(!w.client()->running());
        QVERIFY2(card->calibrationText().contains(QStringLiteral("cancelled")),
                 qPrintable(card->calibrationText()));
        QCOMPARE(storedProfiles(db), std::size_t(1));
        QVERIFY(card->calibrateButton()->isEnabled());
        QVERIFY(!card->calibrationBar()->isVisible());
    }

    void aFailedCalibrationShowsTheToolsMessage() {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.db"));
        Window w(db);
        StepTimeCard* card = w.card();
        QTRY_VERIFY(card->calibrateButton()->isEnabled());
        w.client()->setOptions({"--ranks", "1"});
        QSignalSpy failed(w.client(), &CalibrateClient::failed);
        card->calibrateButton()->click();
        QVERIFY(failed.wait(60000));
        const QString text = card->calibrationText();
        QVERIFY2(text.contains(QStringLiteral("exit 2")) &&
                     text.contains(QStringLiteral("--ranks: each at least 2, got 1")),
                 qPrintable(text));
        QCOMPARE(storedProfiles(db), std::size_t(0));
        QVERIFY(card->calibrateButton()->isEnabled());
    }

    // No store, no calibration: the button says why it is off.
    void withoutAStoreTheButtonIsOff() {
        SetupView view;
        QVERIFY(!view.stepTime()->calibrateButton()->isEnabled());
        QVERIFY(!view.stepTime()->calibrateButton()->toolTip().isEmpty());
    }
};

QTEST_MAIN(CalibrateTest)
#include "calibrate_test.moc"
