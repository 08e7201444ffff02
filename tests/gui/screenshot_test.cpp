// Runs the real executable with --screenshot for every tab over a fixture store
// and fails on a missing, wrongly sized, blank or nearly uniform image.
#include "fixture_store.h"

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
};

QTEST_MAIN(ScreenshotTest)
#include "screenshot_test.moc"
