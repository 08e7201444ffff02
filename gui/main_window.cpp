// Main window assembly, menus, status bar and settings persistence.
#include "gui/main_window.h"

#include "gui/compare_view.h"
#include "gui/learn_view.h"
#include "gui/run_view.h"
#include "gui/runs_dock.h"
#include "gui/setup_view.h"
#include "gui/store_client.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

#include <optional>

namespace zerolab {

namespace {
const char* kTabNames[4] = {"setup", "learn", "run", "compare"};
}

MainWindow::MainWindow(bool persistSettings, QWidget* parent)
    : QMainWindow(parent), m_persist(persistSettings), m_store(new StoreClient(this)),
      m_tabs(new QTabWidget), m_setup(new SetupView), m_learn(new LearnView),
      m_run(new RunView(m_store)), m_compare(new CompareView(m_store)),
      m_runs(new RunsDock(m_store)), m_dock(new QDockWidget(tr("Runs"), this)),
      m_storeLabel(new QLabel), m_runsLabel(new QLabel) {
    setWindowTitle(tr("zerolab"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_setup, tr("Setup"));
    m_tabs->addTab(m_learn, tr("Learn"));
    m_tabs->addTab(m_run, tr("Run"));
    m_tabs->addTab(m_compare, tr("Compare"));
    setCentralWidget(m_tabs);

    m_dock->setObjectName(QStringLiteral("runsDock"));
    m_dock->setWidget(m_runs);
    m_dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                        QDockWidget::DockWidgetFloatable);
    m_runs->setMinimumWidth(280);
    addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    resizeDocks({m_dock}, {350}, Qt::Horizontal);

    m_storeLabel->setObjectName(QStringLiteral("muted"));
    statusBar()->addPermanentWidget(m_runsLabel);
    statusBar()->addPermanentWidget(m_storeLabel);
    buildMenus();

    connect(m_runs, &RunsDock::runActivated, this, [this](qint64 id) {
        openRun(id);
        if (m_tabs->currentIndex() != int(Tab::Compare))
            setTab(Tab::Run);
    });
    connect(m_runs, &RunsDock::compareRequested, this, &MainWindow::compareRuns);
    connect(m_store, &StoreClient::opened, this, [this](const QString& path) {
        m_storeLabel->setText(tr("Store: %1").arg(path));
        m_store->listRuns();
    });
    connect(m_store, &StoreClient::failed, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(m_store, &StoreClient::changed, m_store, &StoreClient::listRuns);
    connect(m_store, &StoreClient::runsListed, this, [this](const QVector<RunSummary>& runs) {
        m_runsLabel->setText(tr("%n run(s)", nullptr, int(runs.size())));
    });
    connect(m_setup, &SetupView::statusMessage, this, &MainWindow::showStatus);
    connect(m_run, &RunView::statusMessage, this, &MainWindow::showStatus);
    if (m_persist)
        restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::showStatus(const QString& text) {
    statusBar()->showMessage(text, 8000);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("Open run store…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open run store"), {},
                                                          tr("Run stores (*.db);;All files (*)"));
        if (!path.isEmpty())
            openStore(path);
    });
    file->addAction(tr("Open config…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open config"), {}, tr("JSON (*.json)"));
        if (!path.isEmpty() && openConfig(path))
            setTab(Tab::Setup);
    });
    file->addSeparator();
    file->addAction(tr("Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_dock->toggleViewAction());
    for (int t = 0; t < 4; ++t)
        view->addAction(m_tabs->tabText(t), QKeySequence(Qt::CTRL | (Qt::Key_1 + t)), this,
                        [this, t] { m_tabs->setCurrentIndex(t); });
}

std::optional<MainWindow::Tab> MainWindow::tabFromName(const QString& name) {
    for (int t = 0; t < 4; ++t)
        if (name.compare(QLatin1String(kTabNames[t]), Qt::CaseInsensitive) == 0)
            return static_cast<Tab>(t);
    return std::nullopt;
}

void MainWindow::openStore(const QString& path) {
    m_storeLabel->setText(tr("Opening %1…").arg(path));
    m_store->open(path);
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
    if (m_persist)
        saveSettings();
    event->accept();
}

} // namespace zerolab
