// LivePanel: the strip above the Run tab's plots while a run is live or just ended:
// its state, the controls (Stop, Kill, Pause, Resume, Checkpoint now, learning rate,
// Apply & restart), each rank's status, and a failure banner with "Resume from last
// checkpoint".
#pragma once

#include "gui/client/live_controller.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QPushButton;

namespace zerolab {

// UI thread only. Acts on the LiveController it is given (not owned).
class LivePanel : public QWidget {
    Q_OBJECT
public:
    LivePanel(LiveController* controller, QWidget* parent = nullptr);

    // The run the Run tab shows: the controls act on the live run only while it is
    // the one on screen, so a reviewed past run never offers Stop or Kill.
    void setShownRun(qint64 runId);
    QPushButton* stopButton() const { return m_stop; }
    QPushButton* killButton() const { return m_kill; }
    QPushButton* resumeCheckpointButton() const { return m_resumeCheckpoint; }
    QString bannerText() const;
    // The live run's stall (its reason from the store), or none (empty): a banner that
    // offers to kill the job, and to resume it from its last checkpoint.
    void setStall(const QString& why);
    QString stallText() const;
    QPushButton* stallKillButton() const { return m_stallKill; }
    QPushButton* stallResumeButton() const { return m_stallResume; }

protected:
    void changeEvent(QEvent* event) override;

private:
    // Buttons, tooltips, the state word, the ranks line and a shown stall in the current
    // language; the run, its controls' state and a typed learning rate are not touched.
    // A failure banner keeps the sentence the controller gave it.
    void retranslate();
    void onState(LiveController::State s);
    // The state word, the controls' enabled state, visibility and ranks for `s`; true
    // when the shown run is live (its controls act).
    bool showState(LiveController::State s);
    void showStall();
    void showBanner();
    void onEnded(int exitCode, const QString& failure);
    void updateRanks();
    void openRestartDialog();

    LiveController* m_controller;
    QLabel* m_state;
    QLabel* m_ranks;
    QLabel* m_banner;
    QWidget* m_bannerRow;
    QPushButton* m_stop;
    QPushButton* m_kill;
    QPushButton* m_pause;
    QPushButton* m_resume;
    QPushButton* m_checkpoint;
    QDoubleSpinBox* m_lr;
    QPushButton* m_setLr;
    QPushButton* m_restart;
    QPushButton* m_resumeCheckpoint;
    QWidget* m_stallRow;
    QLabel* m_stall;
    QPushButton* m_stallKill;
    QPushButton* m_stallResume;
    QString m_stallWhy; // the shown stall's reason, from the store
    qint64 m_shownRun = -1;
    int m_deadRank = -1;
    QString m_failure; // the failure banner's sentence, as the controller gave it
};

} // namespace zerolab
