// Main window assembly, menus, status bar and settings persistence.
#include "gui/app/main_window.h"

#include "gui/client/live_controller.h"
#include "gui/client/store_client.h"
#include "gui/core/language.h"
#include "gui/views/compare/compare_view.h"
#include "gui/views/lab/lab_view.h"
#include "gui/views/learn/learn_view.h"
#include "gui/views/run/live_panel.h"
#include "gui/views/run/run_view.h"
#include "gui/views/run/runs_dock.h"
#include "gui/views/setup/config_form.h"
#include "gui/views/setup/setup_view.h"
#include "gui/views/tune/tune_view.h"
#include "gui/widgets/chart_actions.h"
#include "gui/widgets/file_dialog.h"
#include "gui/widgets/font_zoom.h"
#include "gui/widgets/log_console.h"
#include "gui/widgets/step_time_card.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QSysInfo>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <cmath>
#include <optional>

namespace zerolab {

namespace {
const char* kTabNames[MainWindow::kTabCount] = {"setup", "learn", "run", "compare", "tune", "lab"};
constexpr int kLivePollMs = 200;
constexpr int kIdlePollMs = 1000;
constexpr int kLostCheckMs = 15000;
constexpr double kLostAfterS = 20;
// The share of the screen a first start takes, and the Console's height when a run
// opens it: enough for a dozen log lines without pushing the Run tab's plots down.
constexpr double kScreenShare = 0.85;
constexpr int kConsoleHeight = 170;

QString formatEta(double s) {
    if (s < 0 || std::isnan(s))
        return QStringLiteral("–");
    const int t = int(std::lround(s));
    return t >= 3600 ? QStringLiteral("%1:%2:%3")
                           .arg(t / 3600)
                           .arg(t / 60 % 60, 2, 10, QLatin1Char('0'))
                           .arg(t % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}
} // namespace

MainWindow::MainWindow(bool persistSettings, QWidget* parent)
    : QMainWindow(parent), m_persist(persistSettings), m_store(new StoreClient(this)),
      m_tabs(new QTabWidget), m_setup(new SetupView), m_learn(new LearnView),
      m_run(new RunView(m_store)), m_compare(new CompareView(m_store)), m_tune(new TuneView),
      m_lab(new LabView), m_runs(new RunsDock(m_store)), m_dock(new QDockWidget(tr("Runs"), this)),
      m_live(new LiveController(m_store, this)), m_livePanel(new LivePanel(m_live)),
      m_console(new LogConsole), m_consoleDock(new QDockWidget(tr("Console"), this)),
      m_progressLabel(new QLabel), m_storeLabel(new QLabel), m_runsLabel(new QLabel) {
    setWindowTitle(tr("zerolab"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_setup, QString());
    m_tabs->addTab(m_learn, QString());
    auto* runPage = new QWidget;
    auto* runLayout = new QVBoxLayout(runPage);
    runLayout->setContentsMargins(12, 8, 12, 0);
    runLayout->setSpacing(0);
    runLayout->addWidget(m_livePanel);
    runLayout->addWidget(m_run, 1);
    m_tabs->addTab(runPage, QString());
    m_tabs->addTab(m_compare, QString());
    m_tabs->addTab(m_tune, QString());
    m_tabs->addTab(m_lab, QString());
    setCentralWidget(m_tabs);

    m_dock->setObjectName(QStringLiteral("runsDock"));
    m_dock->setWidget(m_runs);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                        QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    resizeDocks({m_dock}, {350}, Qt::Horizontal);

    m_consoleDock->setObjectName(QStringLiteral("consoleDock"));
    m_consoleDock->setWidget(m_console);
    addDockWidget(Qt::BottomDockWidgetArea, m_consoleDock);
    m_consoleDock->hide();
    // The user's word on the Console outlives the next run: closing it (its title-bar
    // button or the View menu) keeps it closed until the View menu shows it again.
    m_consoleDock->installEventFilter(this);
    connect(m_consoleDock->toggleViewAction(), &QAction::triggered, this,
            [this](bool shown) { setConsoleDismissed(!shown); });

    m_storeLabel->setObjectName(QStringLiteral("muted"));
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_runsLabel);
    statusBar()->addPermanentWidget(m_storeLabel);
    buildMenus();
    retranslate();

    connect(m_runs, &RunsDock::runActivated, this, [this](qint64 id) {
        openRun(id);
        if (m_tabs->currentIndex() != int(Tab::Compare))
            setTab(Tab::Run);
    });
    connect(m_runs, &RunsDock::compareRequested, this, &MainWindow::compareRuns);
    connect(m_store, &StoreClient::opened, this, [this](const QString& path) {
        m_storeShown = path;
        m_storeOpen = true;
        updateStoreLabel();
        m_store->listRuns();
    });
    connect(m_store, &StoreClient::failed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(m_store, &StoreClient::changed, m_store, &StoreClient::listRuns);
    connect(m_store, &StoreClient::runsListed, this, [this](const QVector<RunSummary>& runs) {
        m_runCount = int(runs.size());
        m_runsLabel->setText(tr("%n run(s)", nullptr, m_runCount));
        // An attached run can end without a new chunk (marked lost by this window).
        if (m_live->isLive() && !m_live->ownsProcess())
            for (const RunSummary& r : runs)
                if (r.id == m_live->runId() && !runIsLive(r.status))
                    m_live->attachedRunEnded(r.status);
    });
    connect(m_setup, &SetupView::statusMessage, this, &MainWindow::showStatus);
    // The step-time forecasts' "this machine": the store's newest calibrated profile, read
    // when the store opens and again when a tab that forecasts is shown (a calibration
    // may have added one meanwhile).
    connect(m_store, &StoreClient::opened, m_store, &StoreClient::loadProfile);
    connect(m_store, &StoreClient::opened, m_setup, &SetupView::setStorePath);
    connect(m_setup, &SetupView::calibrated, m_store, &StoreClient::loadProfile);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_storeOpen && (tab == int(Tab::Setup) || tab == int(Tab::Tune)))
            m_store->loadProfile();
    });
    connect(m_store, &StoreClient::profileChanged, this, [this] {
        m_setup->stepTime()->setMachineProfile(m_store->machineProfile(),
                                               m_store->machineProfileMissing());
        m_tune->setMachineProfile(m_store->machineProfile());
    });
    // Tune: a sweep's base is the Setup config as it is when the tab is shown.
    connect(m_store, &StoreClient::opened, m_tune, &TuneView::setStorePath);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == int(Tab::Tune))
            m_tune->setBaseConfig(m_setup->text(), QFileInfo(m_setup->currentPath()).fileName());
    });
    connect(m_tune, &TuneView::openRunRequested, this, [this](qint64 id) {
        openRun(id);
        setTab(Tab::Run);
    });
    connect(m_tune, &TuneView::useConfigRequested, this, [this](const QString& json) {
        m_setup->setText(json);
        setTab(Tab::Setup);
        showStatus(tr("The trial's config is in Setup (not saved to a file yet)"));
    });
    connect(m_tune, &TuneView::statusMessage, this, &MainWindow::showStatus);
    connect(m_store, &StoreClient::opened, m_lab, &LabView::setStorePath);
    connect(m_lab, &LabView::statusMessage, this, &MainWindow::showStatus);
    connect(m_lab, &LabView::compareRequested, this, [this](const QList<qint64>& ids) {
        compareRuns(ids);
        setTab(Tab::Compare);
    });
    connect(m_run, &RunView::statusMessage, this, &MainWindow::showStatus);
    // Whatever opened it, the run on the Run tab is the one selected in the runs list
    // (a selection of several, made for Compare, is left alone when it holds it).
    connect(m_run, &RunView::loaded, this, [this](qint64 id) {
        m_livePanel->setShownRun(id);
        if (!m_runs->selectedRunIds().contains(id))
            m_runs->selectRun(id);
    });
    connectLive();
    resize(defaultSize(screen()->availableGeometry().size(), minimumSizeHint()));
    if (m_persist)
        restoreSettings();
}

QSize MainWindow::defaultSize(const QSize& available, const QSize& contentMinimum) {
    const QSize share(int(available.width() * kScreenShare),
                      int(available.height() * kScreenShare));
    return share.expandedTo(kMinimumSize).expandedTo(contentMinimum).boundedTo(available);
}

void MainWindow::setConsoleDismissed(bool dismissed) {
    m_consoleDismissed = dismissed;
    if (m_persist)
        QSettings().setValue(QStringLiteral("console/dismissed"), dismissed);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_consoleDock && event->type() == QEvent::Close)
        setConsoleDismissed(true);
    return QMainWindow::eventFilter(watched, event);
}

void MainWindow::connectLive() {
    if (m_persist) {
        const LauncherOptions o = LauncherOptions::load();
        m_live->setOptions(o);
        m_setup->form()->setLauncher({o.launcher, o.hosts, o.hostfile, o.extraArgs});
    }
    connect(m_setup->form(), &ConfigForm::launcherEdited, this, [this] {
        LauncherOptions o = m_live->options();
        const LauncherSettings f = m_setup->form()->launcher();
        o.launcher = f.mpirun.trimmed().isEmpty() ? QStringLiteral("mpirun") : f.mpirun.trimmed();
        o.kind = QFileInfo(o.launcher).fileName() == QLatin1String("srun") ? LauncherKind::Srun
                                                                           : LauncherKind::Mpirun;
        o.hosts = f.hosts.trimmed();
        o.hostfile = f.hostfile.trimmed();
        o.extraArgs = f.extraArgs;
        m_live->setOptions(o);
        if (m_persist)
            o.save();
    });
    connect(m_live, &LiveController::logLine, m_console, &LogConsole::addLine);
    connect(m_live, &LiveController::message, this, &MainWindow::showStatus);
    connect(m_live, &LiveController::progressed, this, &MainWindow::showProgress);
    connect(m_live, &LiveController::runIdKnown, this, [this](qint64 id) {
        m_store->setPollInterval(kLivePollMs);
        m_run->openRun(id); // a full load: a resumed run starts a new segment
        m_runs->selectRun(id);
        m_store->listRuns();
    });
    connect(m_live, &LiveController::stateChanged, this, [this](LiveController::State s) {
        if (s == LiveController::State::Ended || s == LiveController::State::Idle)
            m_store->setPollInterval(kIdlePollMs);
        showProgress();
    });
    connect(m_live, &LiveController::ended, this, [this](int, const QString& failure) {
        if (m_live->runId() >= 0)
            m_store->loadNewer(
                m_live->runId(),
                m_run->steps().isEmpty() ? -1 : qint64(m_run->steps().last(Metric::Step)), 0);
        m_store->listRuns();
        if (!failure.isEmpty())
            statusBar()->showMessage(failure, 30000);
    });
    // A run left running by an earlier session (or started from a terminal) is
    // followed live; its end comes from the store.
    connect(m_run, &RunView::loaded, this, [this](qint64 id) {
        const RunRecord& r = m_run->record();
        if (runIsLive(r.status) && !m_live->ownsProcess() && !m_live->isLive()) {
            m_live->attach(id, r.info.host == QSysInfo::machineHostName().toStdString() ? r.info.pid
                                                                                        : 0);
            m_store->setPollInterval(kLivePollMs);
        }
    });
    connect(m_store, &StoreClient::runLoaded, this, [this](const RunChunk& chunk) {
        if (chunk.runId != m_live->runId())
            return;
        // A stall shows as soon as the store has it (the live poll is kLivePollMs).
        m_livePanel->setStall(chunk.record.status == RunStatus::Stalled
                                  ? QString::fromStdString(chunk.record.end_message)
                                  : QString());
        if (!runIsLive(chunk.record.status))
            m_live->attachedRunEnded(chunk.record.status);
    });
    // Runs whose processes vanished (heartbeat stale, pid gone) become lost.
    connect(m_store, &StoreClient::opened, this, [this] { m_store->markLost(kLostAfterS); });
    auto* lost = new QTimer(this);
    connect(lost, &QTimer::timeout, this, [this] { m_store->markLost(kLostAfterS); });
    lost->start(kLostCheckMs);
}

bool MainWindow::startRun(QString* error) {
    m_setup->validateNow();
    const ConfigValidation& v = m_setup->validation();
    if (!v.config) {
        if (error)
            *error =
                tr("the config has %n error(s); fix them in Setup first", nullptr, v.errorCount());
        setTab(Tab::Setup);
        return false;
    }
    if (m_store->path().isEmpty()) {
        if (error)
            *error = tr("no run store is open");
        return false;
    }
    m_console->clear();
    if (!m_live->start(*v.config, error))
        return false;
    if (!m_consoleDismissed && m_consoleDock->isHidden()) {
        m_consoleDock->show();
        resizeDocks({m_consoleDock}, {kConsoleHeight}, Qt::Vertical);
    }
    setTab(Tab::Run);
    return true;
}

void MainWindow::showProgress() {
    const LiveProgress& p = m_live->progress();
    if (!m_live->isLive() || p.step <= 0) {
        m_progressLabel->setText(m_live->isLive() ? tr("starting…") : QString());
        return;
    }
    m_progressLabel->setText(tr("step %1 / %2 · ETA %3 · %4 tokens/s")
                                 .arg(p.step)
                                 .arg(p.totalSteps)
                                 .arg(formatEta(p.etaS))
                                 .arg(QLocale().toString(p.tokensPerS, 'f', 0)));
}

bool MainWindow::confirmClose() {
    if (!m_live->ownsProcess())
        return true;
    QMessageBox box(QMessageBox::Question, tr("A run is live"),
                    tr("Run %1 is still training. Stop it (with a checkpoint), leave it running "
                       "(it keeps writing the store and shows up live when zerolab opens again), "
                       "or cancel?")
                        .arg(m_live->runId()),
                    QMessageBox::NoButton, this);
    QPushButton* stop = box.addButton(tr("Stop run"), QMessageBox::DestructiveRole);
    QPushButton* leave = box.addButton(tr("Leave running"), QMessageBox::AcceptRole);
    box.addButton(QMessageBox::Cancel);
    box.exec();
    if (box.clickedButton() == stop) {
        m_live->stop();
        // The ranks need a moment to finish the step and write the checkpoint.
        while (m_live->ownsProcess() && m_live->isLive())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
        return true;
    }
    if (box.clickedButton() == leave) {
        m_live->detach();
        return true;
    }
    return false;
}

MainWindow::~MainWindow() = default;

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text, 8000);
}

void MainWindow::buildMenus() {
    m_fileMenu = menuBar()->addMenu(QString());
    m_openStoreAction = m_fileMenu->addAction(QString(), this, [this] {
        const QString path =
            openFileName(this, tr("Open run store"), {}, tr("Run stores (*.db);;All files (*)"));
        if (!path.isEmpty())
            openStore(path);
    });
    m_openConfigAction = m_fileMenu->addAction(QString(), this, [this] {
        const QString path = openFileName(this, tr("Open config"), {}, tr("JSON (*.json)"));
        if (!path.isEmpty() && openConfig(path))
            setTab(Tab::Setup);
    });
    m_fileMenu->addSeparator();
    m_startAction =
        m_fileMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_R), this, [this] {
            QString error;
            if (!startRun(&error))
                QMessageBox::warning(this, tr("Start run"), error);
        });
    m_fileMenu->addSeparator();
    m_quitAction = m_fileMenu->addAction(QString(), QKeySequence::Quit, this, &QWidget::close);
    m_viewMenu = menuBar()->addMenu(QString());
    m_viewMenu->addAction(m_dock->toggleViewAction());
    m_viewMenu->addAction(m_consoleDock->toggleViewAction());
    for (int t = 0; t < kTabCount; ++t)
        m_tabActions << m_viewMenu->addAction(QString(), QKeySequence(Qt::CTRL | (Qt::Key_1 + t)),
                                              this, [this, t] { m_tabs->setCurrentIndex(t); });
    m_viewMenu->addSeparator();
    // Presentation mode: the font zoom every view follows, a chart full screen.
    FontZoom& zoom = FontZoom::instance();
    m_zoomInAction = m_viewMenu->addAction(QString(), &zoom, &FontZoom::zoomIn);
    m_zoomInAction->setShortcuts({QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)});
    m_zoomOutAction = m_viewMenu->addAction(QString(), &zoom, &FontZoom::zoomOut);
    m_zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    m_zoomResetAction = m_viewMenu->addAction(QString(), &zoom, &FontZoom::reset);
    m_zoomResetAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    m_fullScreenChartAction = m_viewMenu->addAction(QString(), this, [] {
        if (fullScreenChart())
            leaveChartFullScreen();
        else
            showChartFullScreen(chartForShortcut());
    });
    m_fullScreenChartAction->setShortcut(QKeySequence(Qt::Key_F11));
    m_viewMenu->addSeparator();
    m_languageMenu = m_viewMenu->addMenu(QString());
    m_languageMenu->setObjectName(QStringLiteral("languageMenu"));
    m_languageGroup = new QActionGroup(this);
    for (int l = 0; l < kLanguageCount; ++l) {
        const auto language = static_cast<Language>(l);
        QAction* a = m_languageMenu->addAction(languageName(language));
        a->setObjectName(QStringLiteral("language_") + languageCode(language));
        a->setCheckable(true);
        a->setChecked(language == currentLanguage());
        a->setData(l);
        m_languageGroup->addAction(a);
    }
    connect(m_languageGroup, &QActionGroup::triggered, this,
            [this](QAction* a) { switchLanguage(a->data().toInt()); });
    m_runBar = addToolBar(QString());
    m_runBar->setObjectName(QStringLiteral("runToolBar"));
    m_runBar->setMovable(false);
    m_runBar->addAction(m_startAction);
    connect(m_live, &LiveController::stateChanged, m_startAction,
            [this] { m_startAction->setEnabled(!m_live->isLive()); });
}

void MainWindow::retranslate() {
    setWindowTitle(tr("zerolab"));
    const QString tabNames[kTabCount] = {tr("Setup"),   tr("Learn"), tr("Run"),
                                         tr("Compare"), tr("Tune"),  tr("Lab")};
    for (int t = 0; t < kTabCount; ++t) {
        m_tabs->setTabText(t, tabNames[t]);
        m_tabActions[t]->setText(tabNames[t]);
    }
    m_dock->setWindowTitle(tr("Runs"));
    m_consoleDock->setWindowTitle(tr("Console"));
    m_fileMenu->setTitle(tr("&File"));
    m_openStoreAction->setText(tr("Open run store…"));
    m_openConfigAction->setText(tr("Open config…"));
    m_startAction->setText(tr("▶  Start run"));
    m_startAction->setToolTip(tr("Validate the Setup config and launch it with mpirun (Ctrl+R)"));
    m_quitAction->setText(tr("Quit"));
    m_viewMenu->setTitle(tr("&View"));
    m_languageMenu->setTitle(tr("Language"));
    m_zoomInAction->setText(tr("Larger text"));
    m_zoomOutAction->setText(tr("Smaller text"));
    m_zoomResetAction->setText(tr("Normal text size"));
    m_fullScreenChartAction->setText(tr("Chart under the mouse full screen"));
    m_runBar->setWindowTitle(tr("Run"));
    updateStoreLabel();
    if (m_runCount >= 0)
        m_runsLabel->setText(tr("%n run(s)", nullptr, m_runCount));
    showProgress();
}

void MainWindow::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

void MainWindow::updateStoreLabel() {
    if (m_storeShown.isEmpty())
        m_storeLabel->clear();
    else
        m_storeLabel->setText(!m_storeOpen          ? tr("Opening %1…").arg(m_storeShown)
                              : m_store->readOnly() ? tr("Store: %1 (read-only: on a read-only "
                                                         "file system; notes, tags and runs "
                                                         "cannot be changed)")
                                                          .arg(m_storeShown)
                                                    : tr("Store: %1").arg(m_storeShown));
}

void MainWindow::switchLanguage(int language) {
    const auto chosen = static_cast<Language>(language);
    if (m_persist)
        saveLanguage(chosen);
    if (chosen == currentLanguage())
        return;
    if (!setLanguage(chosen)) {
        showStatus(tr("No %1 translation in this build").arg(languageName(chosen)));
        return;
    }
    // Every view retranslates itself on the LanguageChange this sends; the run process,
    // the store polling and what each view shows are not touched: only texts change.
    showStatus(tr("Language: %1").arg(languageName(chosen)));
}

std::optional<MainWindow::Tab> MainWindow::tabFromName(const QString& name) {
    for (int t = 0; t < kTabCount; ++t)
        if (name.compare(QLatin1String(kTabNames[t]), Qt::CaseInsensitive) == 0)
            return static_cast<Tab>(t);
    return std::nullopt;
}

void MainWindow::openStore(const QString& path) {
    // Absolute: launched runs write the store from their own launch folder, where a
    // relative path would name another file.
    const QString absolute = path.isEmpty() ? path : QFileInfo(path).absoluteFilePath();
    m_storeShown = absolute;
    m_storeOpen = false;
    updateStoreLabel();
    m_store->open(absolute);
}

bool MainWindow::openConfig(const QString& path) {
    return m_setup->loadFile(path);
}

void MainWindow::openRun(qint64 runId) {
    if (m_run->runId() != runId)
        m_run->openRun(runId);
    m_runs->selectRun(runId);
}

void MainWindow::compareRuns(const QList<qint64>& runIds) {
    m_compare->setRuns(runIds);
    setTab(Tab::Compare);
}

void MainWindow::setTab(Tab tab) {
    m_tabs->setCurrentIndex(int(tab));
}

QString MainWindow::savedStorePath() {
    return QSettings().value(QStringLiteral("store/path")).toString();
}

QString MainWindow::savedConfigPath() {
    return QSettings().value(QStringLiteral("setup/config")).toString();
}

void MainWindow::restoreSettings() {
    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_tabs->setCurrentIndex(s.value(QStringLiteral("window/tab"), 0).toInt());
    m_consoleDismissed = s.value(QStringLiteral("console/dismissed"), false).toBool();
}

void MainWindow::saveSettings() {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    s.setValue(QStringLiteral("window/tab"), m_tabs->currentIndex());
    if (!m_store->path().isEmpty())
        s.setValue(QStringLiteral("store/path"), m_store->path());
    if (!m_setup->currentPath().isEmpty())
        s.setValue(QStringLiteral("setup/config"), m_setup->currentPath());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmClose()) {
        event->ignore();
        return;
    }
    if (m_persist)
        saveSettings();
    event->accept();
}

} // namespace zerolab
