// The store worker and its UI-side client. Requests and answers cross threads as
// queued calls; the worker's QTimer is created on the worker thread so that it
// fires there.
#include "gui/store_client.h"

#include "storage/run_reader.h"
#include "storage/store_error.h"

#include <QTimer>

namespace zerolab {

namespace {
constexpr int kDefaultPollMs = 1000;
}

StoreWorker::StoreWorker() = default;
StoreWorker::~StoreWorker() = default;

template <typename F> void StoreWorker::guarded(F&& f) {
    try {
        if (!m_reader)
            throw StoreError("no run store is open");
        f();
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
    emit done();
}

void StoreWorker::open(const QString& path) {
    try {
        m_reader.reset();
        m_reader = std::make_unique<RunReader>(RunStore::open(path.toStdString()));
        m_path = path;
        m_version = m_reader->dataVersion();
        if (!m_timer) {
            m_timer = new QTimer(this);
            connect(m_timer, &QTimer::timeout, this, &StoreWorker::poll);
            m_timer->start(kDefaultPollMs);
        }
        emit opened(path);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
    emit done();
}

void StoreWorker::setPollInterval(int ms) {
    if (m_timer)
        m_timer->setInterval(ms);
}

void StoreWorker::poll() {
    if (!m_reader)
        return;
    try {
        const qint64 v = m_reader->dataVersion();
        if (v != m_version) {
            m_version = v;
            emit changed();
        }
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()));
    }
}

void StoreWorker::listRuns() {
    guarded([&] {
        const auto runs = m_reader->listRuns();
        emit runsListed(QVector<RunSummary>(runs.begin(), runs.end()));
    });
}

void StoreWorker::loadRun(qint64 runId, qint64 afterStep, qint64 afterEventId) {
    guarded([&] {
        RunChunk chunk;
        chunk.runId = runId;
        chunk.incremental = afterStep >= 0;
        chunk.record = m_reader->run(runId);
        chunk.segments = m_reader->segments(runId);
        chunk.steps.append(m_reader->steps(runId, afterStep));
        chunk.events = m_reader->events(runId, afterEventId);
        if (!chunk.steps.isEmpty()) {
            chunk.ranksStep = std::int64_t(chunk.steps.last(Metric::Step));
            chunk.ranks = m_reader->rankRows(runId, chunk.ranksStep);
        }
        emit runLoaded(chunk);
    });
}

void StoreWorker::loadRanks(qint64 runId, qint64 step) {
    guarded([&] {
        const auto rows = m_reader->rankRows(runId, step);
        emit ranksLoaded(runId, step, QVector<RankRecord>(rows.begin(), rows.end()));
    });
}

void StoreWorker::setNotes(qint64 runId, const QString& notes) {
    guarded([&] { m_reader->setNotes(runId, notes.toStdString()); });
}

void StoreWorker::setTags(qint64 runId, const QStringList& tags) {
    guarded([&] {
        std::vector<std::string> t;
        for (const QString& tag : tags)
            t.push_back(tag.toStdString());
        m_reader->setTags(runId, t);
    });
}

void StoreWorker::deleteRun(qint64 runId) {
    guarded([&] { m_reader->deleteRun(runId); });
}

StoreClient::StoreClient(QObject* parent) : QObject(parent), m_worker(new StoreWorker) {
    qRegisterMetaType<RunChunk>();
    qRegisterMetaType<RunSummary>();
    qRegisterMetaType<RankRecord>();
    qRegisterMetaType<QVector<RunSummary>>();
    qRegisterMetaType<QVector<RankRecord>>();
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &StoreWorker::opened, this, [this](const QString& p) {
        m_path = p;
        emit opened(p);
    });
    connect(m_worker, &StoreWorker::failed, this, &StoreClient::failed);
    connect(m_worker, &StoreWorker::runsListed, this, [this](const QVector<RunSummary>& runs) {
        m_runs = runs;
        emit runsListed(runs);
    });
    connect(m_worker, &StoreWorker::runLoaded, this, &StoreClient::runLoaded);
    connect(m_worker, &StoreWorker::ranksLoaded, this, &StoreClient::ranksLoaded);
    connect(m_worker, &StoreWorker::changed, this, &StoreClient::changed);
    connect(m_worker, &StoreWorker::done, this, [this] {
        if (--m_pending == 0)
            emit idle();
    });
    m_thread.setObjectName(QStringLiteral("zerolab-store"));
    m_thread.start();
}

StoreClient::~StoreClient() {
    m_thread.quit();
    m_thread.wait();
}

template <typename F> void StoreClient::send(F&& call) {
    ++m_pending;
    QMetaObject::invokeMethod(m_worker, std::forward<F>(call), Qt::QueuedConnection);
}

void StoreClient::open(const QString& path) {
    send([w = m_worker, path] { w->open(path); });
}

void StoreClient::setPollInterval(int ms) {
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, ms] { w->setPollInterval(ms); }, Qt::QueuedConnection);
}

void StoreClient::listRuns() {
    send([w = m_worker] { w->listRuns(); });
}

void StoreClient::loadRun(qint64 runId, qint64 afterStep, qint64 afterEventId) {
    send([w = m_worker, runId, afterStep, afterEventId] {
        w->loadRun(runId, afterStep, afterEventId);
    });
}

void StoreClient::loadRanks(qint64 runId, qint64 step) {
    send([w = m_worker, runId, step] { w->loadRanks(runId, step); });
}

void StoreClient::setNotes(qint64 runId, const QString& notes) {
    send([w = m_worker, runId, notes] { w->setNotes(runId, notes); });
}

void StoreClient::setTags(qint64 runId, const QStringList& tags) {
    send([w = m_worker, runId, tags] { w->setTags(runId, tags); });
}

void StoreClient::deleteRun(qint64 runId) {
    send([w = m_worker, runId] { w->deleteRun(runId); });
}

} // namespace zerolab
