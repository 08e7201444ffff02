// zerolab: the desktop app. Parses the flags for scripts and docs (--db, --config,
// --open-run, --tab, --screenshot, --start, --exit-when-done, --screenshot-after, --lang),
// opens the store and the config, and either runs the event loop, renders one
// screenshot at 1280x800 and exits, or launches a run and follows it. With --run-lesson
// it runs a Lab lesson headless instead (no display, no QApplication).
#include "gui/app/forecast_json.h"
#include "gui/app/main_window.h"
#include "gui/client/live_controller.h"
#include "gui/client/store_client.h"
#include "gui/core/language.h"
#include "gui/views/compare/compare_view.h"
#include "gui/views/lab/lab_view.h"
#include "gui/views/learn/learn_view.h"
#include "gui/views/run/run_view.h"
#include "gui/views/setup/setup_view.h"
#include "gui/views/tune/tune_view.h"
#include "gui/widgets/font_zoom.h"
#include "gui/widgets/style.h"
#include "runtime/lab/lab_headless.h"
#include "runtime/text/stdout_written.h"
#include "storage/default_path.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSize>
#include <QTabWidget>
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
        if (window.store()->pending() > 0 || window.labView()->isBusy() ||
            window.tuneView()->isBusy())
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

// The command line's options (--help lists them).
struct Flags {
    QCommandLineOption db{QStringLiteral("db"), QStringLiteral("Run store to open."),
                          QStringLiteral("PATH")};
    QCommandLineOption config{QStringLiteral("config"),
                              QStringLiteral("Config to load into Setup."), QStringLiteral("FILE")};
    QCommandLineOption openRun{QStringLiteral("open-run"),
                               QStringLiteral("Run id to show in the Run tab."),
                               QStringLiteral("ID")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QStringLiteral("Tab to show: setup, learn, run, compare, tune or lab "
                                          "(learn-bandwidth: Learn on its step time against "
                                          "bandwidth; learn-zeropp: Learn on ZeRO++'s bytes "
                                          "across hosts; setup-time: Setup on its step-time "
                                          "forecast)."),
                           QStringLiteral("TAB")};
    QCommandLineOption compare{QStringLiteral("compare"),
                               QStringLiteral("Comma-separated run ids for Compare."),
                               QStringLiteral("IDS")};
    QCommandLineOption screenshot{
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window at 1280x800 into FILE.png and exit."),
        QStringLiteral("FILE.png")};
    QCommandLineOption screenshotSize{
        QStringLiteral("screenshot-size"),
        QStringLiteral("With --screenshot: the window size instead of 1280x800 (a taller "
                       "window shows a whole run view)."),
        QStringLiteral("WxH")};
    QCommandLineOption start{QStringLiteral("start"),
                             QStringLiteral("Launch the current config at once.")};
    QCommandLineOption exitWhenDone{
        QStringLiteral("exit-when-done"),
        QStringLiteral("Quit when the run ends: exit 0 when it finished, 3 when stopped, 1 "
                       "otherwise.")};
    QCommandLineOption screenshotAfter{
        QStringLiteral("screenshot-after"),
        QStringLiteral("With --start: take --screenshot this many seconds after the first "
                       "step is on screen, then go on (or stop the run and exit without "
                       "--exit-when-done)."),
        QStringLiteral("SECONDS")};
    QCommandLineOption printForecast{
        QStringLiteral("print-forecast"),
        QStringLiteral("With --config: print the Setup view's forecast (the bytes it draws for "
                       "stages 0-3, the device and the verdict) as JSON and exit.")};
    QCommandLineOption lesson{
        QStringLiteral("lesson"),
        QStringLiteral("A shipped lesson id or a lesson file to open in the Lab tab; with "
                       "--run-lesson, run it headless (see docs/lab.md)."),
        QStringLiteral("ID|FILE")};
    QCommandLineOption lessonStep{QStringLiteral("lesson-step"),
                                  QStringLiteral("With --lesson: the step to show (its id or "
                                                 "1-based number)."),
                                  QStringLiteral("STEP")};
    QCommandLineOption lessonAnswer{
        QStringLiteral("lesson-answer"),
        QStringLiteral("With --lesson: type an answer into the shown step's prediction "
                       "(repeatable)."),
        QStringLiteral("ID=VALUE")};
    QCommandLineOption lang{
        QStringLiteral("lang"),
        QStringLiteral("GUI language, en or zh_CN; wins over View > Language and the locale."),
        QStringLiteral("LANG")};
    QCommandLineOption fontZoom{
        QStringLiteral("font-zoom"),
        QStringLiteral("Text this many steps larger (negative: smaller), as Ctrl + and Ctrl - "
                       "do; -2 to 6."),
        QStringLiteral("STEPS")};

    void addTo(QCommandLineParser& parser) const {
        parser.setApplicationDescription(QStringLiteral(
            "zerolab: edit a ZeRO config, forecast its memory, review and compare runs."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({db, config, openRun, tab, compare, screenshot, screenshotSize, start,
                           exitWhenDone, screenshotAfter, printForecast, lang, lesson, lessonStep,
                           lessonAnswer, fontZoom});
    }
};

// What the flags ask for, checked: every problem is one line of `errors`.
struct Request {
    std::optional<zerolab::Language> lang;
    int fontZoomSteps = 0;
    std::optional<zerolab::MainWindow::Tab> tab;
    bool learnBandwidth = false; // --tab learn-bandwidth
    bool learnZeroPP = false;    // --tab learn-zeropp
    bool setupTime = false;      // --tab setup-time
    qint64 runId = -1;
    QList<qint64> compareIds;
    double shotAfterS = -1;
    QSize shotSize{1280, 800};
    QString storePath;
    bool shooting = false;
};

void parseViewFlags(const QCommandLineParser& parser, const Flags& flags, Request& r,
                    QStringList& errors) {
    if (parser.isSet(flags.lang)) {
        r.lang = zerolab::languageFromCode(parser.value(flags.lang));
        if (!r.lang)
            errors << QStringLiteral("--lang: unknown language '%1' (en, zh_CN)")
                          .arg(parser.value(flags.lang));
    }
    if (parser.isSet(flags.fontZoom)) {
        using zerolab::FontZoom;
        bool ok = false;
        r.fontZoomSteps = parser.value(flags.fontZoom).toInt(&ok);
        if (!ok || r.fontZoomSteps < -FontZoom::kNormalStep ||
            r.fontZoomSteps >= FontZoom::kStepCount - FontZoom::kNormalStep)
            errors << QStringLiteral("--font-zoom: '%1' is not a step from %2 to %3")
                          .arg(parser.value(flags.fontZoom))
                          .arg(-FontZoom::kNormalStep)
                          .arg(FontZoom::kStepCount - FontZoom::kNormalStep - 1);
    }
    if (parser.isSet(flags.tab)) {
        r.learnBandwidth = parser.value(flags.tab) == QLatin1String("learn-bandwidth");
        r.learnZeroPP = parser.value(flags.tab) == QLatin1String("learn-zeropp");
        r.setupTime = parser.value(flags.tab) == QLatin1String("setup-time");
        r.tab = zerolab::MainWindow::tabFromName(r.learnBandwidth || r.learnZeroPP
                                                     ? QStringLiteral("learn")
                                                 : r.setupTime ? QStringLiteral("setup")
                                                               : parser.value(flags.tab));
        if (!r.tab)
            errors << QStringLiteral("--tab: unknown tab '%1' (setup, learn, run, compare, tune, "
                                     "lab)")
                          .arg(parser.value(flags.tab));
    }
    if (parser.isSet(flags.openRun)) {
        bool ok = false;
        r.runId = parser.value(flags.openRun).toLongLong(&ok);
        if (!ok || r.runId < 0)
            errors << QStringLiteral("--open-run: '%1' is not a run id")
                          .arg(parser.value(flags.openRun));
    }
    if (parser.isSet(flags.compare)) {
        for (const QString& part :
             parser.value(flags.compare).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            bool ok = false;
            r.compareIds << part.trimmed().toLongLong(&ok);
            if (!ok)
                errors << QStringLiteral("--compare: '%1' is not a run id").arg(part);
        }
    }
}

void parseScreenshotFlags(const QCommandLineParser& parser, const Flags& flags, Request& r,
                          QStringList& errors) {
    r.shooting = parser.isSet(flags.screenshot);
    if (parser.isSet(flags.screenshotAfter)) {
        bool ok = false;
        r.shotAfterS = parser.value(flags.screenshotAfter).toDouble(&ok);
        if (!ok || r.shotAfterS < 0)
            errors << QStringLiteral("--screenshot-after: '%1' is not a number of seconds")
                          .arg(parser.value(flags.screenshotAfter));
        if (!parser.isSet(flags.start) || !r.shooting)
            errors << QStringLiteral("--screenshot-after needs --start and --screenshot");
    }
    if (parser.isSet(flags.screenshotSize)) {
        const QStringList wh = parser.value(flags.screenshotSize).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            r.shotSize = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || r.shotSize.width() < 320 || r.shotSize.height() < 240 ||
            r.shotSize.width() > 8192 || r.shotSize.height() > 8192)
            errors << QStringLiteral("--screenshot-size: '%1' is not WIDTHxHEIGHT in pixels "
                                     "(320x240 to 8192x8192)")
                          .arg(parser.value(flags.screenshotSize));
        if (!r.shooting)
            errors << QStringLiteral("--screenshot-size needs --screenshot");
    }
}

void parseLessonAndStartFlags(const QCommandLineParser& parser, const Flags& flags,
                              QStringList& errors) {
    if ((parser.isSet(flags.lessonStep) || parser.isSet(flags.lessonAnswer)) &&
        !parser.isSet(flags.lesson))
        errors << QStringLiteral("--lesson-step and --lesson-answer need --lesson");
    for (const QString& answer : parser.values(flags.lessonAnswer))
        if (!answer.contains(QLatin1Char('=')))
            errors << QStringLiteral("--lesson-answer: '%1' is not ID=VALUE").arg(answer);
    if (parser.isSet(flags.exitWhenDone) && !parser.isSet(flags.start))
        errors << QStringLiteral("--exit-when-done needs --start");
}

// --db, else (not for a screenshot) the store last opened, else the default path. A --db
// in a folder that does not exist is refused rather than the folder silently created.
void chooseStore(const QCommandLineParser& parser, const Flags& flags, Request& r,
                 QStringList& errors) {
    r.storePath = parser.value(flags.db);
    if (!r.storePath.isEmpty() && !QFileInfo(r.storePath).absoluteDir().exists())
        errors << QStringLiteral("--db %1: the folder %2 does not exist (create it first, or "
                                 "give a store in a folder that exists)")
                      .arg(r.storePath, QFileInfo(r.storePath).absolutePath());
    if (r.storePath.isEmpty() && !r.shooting)
        r.storePath = zerolab::MainWindow::savedStorePath();
    if (r.storePath.isEmpty()) {
        try {
            r.storePath = QString::fromStdString(zerolab::defaultStorePath());
        } catch (const std::exception& e) {
            errors << QStringLiteral("store: %1").arg(QString::fromUtf8(e.what()));
        }
    }
}

std::optional<Request> parseRequest(const QCommandLineParser& parser, const Flags& flags) {
    Request r;
    QStringList errors;
    parseViewFlags(parser, flags, r, errors);
    parseScreenshotFlags(parser, flags, r, errors);
    parseLessonAndStartFlags(parser, flags, errors);
    chooseStore(parser, flags, r, errors);
    for (const QString& e : errors)
        std::fprintf(stderr, "zerolab: %s\n", qPrintable(e));
    if (!errors.isEmpty())
        return std::nullopt;
    return r;
}

// --lesson, --lesson-step, --lesson-answer: false (said on stderr) when one does not apply.
bool openLessonFromFlags(zerolab::MainWindow& window, const QCommandLineParser& parser,
                         const Flags& flags) {
    zerolab::LabView* lab = window.labView();
    QString error;
    if (!lab->openLesson(parser.value(flags.lesson), &error)) {
        std::fprintf(stderr, "zerolab: --lesson: %s\n", qPrintable(error));
        return false;
    }
    if (parser.isSet(flags.lessonStep) && !lab->showStep(parser.value(flags.lessonStep))) {
        std::fprintf(stderr, "zerolab: --lesson-step: the lesson has no step '%s'\n",
                     qPrintable(parser.value(flags.lessonStep)));
        return false;
    }
    for (const QString& answer : parser.values(flags.lessonAnswer)) {
        const QString id = answer.section(QLatin1Char('='), 0, 0);
        if (!lab->setPredictionText(id, answer.section(QLatin1Char('='), 1))) {
            std::fprintf(stderr, "zerolab: --lesson-answer: the step has no prediction '%s'\n",
                         qPrintable(id));
            return false;
        }
    }
    return true;
}

// --start: launches the config once the store is open (it opens on its worker thread),
// and with --exit-when-done quits with the run's exit status.
void launchOnceOpen(zerolab::MainWindow& window, bool quitWhenDone) {
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
}

// The window opened on what the flags name: config, store, run, Compare, lesson, tab.
// False (said on stderr) when a named config or lesson cannot be opened.
bool openWhatIsAsked(zerolab::MainWindow& window, const QCommandLineParser& parser,
                     const Flags& flags, const Request& r) {
    QString configPath = parser.value(flags.config);
    if (configPath.isEmpty() && !r.shooting)
        configPath = zerolab::MainWindow::savedConfigPath();
    if (!configPath.isEmpty() && !window.openConfig(configPath) && parser.isSet(flags.config)) {
        std::fprintf(stderr, "zerolab: --config: cannot read %s\n", qPrintable(configPath));
        return false;
    }
    window.openStore(r.storePath);
    if (r.runId >= 0)
        window.openRun(r.runId);
    if (r.compareIds.size() >= 2)
        window.compareRuns(r.compareIds);
    if (parser.isSet(flags.lesson)) {
        if (!openLessonFromFlags(window, parser, flags))
            return false;
        window.setTab(r.tab.value_or(zerolab::MainWindow::Tab::Lab));
    } else if (r.tab) {
        window.setTab(*r.tab);
    }
    if (r.learnBandwidth)
        window.learnView()->showTab(2);
    if (r.learnZeroPP)
        window.learnView()->showTab(3);
    if (r.setupTime)
        window.setupView()->forecastTabs()->setCurrentIndex(1);
    return true;
}

// --help and --version: printed by the same parser, under a QCoreApplication, so that they
// work without a display.
bool asksHelpOrVersion(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* flag : {"--help", "-h", "-?", "--help-all", "--version", "-v"})
            if (std::strcmp(argv[i], flag) == 0)
                return true;
    return false;
}

// No display and no platform chosen: Qt would abort ("could not connect to display").
bool lacksADisplay(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "-platform") == 0)
            return false;
    return qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
           qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

} // namespace

int main(int argc, char** argv) {
    // --run-lesson: the Lab headless (runtime/lab/lab_headless.h), before any QApplication.
    // Its progress lines in --lang, from the embedded catalogue (no QApplication yet).
    const auto translatorFor = [](const std::string& lang) {
        const auto language = zerolab::languageFromCode(QString::fromStdString(lang));
        return language ? zerolab::catalogueTranslator(*language) : zerolab::MessageTranslator{};
    };
    if (const auto code = zerolab::runLessonFromArguments(argc, argv, translatorFor))
        return zerolab::exitAfterOutput("zerolab", *code);
    preferOffscreenForScreenshots(argc, argv);
    if (asksHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCoreApplication::setApplicationName(QStringLiteral("zerolab"));
        QCoreApplication::setApplicationVersion(QStringLiteral(ZEROLAB_VERSION));
        QCommandLineParser parser;
        const Flags flags;
        flags.addTo(parser);
        parser.process(core); // prints the help or the version and exits
        return 0;
    }
    if (lacksADisplay(argc, argv)) {
        std::fprintf(stderr,
                     "zerolab: no display (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a "
                     "desktop session, or with QT_QPA_PLATFORM=offscreen for scripts; "
                     "--screenshot, --print-forecast and --run-lesson need no display.\n");
        return 1;
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("zerolab"));
    QApplication::setApplicationName(QStringLiteral("zerolab"));
    QApplication::setApplicationVersion(QStringLiteral(ZEROLAB_VERSION));
    zerolab::applyAppStyle(app);

    QCommandLineParser parser;
    const Flags flags;
    flags.addTo(parser);
    parser.process(app);
    if (parser.isSet(flags.printForecast)) {
        if (!parser.isSet(flags.config)) {
            std::fprintf(stderr, "zerolab: --print-forecast needs --config FILE\n");
            return kExitInvalidInput;
        }
        return zerolab::exitAfterOutput("zerolab", printForecastOf(parser.value(flags.config)));
    }
    const std::optional<Request> request = parseRequest(parser, flags);
    if (!request)
        return kExitInvalidInput;

    // A scripted screenshot, like its layout, does not read the user's saved choice.
    const zerolab::Language language = zerolab::chooseLanguage(
        request->lang, request->shooting ? std::nullopt : zerolab::savedLanguage(),
        QLocale::system());
    if (!zerolab::setLanguage(language))
        std::fprintf(stderr, "zerolab: no %s translation in this build; English it is\n",
                     qPrintable(zerolab::languageCode(language)));
    zerolab::MainWindow window(!request->shooting);
    zerolab::FontZoom::instance().setStep(zerolab::FontZoom::kNormalStep + request->fontZoomSteps);
    if (!openWhatIsAsked(window, parser, flags, *request))
        return kExitInvalidInput;

    if (parser.isSet(flags.start)) {
        const bool quitWhenDone = parser.isSet(flags.exitWhenDone);
        launchOnceOpen(window, quitWhenDone);
        if (request->shotAfterS >= 0)
            scheduleLiveScreenshot(window, parser.value(flags.screenshot), request->shotAfterS,
                                   quitWhenDone);
        window.resize(request->shotSize);
    } else if (request->shooting) {
        window.resize(request->shotSize);
        scheduleScreenshot(window, parser.value(flags.screenshot));
    }
    window.show();
    return app.exec();
}
