// The Tune view's background work: the store's sweeps and a sweep's trials read on a
// worker thread of its own (one read-only connection, polled while the view is shown),
// and zerolab-sweep run as a child process. As with StoreClient, the view sends requests
// and gets typed signals back on its thread.
#pragma once

#include "storage/sweep_store.h"

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QThread>
#include <QVector>

#include <memory>
#include <optional>

class QTimer;

namespace zerolab {

// Lives on the worker thread; every slot runs there. A failed read is reported through
// failed() and the connection opened again at the next one.
class SweepWorker : public QObject {
    Q_OBJECT
public:
    SweepWorker();
    ~SweepWorker() override;

    void setPath(const QString& path);
    // 0: no polling; otherwise listSweeps() every `ms`.
    void setPollInterval(int ms);
    void listSweeps();
    void loadSweep(qint64 sweepId);

signals:
    void sweepsListed(const QVector<zerolab::SweepRecord>& sweeps);
    void sweepLoaded(const zerolab::SweepRecord& sweep,
                     const QVector<zerolab::TrialRecord>& trials);
    void failed(const QString& message);
    void done(); // after every request, for SweepClient's pending count

private:
    // The store's sweeps through one read-only connection, opened on first use. Throws.
    SweepStore& store();
    template <typename F> void guarded(F&& f);

    QString m_path;
    std::optional<SweepStore> m_store;
    QTimer* m_timer = nullptr;
};

// UI thread. Owns the worker thread and the zerolab-sweep process; destroying the client
// stops both (a running sweep is left stopped, resumable).
class SweepClient : public QObject {
    Q_OBJECT
public:
    explicit SweepClient(QObject* parent = nullptr);
    ~SweepClient() override;

    void setPath(const QString& path);
    // While on, the sweeps are listed every second: a sweep started anywhere (this view,
    // a terminal) appears, and a running one fills in.
    void setPolling(bool on);
    void listSweeps();
    void loadSweep(qint64 sweepId);
    // Requests sent and not yet answered.
    int pending() const { return m_pending; }
    // Runs the UI thread's event loop (tests) until every request is answered.
    void waitIdle();

    // zerolab-sweep with `args` (run FILE --db DB, resume ID --db DB); false while one runs.
    bool startProcess(const QString& program, const QStringList& args);
    // SIGTERM: the trial in flight is ended and runs again on resume.
    void stopProcess();
    bool processRunning() const;

signals:
    void sweepsListed(const QVector<zerolab::SweepRecord>& sweeps);
    void sweepLoaded(const zerolab::SweepRecord& sweep,
                     const QVector<zerolab::TrialRecord>& trials);
    void failed(const QString& message);
    // The last line zerolab-sweep printed so far.
    void processOutput(const QString& line);
    void processEnded(int exitCode, const QString& lastLine);
    void processFailedToStart(const QString& message);

private:
    template <typename F> void send(F&& call);

    QThread m_thread;
    SweepWorker* m_worker;
    int m_pending = 0;
    QProcess* m_process = nullptr;
    QString m_processTail;
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::SweepRecord)
Q_DECLARE_METATYPE(zerolab::TrialRecord)
