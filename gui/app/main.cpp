// zerolab: the desktop app. Parses the flags for scripts and docs (--db, --config,
// --open-run, --tab, --screenshot, --start, --exit-when-done, --screenshot-after, --lang),
// opens the store and the config, and either runs the event loop, renders one
// screenshot at 1280x800 and exits, or launches a run and follows it. With --run-lesson
// it runs a Lab lesson headless instead (no display, no QApplication).
#include "gui/views/compare/compare_view.h"
#include "gui/app/forecast_json.h"
#include "gui/views/lab/lab_view.h"
#include "gui/core/language.h"
#include "gui/client/live_controller.h"
#include "gui/app/main_window.h"
#include "gui/views/run/run_view.h"
#include "gui/views/setup/setup_view.h"
#include "gui/client/store_client.h"
#include "gui/widgets/style.h"
#include "runtime/lab/lab_headless.h"
#include "storage/default_path.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QSize>
#include <QTimer>

#include <cstdio>
#include <cstring>

namespace {

constexpr int kExitInvalidInput = 2;
constexpr int kScreenshotTimeoutMs = 20000;
constexpr int kScreenshotSettleMs = 600;

// --screenshot and --print-forecast must work without a display: pick Qt's offscreen
// platform before QApplication exists unless the caller chose a platform or a display
// is present.
void preferOffscreenForScreenshots(int argc, char** argv) {
    bool screenshot = false;
    for (int i = 1; i < argc; ++i)
        screenshot = screenshot || std::strncmp(argv[i], "--screenshot", 12) == 0 ||
                     std::strcmp(argv[i], "--print-forecast") == 0;
    if (screenshot && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// Waits until the store has answered everything asked of it and the window had
// time to lay out and replot, then grabs the window and quits.
void scheduleScreenshot(zerolab::MainWindow& window, const QString& path) {
    auto* clock = new QElapsedTimer;
    clock->start();
    auto* timer = new QTimer(&window);
    auto quietSince = std::make_shared<qint64>(-1);
    QObject::connect(timer, &QTimer::timeout, &window, [&window, path, clock, timer, quietSince] {
        const qint64 now = clock->elapsed();
        if (window.store()->pending() > 0 || window.labView()->isBusy())
            *quietSince = -1;
        else if (*quietSince < 0)
            *quietSince = now;
        const bool settled = *quietSince >= 0 && now - *quietSince >= kScreenshotSettleMs;
        if (!settled && now < kScreenshotTimeoutMs)
            return;
        timer->stop();
        const QPixmap shot = window.grab();
        const bool ok = !shot.isNull() && shot.save(path);
        if (!ok)
            std::fprintf(stderr, "zerolab: cannot write screenshot %s\n", qPrintable(path));
        delete clock;
        QCoreApplication::exit(ok ? 0 : 1);
    });
    timer->start(100);
}

// Grabs the window `afterS` seconds after the live run's first step reached the
// screen. Without --exit-when-done the run is then stopped and the app quits.
void scheduleLiveScreenshot(zerolab::MainWindow& window, const QString& path, double afterS,
                            bool keepRunning) {
    QObject::connect(
        window.runView(), &zerolab::RunView::loaded, &window,
        [&window, path, afterS, keepRunning] {
            QTimer::singleShot(int(afterS * 1000), &window, [&window, path, keepRunning] {
                const QPixmap shot = window.grab();
                if (shot.isNull() || !shot.save(path))
                    std::fprintf(stderr, "zerolab: cannot write screenshot %s\n", qPrintable(path));
                else
                    std::fprintf(stderr, "zerolab: wrote %s\n", qPrintable(path));
                if (!keepRunning) {
                    QObject::connect(window.live(), &zerolab::LiveController::ended, &window,
                                     [] { QCoreApplication::exit(0); });
                    window.live()->stop();
                }
            });
        },
        Qt::SingleShotConnection);
}

// --print-forecast: the Setup view on FILE, its forecast as JSON on stdout; every
// config error on stderr, named by file, line and JSON path, and exit 2.
int printForecastOf(const QString& path) {
    zerolab::SetupView view;
    if (!view.loadFile(path)) {
        std::fprintf(stderr, "zerolab: --config: cannot read %s\n", qPrintable(path));
        return kExitInvalidInput;
    }
    view.validateNow();
    if (view.validation().errorCount() > 0 || !view.validation().config) {
        for (const auto& d : view.validation().diagnostics)
            if (d.error)
                std::fprintf(stderr, "zerolab: %s:%d: %s%s%s\n", qPrintable(path), d.line,
                             qPrintable(d.path), d.path.isEmpty() ? "" : ": ",
                             qPrintable(d.message));
        return kExitInvalidInput;
    }
    const nlohmann::json j = zerolab::forecastJson(view);
    if (j.is_null()) {
        std::fprintf(stderr, "zerolab: %s: the planner cannot plan this config\n",
                     qPrintable(path));
        return kExitInvalidInput;
    }
    std::printf("%s\n", j.dump(2).c_str());
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    // --run-lesson: the Lab headless (runtime/lab/lab_headless.h), before any QApplication.
    if (const auto code = zerolab::runLessonFromArguments(argc, argv))
        return *code;
    preferOffscreenForScreenshots(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("zerolab"));
    QApplication::setApplicationName(QStringLiteral("zerolab"));
    zerolab::applyAppStyle(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "zerolab: edit a ZeRO config, forecast its memory, review and compare runs."));
    parser.addHelpOption();
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Run store to open."),
                                QStringLiteral("PATH"));
    const QCommandLineOption config(QStringLiteral("config"),
                                    QStringLiteral("Config to load into Setup."),
                                    QStringLiteral("FILE"));
    const QCommandLineOption openRun(QStringLiteral("open-run"),
                                     QStringLiteral("Run id to show in the Run tab."),
                                     QStringLiteral("ID"));
    const QCommandLineOption tab(QStringLiteral("tab"),
                                 QStringLiteral("Tab to show: setup, learn, run, compare, tune or "
                                                "lab."),
                                 QStringLiteral("TAB"));
    const QCommandLineOption compare(QStringLiteral("compare"),
                                     QStringLiteral("Comma-separated run ids for Compare."),
                                     QStringLiteral("IDS"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window at 1280x800 into FILE.png and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption screenshotSize(
        QStringLiteral("screenshot-size"),
        QStringLiteral("With --screenshot: the window size instead of 1280x800 (a taller "
                       "window shows a whole run view)."),
        QStringLiteral("WxH"));
    const QCommandLineOption start(QStringLiteral("start"),
                                   QStringLiteral("Launch the current config at once."));
    const QCommandLineOption exitWhenDone(
        QStringLiteral("exit-when-done"),
        QStringLiteral("Quit when the run ends: exit 0 when it finished, 3 when stopped, 1 "
                       "otherwise."));
    const QCommandLineOption screenshotAfter(
        QStringLiteral("screenshot-after"),
        QStringLiteral("With --start: take --screenshot this many seconds after the first "
                       "step is on screen, then go on (or stop the run and exit without "
                       "--exit-when-done)."),
        QStringLiteral("SECONDS"));
    const QCommandLineOption printForecast(
        QStringLiteral("print-forecast"),
        QStringLiteral("With --config: print the Setup view's forecast (the bytes it draws for "
                       "stages 0-3, the device and the verdict) as JSON and exit."));
    const QCommandLineOption lesson(
        QStringLiteral("lesson"),
        QStringLiteral("A shipped lesson id or a lesson file to open in the Lab tab; with "
                       "--run-lesson, run it headless (see docs/lab.md)."),
        QStringLiteral("ID|FILE"));
    const QCommandLineOption lessonStep(QStringLiteral("lesson-step"),
                                        QStringLiteral("With --lesson: the step to show (its "
                                                       "id or 1-based number)."),
                                        QStringLiteral("STEP"));
    const QCommandLineOption lessonAnswer(
        QStringLiteral("lesson-answer"),
        QStringLiteral("With --lesson: type an answer into the shown step's prediction "
                       "(repeatable)."),
        QStringLiteral("ID=VALUE"));
    const QCommandLineOption lang(
        QStringLiteral("lang"),
        QStringLiteral("GUI language, en or zh_CN; wins over View > Language and the locale."),
        QStringLiteral("LANG"));
    parser.addOptions({db, config, openRun, tab, compare, screenshot, screenshotSize, start,
                       exitWhenDone, screenshotAfter, printForecast, lang, lesson, lessonStep,
                       lessonAnswer});
    parser.process(app);

    if (parser.isSet(printForecast)) {
        if (!parser.isSet(config)) {
            std::fprintf(stderr, "zerolab: --print-forecast needs --config FILE\n");
            return kExitInvalidInput;
        }
        return printForecastOf(parser.value(config));
    }

    QStringList errors;
    std::optional<zerolab::Language> langFlag;
    if (parser.isSet(lang)) {
        langFlag = zerolab::languageFromCode(parser.value(lang));
        if (!langFlag)
            errors << QStringLiteral("--lang: unknown language '%1' (en, zh_CN)")
                          .arg(parser.value(lang));
    }
    std::optional<zerolab::MainWindow::Tab> startTab;
    if (parser.isSet(tab)) {
        startTab = zerolab::MainWindow::tabFromName(parser.value(tab));
        if (!startTab)
            errors << QStringLiteral("--tab: unknown tab '%1' (setup, learn, run, compare, tune, "
                                     "lab)")
                          .arg(parser.value(tab));
    }
    qint64 runId = -1;
    if (parser.isSet(openRun)) {
        bool ok = false;
        runId = parser.value(openRun).toLongLong(&ok);
        if (!ok || runId < 0)
            errors << QStringLiteral("--open-run: '%1' is not a run id").arg(parser.value(openRun));
    }
    QList<qint64> compareIds;
    if (parser.isSet(compare)) {
        for (const QString& part :
             parser.value(compare).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            compareIds << part.trimmed().toLongLong(&ok);
            if (!ok)
                errors << QStringLiteral("--compare: '%1' is not a run id").arg(part);
        }
    }
    double shotAfterS = -1;
    if (parser.isSet(screenshotAfter)) {
        bool ok = false;
        shotAfterS = parser.value(screenshotAfter).toDouble(&ok);
        if (!ok || shotAfterS < 0)
            errors << QStringLiteral("--screenshot-after: '%1' is not a number of seconds")
                          .arg(parser.value(screenshotAfter));
        if (!parser.isSet(start) || !parser.isSet(screenshot))
            errors << QStringLiteral("--screenshot-after needs --start and --screenshot");
    }
    QSize shotSize(1280, 800);
    if (parser.isSet(screenshotSize)) {
        const QStringList wh = parser.value(screenshotSize).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            shotSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || shotSize.width() < 320 || shotSize.height() < 240 ||
            shotSize.width() > 8192 || shotSize.height() > 8192)
            errors << QStringLiteral("--screenshot-size: '%1' is not WIDTHxHEIGHT in pixels "
                                     "(320x240 to 8192x8192)")
                          .arg(parser.value(screenshotSize));
        if (!parser.isSet(screenshot))
            errors << QStringLiteral("--screenshot-size needs --screenshot");
    }
    if ((parser.isSet(lessonStep) || parser.isSet(lessonAnswer)) && !parser.isSet(lesson))
        errors << QStringLiteral("--lesson-step and --lesson-answer need --lesson");
    for (const QString& answer : parser.values(lessonAnswer))
        if (!answer.contains(QLatin1Char('=')))
            errors << QStringLiteral("--lesson-answer: '%1' is not ID=VALUE").arg(answer);
    if (parser.isSet(exitWhenDone) && !parser.isSet(start))
        errors << QStringLiteral("--exit-when-done needs --start");
    QString storePath = parser.value(db);
    const bool shooting = parser.isSet(screenshot);
    if (storePath.isEmpty() && !shooting)
        storePath = zerolab::MainWindow::savedStorePath();
    if (storePath.isEmpty()) {
        try {
            storePath = QString::fromStdString(zerolab::defaultStorePath());
        } catch (const std::exception& e) {
            errors << QStringLiteral("store: %1").arg(QString::fromUtf8(e.what()));
        }
    }
    if (!errors.isEmpty()) {
        for (const QString& e : errors)
            std::fprintf(stderr, "zerolab: %s\n", qPrintable(e));
        return kExitInvalidInput;
    }

    // A scripted screenshot, like its layout, does not read the user's saved choice.
    const zerolab::Language language = zerolab::chooseLanguage(
        langFlag, shooting ? std::nullopt : zerolab::savedLanguage(), QLocale::system());
    if (!zerolab::setLanguage(language))
        std::fprintf(stderr, "zerolab: no %s translation in this build; English it is\n",
                     qPrintable(zerolab::languageCode(language)));
    zerolab::MainWindow window(!shooting);
    QString configPath = parser.value(config);
    if (configPath.isEmpty() && !shooting)
        configPath = zerolab::MainWindow::savedConfigPath();
    if (!configPath.isEmpty() && !window.openConfig(configPath) && parser.isSet(config)) {
        std::fprintf(stderr, "zerolab: --config: cannot read %s\n", qPrintable(configPath));
        return kExitInvalidInput;
    }
    window.openStore(storePath);
    if (runId >= 0)
        window.openRun(runId);
    if (compareIds.size() >= 2)
        window.compareRuns(compareIds);
    if (parser.isSet(lesson)) {
        zerolab::LabView* lab = window.labView();
        QString error;
        if (!lab->openLesson(parser.value(lesson), &error)) {
            std::fprintf(stderr, "zerolab: --lesson: %s\n", qPrintable(error));
            return kExitInvalidInput;
        }
        if (parser.isSet(lessonStep) && !lab->showStep(parser.value(lessonStep))) {
            std::fprintf(stderr, "zerolab: --lesson-step: the lesson has no step '%s'\n",
                         qPrintable(parser.value(lessonStep)));
            return kExitInvalidInput;
        }
        for (const QString& answer : parser.values(lessonAnswer)) {
            const QString id = answer.section(QLatin1Char('='), 0, 0);
            if (!lab->setPredictionText(id, answer.section(QLatin1Char('='), 1))) {
                std::fprintf(stderr, "zerolab: --lesson-answer: the step has no prediction '%s'\n",
                             qPrintable(id));
                return kExitInvalidInput;
            }
        }
        window.setTab(startTab.value_or(zerolab::MainWindow::Tab::Lab));
    } else if (startTab) {
        window.setTab(*startTab);
    }

    if (parser.isSet(start)) {
        // The store opens on its worker thread; launch once it is open.
        const bool quitWhenDone = parser.isSet(exitWhenDone);
        QObject::connect(
            window.store(), &zerolab::StoreClient::opened, &window,
            [&window] {
                QString error;
                if (!window.startRun(&error)) {
                    std::fprintf(stderr, "zerolab: --start: %s\n", qPrintable(error));
                    QCoreApplication::exit(kExitInvalidInput);
                }
            },
            Qt::SingleShotConnection);
        QObject::connect(window.store(), &zerolab::StoreClient::failed, &window,
                         [&window](const QString& message) {
                             if (window.store()->path().isEmpty()) {
                                 std::fprintf(stderr, "zerolab: %s\n", qPrintable(message));
                                 QCoreApplication::exit(kExitInvalidInput);
                             }
                         });
        QObject::connect(window.live(), &zerolab::LiveController::ended, &window,
                         [quitWhenDone](int exitCode, const QString& failure) {
                             if (!failure.isEmpty())
                                 std::fprintf(stderr, "zerolab: %s\n", qPrintable(failure));
                             if (quitWhenDone)
                                 QCoreApplication::exit(exitCode == 0 ? 0 : exitCode == 3 ? 3 : 1);
                         });
        if (shotAfterS >= 0)
            scheduleLiveScreenshot(window, parser.value(screenshot), shotAfterS, quitWhenDone);
        window.resize(shotSize);
        window.show();
    } else if (shooting) {
        window.resize(shotSize);
        window.show();
        scheduleScreenshot(window, parser.value(screenshot));
    } else {
        window.show();
    }
    return app.exec();
}
