// The main window: tabs Setup | Learn | Run | Compare | Tune | Lab, the runs dock over the
// store, a status bar, menus (View → Language among them), and the QSettings that survive a restart
// (layout, last store, last config, last tab).
#pragma once

#include <QMainWindow>
#include <QSize>

#include <optional>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class QTabWidget;
class QToolBar;

namespace zerolab {

class CompareView;
class TuneView;
class LabView;
class LiveController;
class LivePanel;
class LogConsole;
class LearnView;
class RunView;
class RunsDock;
class SetupView;
class StoreClient;

// UI thread only.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Tab { Setup = 0, Learn, Run, Compare, Tune, Lab };
    static constexpr int kTabCount = 6;

    // persistSettings: false for --screenshot, so that a scripted render neither
    // reads nor changes the user's saved layout.
    explicit MainWindow(bool persistSettings, QWidget* parent = nullptr);
    ~MainWindow() override;

    void openStore(const QString& path);
    bool openConfig(const QString& path);
    void openRun(qint64 runId);
    void compareRuns(const QList<qint64>& runIds);
    void setTab(Tab tab);
    // Validates the Setup config and launches it (the store must be open). False with
    // a message when nothing was started.
    bool startRun(QString* error);
    // Tab from its flag name ("setup", "learn", "run", "compare", "tune", "lab").
    static std::optional<Tab> tabFromName(const QString& name);

    StoreClient* store() const { return m_store; }
    SetupView* setupView() const { return m_setup; }
    LearnView* learnView() const { return m_learn; }
    RunView* runView() const { return m_run; }
    CompareView* compareView() const { return m_compare; }
    TuneView* tuneView() const { return m_tune; }
    LabView* labView() const { return m_lab; }
    RunsDock* runsDock() const { return m_runs; }
    LiveController* live() const { return m_live; }
    LivePanel* livePanel() const { return m_livePanel; }
    LogConsole* console() const { return m_console; }
    // The last store path and config from QSettings (empty when none).
    static QString savedStorePath();
    static QString savedConfigPath();
    // The smallest window that shows every tab without clipping its plots' axes.
    static constexpr QSize kMinimumSize{1100, 700};
    // The size a window without saved geometry opens at: most of the screen's
    // available area, never below kMinimumSize or the content's minimum unless the
    // screen is smaller, never beyond the screen.
    static QSize defaultSize(const QSize& available, const QSize& contentMinimum);
    // True once the user closed the Console; a new run then leaves it closed.
    bool consoleDismissed() const { return m_consoleDismissed; }

private slots:
    void showStatus(const QString& text);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    // Re-sets every text the window itself owns (title, tabs, docks, menus, tool bar,
    // status labels) in the current language: on QEvent::LanguageChange.
    void retranslate();
    void updateStoreLabel();
    // View → Language: installs the language, saves it (when persisting), says so.
    void switchLanguage(int language);
    void restoreSettings();
    void saveSettings();
    void connectLive();
    void showProgress();
    void setConsoleDismissed(bool dismissed);

    // Asks what to do with a live run when the window closes; false: cancel.
    bool confirmClose();

    bool m_persist;
    StoreClient* m_store;
    QTabWidget* m_tabs;
    SetupView* m_setup;
    LearnView* m_learn;
    RunView* m_run;
    CompareView* m_compare;
    TuneView* m_tune;
    LabView* m_lab;
    RunsDock* m_runs;
    QDockWidget* m_dock;
    LiveController* m_live;
    LivePanel* m_livePanel;
    LogConsole* m_console;
    QDockWidget* m_consoleDock;
    QLabel* m_progressLabel;
    QLabel* m_storeLabel;
    QLabel* m_runsLabel;
    QMenu* m_fileMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_languageMenu = nullptr;
    QAction* m_openStoreAction = nullptr;
    QAction* m_openConfigAction = nullptr;
    QAction* m_startAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_zoomInAction = nullptr;
    QAction* m_zoomOutAction = nullptr;
    QAction* m_zoomResetAction = nullptr;
    QAction* m_fullScreenChartAction = nullptr;
    QList<QAction*> m_tabActions;
    QActionGroup* m_languageGroup = nullptr;
    QToolBar* m_runBar = nullptr;
    // What the status bar's store label shows: the path, and whether it is open yet.
    QString m_storeShown;
    bool m_storeOpen = false;
    int m_runCount = -1;
    bool m_consoleDismissed = false;
};

} // namespace zerolab
