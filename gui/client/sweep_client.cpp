// The sweep worker and its UI-side client. Reads cross threads as queued calls; the
// worker's poll timer is created on the worker thread so that it fires there.
#include "gui/client/sweep_client.h"

#include "gui/client/store_thread.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>

namespace zerolab {

namespace {
constexpr int kPollMs = 1000;
constexpr int kStopWaitMs = 5000;
} // namespace

SweepWorker::SweepWorker() = default;
SweepWorker::~SweepWorker() = default;

template <typename F> void SweepWorker::guarded(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        m_store.reset(); // opened again at the next read
        emit failed(QString::fromStdString(e.what()));
    }
    emit done();
}

SweepStore& SweepWorker::store() {
    // One read-only connection for the once-a-second reads: opening checks the file and
    // its schema each time, which a poll should not repeat.
    if (!m_store)
        m_store.emplace(openStoreOffGuiThread(m_path, OpenMode::ReadOnly));
    return *m_store;
}

void SweepWorker::setPath(const QString& path) {
    m_path = path;
    m_store.reset();
}

void SweepWorker::setPollInterval(int ms) {
    if (!m_timer) {
        m_timer = new QTimer(this);
        connect(m_timer, &QTimer::timeout, this, [this] {
            if (m_path.isEmpty())
                return;
            try {
                const auto sweeps = store().listSweeps();
                emit sweepsListed(QVector<SweepRecord>(sweeps.begin(), sweeps.end()));
            } catch (const std::exception& e) {
                m_store.reset();
                emit failed(QString::fromStdString(e.what()));
            }
        });
    }
    if (ms > 0)
        m_timer->start(ms);
    else
        m_timer->stop();
}

void SweepWorker::listSweeps() {
    guarded([&] {
        const auto sweeps = store().listSweeps();
        emit sweepsListed(QVector<SweepRecord>(sweeps.begin(), sweeps.end()));
    });
}

void SweepWorker::loadSweep(qint64 sweepId) {
    guarded([&] {
        SweepStore& s = store();
        const SweepRecord sweep = s.sweep(sweepId);
        const auto trials = s.trials(sweepId);
        emit sweepLoaded(sweep, QVector<TrialRecord>(trials.begin(), trials.end()));
    });
}

SweepClient::SweepClient(QObject* parent) : QObject(parent), m_worker(new SweepWorker) {
    qRegisterMetaType<SweepRecord>();
    qRegisterMetaType<TrialRecord>();
    qRegisterMetaType<QVector<SweepRecord>>();
    qRegisterMetaType<QVector<TrialRecord>>();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SweepWorker::sweepsListed, this, &SweepClient::sweepsListed);
    connect(m_worker, &SweepWorker::sweepLoaded, this, &SweepClient::sweepLoaded);
    connect(m_worker, &SweepWorker::failed, this, &SweepClient::failed);
    connect(m_worker, &SweepWorker::done, this, [this] { --m_pending; });
    m_thread.start();
}

SweepClient::~SweepClient() {
    if (processRunning()) {
        // The sweep outlives the window only as a stopped, resumable sweep.
        m_process->terminate();
        m_process->waitForFinished(kStopWaitMs);
    }
    m_thread.quit();
    m_thread.wait();
}

template <typename F> void SweepClient::send(F&& call) {
    ++m_pending;
    QMetaObject::invokeMethod(m_worker, std::forward<F>(call), Qt::QueuedConnection);
}

void SweepClient::setPath(const QString& path) {
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, path] { w->setPath(path); }, Qt::QueuedConnection);
}

void SweepClient::setPolling(bool on) {
    const int ms = on ? kPollMs : 0;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ms] { w->setPollInterval(ms); }, Qt::QueuedConnection);
}

void SweepClient::listSweeps() {
    send([w = m_worker] { w->listSweeps(); });
}

void SweepClient::loadSweep(qint64 sweepId) {
    send([w = m_worker, sweepId] { w->loadSweep(sweepId); });
}

void SweepClient::waitIdle() {
    while (m_pending > 0)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
}

bool SweepClient::startProcess(const QString& program, const QStringList& args) {
    if (processRunning())
        return false;
    delete m_process;
    m_process = new QProcess(this);
    m_processTail.clear();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, [this] {
        const QStringList lines =
            QString::fromUtf8(m_process->readAll()).split('\n', Qt::SkipEmptyParts);
        if (!lines.isEmpty()) {
            m_processTail = lines.back();
            emit processOutput(m_processTail);
        }
    });
    connect(m_process, &QProcess::finished, this,
            [this](int code, QProcess::ExitStatus) { emit processEnded(code, m_processTail); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            emit processFailedToStart(m_process->errorString());
    });
    m_process->start(program, args);
    return true;
}

void SweepClient::stopProcess() {
    if (processRunning())
        m_process->terminate();
}

bool SweepClient::processRunning() const {
    return m_process && m_process->state() != QProcess::NotRunning;
}

} // namespace zerolab
