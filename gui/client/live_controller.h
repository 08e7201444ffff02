// LiveController: starts, follows and steers one training job for the GUI. It writes
// the resolved config into a launch folder next to the store, launches the runtime
// through RunProcess, turns rank 0's metric lines into progress (step, ETA, tokens/s),
// sends control commands through the store, stops and kills the process group,
// relaunches from the newest checkpoint ("Apply & restart", "Resume from last
// checkpoint") and records in the store what mpirun said when a job failed.
#pragma once

#include "gui/client/run_process.h"
#include "runtime/config/config.h"
#include "runtime/launch/launch_spec.h"
#include "storage/records.h"

#include <QObject>
#include <QString>

#include <optional>

namespace zerolab {

class StoreClient;

// What the launcher needs beyond the config (kept in QSettings under "launcher/").
struct LauncherOptions {
    LauncherKind kind = LauncherKind::Mpirun;
    QString launcher = QStringLiteral("mpirun");
    QString hosts;
    QString hostfile;
    QString extraArgs; // split into words, never given to a shell
    bool oversubscribe = true;
    bool rootOverrides = true; // the Open MPI variables when running as root
    int stopGraceMs = 15000;   // Stop: SIGKILL when the job has not ended by then

    static LauncherOptions load();
    void save() const;
};

// Progress of the live run from its metric lines.
struct LiveProgress {
    qint64 step = 0;
    qint64 totalSteps = 0;
    double tokensPerS = 0;
    double etaS = -1; // -1: unknown
    double loss = 0;
};

// UI thread only.
class LiveController : public QObject {
    Q_OBJECT
public:
    enum class State { Idle, Starting, Running, Stopping, Restarting, Ended };

    LiveController(StoreClient* store, QObject* parent = nullptr);
    ~LiveController() override;

    void setOptions(const LauncherOptions& o) { m_options = o; }
    const LauncherOptions& options() const { return m_options; }
    // The zerolab-train to launch (default: next to this executable).
    void setTrainProgram(const QString& path) { m_program = path; }

    // Launches `config` (already validated) with config.batch.world ranks. False with a
    // message when nothing could be started; launch failures come through ended().
    bool start(const TrainConfig& config, QString* error);
    // Follows a run somebody else launched (or a previous GUI left running): controls
    // go through the store; Kill signals its rank 0 when it runs on this host.
    void attach(qint64 runId, qint64 rank0Pid);
    // The store says an attached run (not our process) is no longer running.
    void attachedRunEnded(RunStatus status);
    void stop();
    void kill();
    // Kill, then (a run started from this window) relaunch from its newest checkpoint
    // once the job has ended: what the stall banner offers.
    void killAndResume();
    void pause();
    void resume();
    void checkpointNow();
    void setLearningRate(double lr);
    // Stops gracefully (which checkpoints), waits for the end, then relaunches with
    // --resume <newest checkpoint> and the edited stage / world size / accumulation.
    // The global batch stays the same; false with a message when it cannot be split.
    bool applyAndRestart(int stage, int world, int accumulation, QString* error);
    // After a failure or a stop: relaunch from the newest checkpoint with the same config.
    bool resumeFromCheckpoint(QString* error);
    // Leaves the job running when the GUI closes (its output keeps going to files).
    void detach();

    State state() const { return m_state; }
    bool isLive() const;
    bool ownsProcess() const { return m_process.isRunning(); }
    // The launcher's pid while it runs (0 otherwise).
    qint64 processId() const { return m_process.pid(); }
    qint64 runId() const { return m_runId; }
    const std::optional<TrainConfig>& config() const { return m_config; }
    const LiveProgress& progress() const { return m_progress; }
    const RunExit& lastExit() const { return m_lastExit; }
    QString launchDir() const { return m_launchDir; }
    // The argv of the last launch, for the log and tests.
    const QStringList& lastCommand() const { return m_lastCommand; }

signals:
    void stateChanged(zerolab::LiveController::State state);
    void runIdKnown(qint64 runId);
    void progressed(const zerolab::LiveProgress& progress);
    void logLine(int rank, const QString& text);
    // The job ended; failure is empty unless it failed (then a sentence for the user).
    void ended(int exitCode, const QString& failure);
    void message(const QString& text);

private:
    bool launch(const TrainConfig& config, const QString& resumeFrom, QString* error);
    void onMetricLine(const QByteArray& json);
    void onFinished(const RunExit& exit);
    void onCheckpoint(qint64 runId, qint64 step, const QString& path);
    void setState(State s);

    StoreClient* m_store;
    RunProcess m_process;
    LauncherOptions m_options;
    QString m_program;
    State m_state = State::Idle;
    qint64 m_runId = -1;
    qint64 m_attachedPid = 0;
    std::optional<TrainConfig> m_config;
    std::optional<TrainConfig> m_pendingRestart; // the config to relaunch with
    bool m_awaitingCheckpoint = false;
    bool m_resumeAfterKill = false;
    QString m_launchDir;
    int m_launches = 0;
    LiveProgress m_progress;
    qint64 m_segmentFirstStep = -1;
    double m_segmentFirstWall = 0;
    double m_lastWall = 0;
    RunExit m_lastExit;
    QStringList m_lastCommand;
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::LiveProgress)
