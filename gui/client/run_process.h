// RunProcess: one launched training job (mpirun or srun and its ranks) as a child in
// a process group of its own. Its stdout and stderr go to files in the launch folder
// (not pipes), so the job survives the GUI when the user leaves it running; the files
// are tailed every 100 ms and turned into metric lines and tagged log lines.
#pragma once

#include "runtime/launch/launch_failure.h"

#include <QFile>
#include <QObject>
#include <QProcess>
#include <QTimer>

#include <optional>
#include <string>
#include <vector>

namespace zerolab {

// How a job ended, from the launcher's exit and what it printed.
struct RunExit {
    int exitCode = -1;    // the launcher's exit code; -1 when it died of a signal
    bool crashed = false; // the launcher itself was ended by a signal (Kill, SIGKILL)
    bool stopRequested = false;
    bool killed = false; // SIGKILL sent by us (Kill, or Stop's timeout)
    std::optional<LaunchFailure> failure;
};

// UI thread only. Owns its QProcess; detach() gives the job up without ending it.
class RunProcess : public QObject {
    Q_OBJECT
public:
    explicit RunProcess(QObject* parent = nullptr);
    ~RunProcess() override;

    // argv[0] is the launcher. stdoutPath / stderrPath are created (truncated).
    // False when the files cannot be created; a launcher that cannot be started
    // reports through finished() with a LauncherMissing failure.
    bool start(const std::vector<std::string>& argv, const QProcessEnvironment& env,
               const QString& workDir, const QString& stdoutPath, const QString& stderrPath,
               QString* error);
    // SIGTERM to the group (the ranks stop after their step and checkpoint); SIGKILL
    // to the group when it has not ended after graceMs.
    void stop(int graceMs);
    // SIGKILL to the group at once.
    void kill();
    // Stops watching and leaves the job running (its output keeps going to the files).
    void detach();
    bool isRunning() const;
    qint64 pid() const;
    // What the launcher and the ranks printed on stderr so far (the last 256 KB).
    const QString& stderrText() const { return m_stderrText; }

signals:
    // One JSON object from rank 0's stdout (the metric line protocol, docs/metrics.md).
    void metricLine(const QByteArray& json);
    // One stderr line; rank -1 for the launcher's own lines (no --tag-output prefix).
    void logLine(int rank, const QString& text);
    void finished(const zerolab::RunExit& exit);

private:
    void signalGroup(int sig);
    void tail();
    void onFinished(int exitCode, QProcess::ExitStatus status);

    QProcess* m_process;
    QTimer m_tail;
    QTimer m_killTimer;
    QFile m_out;
    QFile m_err;
    QByteArray m_outPartial;
    QByteArray m_errPartial;
    QString m_stderrText;
    QString m_launcher;
    qint64 m_pgid = 0;
    bool m_stopRequested = false;
    bool m_killed = false;
};

// Splits an Open MPI --tag-output line "[1,3]<stderr>:text" (or srun --label "3: text")
// into its rank and text; rank -1 and the whole line when there is no prefix.
std::pair<int, QString> splitRankPrefix(const QString& line);

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::RunExit)
