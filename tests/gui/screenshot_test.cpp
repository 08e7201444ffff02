// Runs the real executable with --screenshot for every tab over a fixture store
// and fails on a missing, wrongly sized, blank or nearly uniform image; and its flags
// that need no display (--help, --version) or refuse input (--db in a missing folder).
#include "fixture_store.h"

#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

using namespace zerolab;

class ScreenshotTest : public QObject {
    Q_OBJECT
private slots:
    void everyTabRenders_data() {
        QTest::addColumn<QString>("tab");
        for (const char* t : {"setup", "learn", "run", "compare"})
            QTest::newRow(t) << QString::fromLatin1(t);
    }

    void everyTabRenders() {
        QFETCH(QString, tab);
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("runs.db"));
        const auto ids = writeFixtureStore(db.toStdString(), defaultFixtureRuns());
        const QString png = dir.filePath(tab + QStringLiteral(".png"));
        QProcess app;
        app.setProcessChannelMode(QProcess::MergedChannels);
        app.start(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab"),
                  {QStringLiteral("--db"), db, QStringLiteral("--tab"), tab,
                   QStringLiteral("--open-run"), QString::number(ids[1]),
                   QStringLiteral("--compare"),
                   QStringLiteral("%1,%2,%3").arg(ids[0]).arg(ids[1]).arg(ids[3]),
                   QStringLiteral("--screenshot"), png});
        QVERIFY(app.waitForFinished(60000));
        QVERIFY2(app.exitCode() == 0, app.readAll().constData());
        QImage image(png);
        QVERIFY2(!image.isNull(), "no image written");
        QVERIFY(image.width() >= 1280 && image.height() >= 800);
        // A real screen has many distinct colours; a blank or failed render has a handful.
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 40, qPrintable(QStringLiteral("%1 colours").arg(colours.size())));
    }

    // Issue 27: --help and --version work without a display; without one (and without a
    // platform chosen) the app says what to do and exits 1, not Qt's xcb abort.
    void helpAndVersionNeedNoDisplay() {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(QString::fromLatin1(v));
        const auto run = [&](const QStringList& args) {
            QProcess app;
            app.setProcessEnvironment(env);
            app.setProcessChannelMode(QProcess::MergedChannels);
            app.start(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab"), args);
            app.waitForFinished(60000);
            return std::make_pair(app.exitCode(), QString::fromUtf8(app.readAll()));
        };
        const auto [helpCode, help] = run({QStringLiteral("--help")});
        QVERIFY2(helpCode == 0, qPrintable(help));
        QVERIFY2(help.contains(QStringLiteral("--db")), qPrintable(help));
        const auto [versionCode, version] = run({QStringLiteral("--version")});
        QVERIFY2(versionCode == 0, qPrintable(version));
        QVERIFY2(version.contains(QStringLiteral("zerolab 0.")), qPrintable(version));
        const auto [plainCode, plain] = run({});
        QCOMPARE(plainCode, 1);
        QVERIFY2(plain.contains(QStringLiteral("no display")), qPrintable(plain));
        QVERIFY2(plain.contains(QStringLiteral("QT_QPA_PLATFORM=offscreen")), qPrintable(plain));
    }

    // --db in a folder that does not exist is refused (exit 2, naming the folder), not
    // silently created.
    void dbInAMissingFolderIsRefused() {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no/such/folder"));
        QProcess app;
        app.setProcessChannelMode(QProcess::MergedChannels);
        app.start(QStringLiteral(ZEROLAB_BIN_DIR "/zerolab"),
                  {QStringLiteral("--db"), missing + QStringLiteral("/runs.db"),
                   QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png"))});
        QVERIFY(app.waitForFinished(60000));
        const QString out = QString::fromUtf8(app.readAll());
        QCOMPARE(app.exitCode(), 2);
        QVERIFY2(out.contains(missing), qPrintable(out));
        QVERIFY(!QFileInfo::exists(missing));
    }
};

QTEST_MAIN(ScreenshotTest)
#include "screenshot_test.moc"
