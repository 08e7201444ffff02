// "Calibrate this machine…": zerolab-calibrate run as a child process with --progress-json
// (docs/planner.md, "Progress") and --db, its progress lines read as they come, its profile
// kept in the run store only when it ends well. A cancel stops it (SIGTERM: the tool stops
// its mpirun job and writes nothing); its temp files live in a folder of the client's own,
// removed after every run.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QTemporaryDir;
class QTimer;

namespace zerolab {

// One line of zerolab-calibrate --progress-json.
struct CalibrationStep {
    double fraction = 0; // done / total, in [0, 1]
    long done = 0;
    long total = 0;
    QString phase;    // plan, kernels, pieces, collectives, sharing, profile
    QString measures; // what the step measured, as the tool says it (English)
    QString link;     // collectives, sharing: intra_host or inter_host
    int ranks = 0;
};

// The step of one progress line; nullopt for a line that is not one.
std::optional<CalibrationStep> parseCalibrationStep(const QByteArray& line);
// The step's phase in the current language, with its link and ranks ("Collectives over 2
// ranks within the host"), then what it measured.
QString calibrationStepText(const CalibrationStep& step);

// UI thread. QProcess is asynchronous: nothing here blocks the event loop.
class CalibrateClient : public QObject {
    Q_OBJECT
public:
    explicit CalibrateClient(QObject* parent = nullptr);
    // A calibration still running is stopped (and waited for, briefly).
    ~CalibrateClient() override;

    // zerolab-calibrate (default: beside the GUI's executable).
    void setProgram(const QString& program) { m_program = program; }
    // Options passed before the client's own (--out, --db, --progress-json); empty: the
    // tool's defaults (docs/planner.md).
    void setOptions(const QStringList& options) { m_options = options; }
    QStringList options() const { return m_options; }

    // Starts a calibration that keeps its profile in the store at `storePath`; false while
    // one runs.
    bool start(const QString& storePath);
    // Stops the calibration in flight; cancelled() follows. Nothing reaches the store.
    void cancel();
    bool running() const;

signals:
    void started();
    void progressed(const zerolab::CalibrationStep& step);
    // The profile is in the store (the caller reads it again).
    void finished();
    void cancelled();
    // Exit code != 0 (or no start): the tool's own message.
    void failed(const QString& message);

private:
    void readProgress();
    void onFinished(int code, QProcess::ExitStatus status);

    QString m_program;
    QStringList m_options;
    QProcess* m_process = nullptr;
    std::unique_ptr<QTemporaryDir> m_dir;
    QTimer* m_killTimer;
    QByteArray m_pending;  // stdout after its last newline
    QString m_toolMessage; // stderr's last "zerolab-calibrate: ..." line
    QString m_lastError;   // stderr's last other line (mpirun's)
    bool m_cancelling = false;
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::CalibrationStep)
