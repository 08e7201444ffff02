// The store worker and its UI-side client. Requests and answers cross threads as
// queued calls; the worker's QTimer is created on the worker thread so that it
// fires there.
#include "gui/client/store_client.h"

#include "gui/client/store_thread.h"
#include "gui/core/csv_export.h"
#include "gui/core/rank_rows.h"
#include "runtime/monitor/comms_logger.h"
#include "storage/profile_store.h"
#include "storage/run_reader.h"
#include "storage/run_writer.h"
#include "storage/store_clock.h"
#include "storage/store_error.h"

#include <QFileInfo>
#include <QTimer>

#include <algorithm>

namespace zerolab {

namespace {
constexpr int kDefaultPollMs = 1000;
}

StoreWorker::StoreWorker() = default;
StoreWorker::~StoreWorker() = default;

template <typename F> void StoreWorker::guarded(F&& f) {
    try {
        requireOffGuiThread("the run store");
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
        const bool readOnly =
            RunStore::onReadOnlyFileSystem(path.toStdString()) && QFileInfo(path).size() > 0;
        m_reader = std::make_unique<RunReader>(
            openStoreOffGuiThread(path, readOnly ? OpenMode::ReadOnly : OpenMode::ReadWrite));
        m_path = path;
        m_version = m_reader->dataVersion();
        if (!m_timer) {
            m_timer = new QTimer(this);
            connect(m_timer, &QTimer::timeout, this, &StoreWorker::poll);
            m_timer->start(kDefaultPollMs);
        }
        emit opened(path, readOnly);
    } catch (const std::exception& e) {
        emit openFailed(path, QString::fromStdString(e.what()));
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
        const double now = unixNow();
        SilentRuns silent;
        for (const auto& run : runs)
            if (run.status == RunStatus::Running || run.status == RunStatus::Stalled)
                if (const auto s = m_reader->heartbeatSilence(run.id, now))
                    silent.insert(run.id, *s);
        emit runsListed(QVector<RunSummary>(runs.begin(), runs.end()), silent);
    });
}

void StoreWorker::loadRun(qint64 runId, bool incremental, qint64 afterStep, qint64 afterEventId) {
    guarded([&] {
        RunChunk chunk;
        chunk.runId = runId;
        chunk.incremental = incremental;
        chunk.record = m_reader->run(runId);
        chunk.segments = m_reader->segments(runId);
        const auto span = incremental ? std::nullopt : m_reader->stepSpan(runId);
        if (span && span->second - span->first + 1 > kFullDetailSteps) {
            const StepLod lod = m_reader->stepsLod(runId, span->first, span->second, kLodBuckets);
            chunk.lod = true;
            chunk.loggedSteps = lod.logged;
            chunk.steps.append(lod.rows);
        } else {
            chunk.steps.append(m_reader->steps(runId, afterStep));
            chunk.loggedSteps = chunk.steps.size();
        }
        chunk.events = m_reader->events(runId, afterEventId);
        chunk.timelineSteps = m_reader->timelineSteps(runId);
        if (!chunk.steps.isEmpty()) {
            chunk.ranksStep = std::int64_t(chunk.steps.last(Metric::Step));
            chunk.ranks =
                checkedRankRows(chunk.record, chunk.segments, chunk.ranksStep, chunk.ranksProblem);
        }
        if (!incremental)
            for (const Segment& seg : chunk.segments)
                if (const auto last = m_reader->lastStepOfSegment(runId, seg.index)) {
                    SegmentRanks sr{seg.index, *last, {}, {}};
                    sr.ranks = checkedRankRows(chunk.record, chunk.segments, *last, sr.problem);
                    chunk.segmentRanks.push_back(std::move(sr));
                }
        emit runLoaded(chunk);
    });
}

std::vector<RankRecord> StoreWorker::checkedRankRows(const RunRecord& run,
                                                     const std::vector<Segment>& segments,
                                                     std::int64_t step, std::string& problem) {
    CheckedRanks checked =
        checkRankRows(m_reader->rankRows(run.id, step), worldAtStep(run.info, segments, step));
    problem = checked.problem.empty()
                  ? std::string()
                  : m_path.toStdString() + ": run " + std::to_string(run.id) + ", step " +
                        std::to_string(step) + ": table rank_steps: " + checked.problem;
    return std::move(checked.ranks);
}

void StoreWorker::loadRanks(qint64 runId, qint64 step) {
    guarded([&] {
        std::string problem;
        const auto rows =
            checkedRankRows(m_reader->run(runId), m_reader->segments(runId), step, problem);
        emit ranksLoaded(runId, step, QVector<RankRecord>(rows.begin(), rows.end()),
                         QString::fromStdString(problem));
    });
}

void StoreWorker::loadDetail(qint64 runId, qint64 firstStep, qint64 lastStep, qint64 buckets) {
    guarded([&] {
        StepColumns cols;
        cols.append(m_reader->stepsLod(runId, firstStep, lastStep, buckets).rows);
        emit detailLoaded(runId, firstStep, lastStep, cols);
    });
}

void StoreWorker::exportCsv(qint64 runId, const QString& path) {
    guarded([&] {
        StepColumns all;
        all.append(m_reader->steps(runId));
        QString error;
        writeMetricsCsv(path, all, &error);
        emit csvExported(runId, path, error);
    });
}

void StoreWorker::loadTimeline(qint64 runId, qint64 step) {
    guarded([&] {
        StepTimeline t;
        t.step = step;
        try {
            if (auto stored = m_reader->timeline(runId, step))
                t = std::move(*stored);
        } catch (const StoreError& e) {
            // A damaged timeline (issue 29 §1): its step shows the error, the rest of
            // the run still shows.
            emit timelineFailed(runId, step, QString::fromStdString(e.what()));
            return;
        }
        emit timelineLoaded(runId, t);
    });
}

void StoreWorker::loadCommsSummary(qint64 runId) {
    guarded([&] {
        try {
            const StoredCommsSummary summary = storedCommsSummary(*m_reader, runId);
            const std::string both =
                summary.split.empty() ? summary.table : summary.table + "\n" + summary.split;
            emit commsSummaryLoaded(runId, qint64(summary.sampled_steps),
                                    QString::fromStdString(both), QString());
        } catch (const StoreError& e) {
            emit commsSummaryLoaded(runId, 0, QString(), QString::fromStdString(e.what()));
        }
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

void StoreWorker::postCommand(qint64 runId, int kind, double arg) {
    guarded([&] {
        const qint64 id = m_reader->postCommand(runId, static_cast<CommandKind>(kind), arg);
        emit commandPosted(runId, kind, id);
    });
}

void StoreWorker::recordFailure(qint64 runId, int rank, const QString& message) {
    guarded([&] {
        const RunRecord run = m_reader->run(runId);
        const std::string text = message.toStdString();
        bool said = false;
        for (const Event& e : m_reader->events(runId))
            said = said || e.message == text;
        if (said && run.status == RunStatus::Failed)
            return;
        // A second connection: the reader's is read-mostly and RunWriter owns its store.
        RunWriter writer(openStoreOffGuiThread(m_path));
        writer.attachRun(runId);
        if (!said)
            writer.addEvent(EventLevel::Error, rank, text);
        // A stall's reason (the ranks that had not arrived) stays the run's last word.
        const bool keep = (run.status == RunStatus::Failed || run.status == RunStatus::Stalled) &&
                          !run.end_message.empty();
        writer.finish(RunStatus::Failed, !keep ? text
                                         : run.status == RunStatus::Stalled
                                             ? "the job was ended while stalled: " + run.end_message
                                             : run.end_message);
    });
}

void StoreWorker::findCheckpoint(qint64 runId) {
    guarded([&] {
        const auto cps = m_reader->checkpoints(runId);
        const auto newest =
            std::max_element(cps.begin(), cps.end(), [](const Checkpoint& a, const Checkpoint& b) {
                return a.step < b.step;
            });
        if (newest == cps.end())
            emit checkpointFound(runId, -1, {});
        else
            emit checkpointFound(runId, newest->step, QString::fromStdString(newest->path));
    });
}

void StoreWorker::markLost(double staleAfterS) {
    guarded([&] { m_reader->markLostRuns(staleAfterS); });
}

void StoreWorker::loadProfile() {
    guarded([&] {
        RunStore store = openStoreOffGuiThread(m_path, OpenMode::ReadOnly);
        const auto stored = latestMachineProfile(store);
        if (!stored) {
            emit profileMissing(QString()); // none stored
            return;
        }
        const std::string where =
            m_path.toStdString() + ": machine_profiles #" + std::to_string(stored->id);
        try {
            emit profileLoaded(machineProfileFromJson(nlohmann::json::parse(stored->json), where));
        } catch (const std::exception& e) {
            emit profileMissing(QString::fromStdString(e.what()));
        }
    });
}

StoreClient::StoreClient(QObject* parent) : QObject(parent), m_worker(new StoreWorker) {
    qRegisterMetaType<RunChunk>();
    qRegisterMetaType<RunSummary>();
    qRegisterMetaType<RankRecord>();
    qRegisterMetaType<QVector<RunSummary>>();
    qRegisterMetaType<QVector<RankRecord>>();
    qRegisterMetaType<SilentRuns>();
    qRegisterMetaType<StepTimeline>();
    qRegisterMetaType<StepColumns>();
    qRegisterMetaType<MachineProfile>();
    m_silenceTimer = new QTimer(this);
    m_silenceTimer->setSingleShot(true);
    m_silenceTimer->setInterval(kSilenceRelistMs);
    connect(m_silenceTimer, &QTimer::timeout, this, &StoreClient::listRuns);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &StoreWorker::opened, this, [this](const QString& p, bool readOnly) {
        m_path = p;
        m_readOnly = readOnly;
        emit opened(p);
    });
    connect(m_worker, &StoreWorker::failed, this, &StoreClient::failed);
    connect(m_worker, &StoreWorker::openFailed, this, &StoreClient::openFailed);
    connect(m_worker, &StoreWorker::runsListed, this,
            [this](const QVector<RunSummary>& runs, const SilentRuns& silent) {
                m_runs = runs;
                m_silent = silent;
                // A stopped rank 0 writes nothing, so no change is polled: while a run
                // is running, list again now and then to see its heartbeat age.
                const bool live = std::any_of(runs.begin(), runs.end(), [](const RunSummary& r) {
                    return r.status == RunStatus::Running || r.status == RunStatus::Stalled;
                });
                if (live && !m_silenceTimer->isActive())
                    m_silenceTimer->start();
                emit runsListed(runs);
            });
    connect(m_worker, &StoreWorker::runLoaded, this, &StoreClient::runLoaded);
    connect(m_worker, &StoreWorker::timelineFailed, this, &StoreClient::timelineFailed);
    connect(m_worker, &StoreWorker::ranksLoaded, this, &StoreClient::ranksLoaded);
    connect(m_worker, &StoreWorker::detailLoaded, this, &StoreClient::detailLoaded);
    connect(m_worker, &StoreWorker::csvExported, this, &StoreClient::csvExported);
    connect(m_worker, &StoreWorker::timelineLoaded, this, &StoreClient::timelineLoaded);
    connect(m_worker, &StoreWorker::commsSummaryLoaded, this, &StoreClient::commsSummaryLoaded);
    connect(m_worker, &StoreWorker::changed, this, &StoreClient::changed);
    connect(m_worker, &StoreWorker::commandPosted, this, &StoreClient::commandPosted);
    connect(m_worker, &StoreWorker::checkpointFound, this, &StoreClient::checkpointFound);
    connect(m_worker, &StoreWorker::profileLoaded, this, [this](const MachineProfile& p) {
        m_profile = p;
        m_profileMissing.clear();
        emit profileChanged();
    });
    connect(m_worker, &StoreWorker::profileMissing, this, [this](const QString& why) {
        m_profile.reset();
        m_profileMissing = why;
        emit profileChanged();
    });
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

void StoreClient::loadRun(qint64 runId) {
    send([w = m_worker, runId] { w->loadRun(runId, false, -1, 0); });
}

void StoreClient::loadNewer(qint64 runId, qint64 afterStep, qint64 afterEventId) {
    send([w = m_worker, runId, afterStep, afterEventId] {
        w->loadRun(runId, true, afterStep, afterEventId);
    });
}

void StoreClient::loadRanks(qint64 runId, qint64 step) {
    send([w = m_worker, runId, step] { w->loadRanks(runId, step); });
}

void StoreClient::loadDetail(qint64 runId, qint64 firstStep, qint64 lastStep, qint64 buckets) {
    send([w = m_worker, runId, firstStep, lastStep, buckets] {
        w->loadDetail(runId, firstStep, lastStep, buckets);
    });
}

void StoreClient::exportCsv(qint64 runId, const QString& path) {
    send([w = m_worker, runId, path] { w->exportCsv(runId, path); });
}

void StoreClient::loadTimeline(qint64 runId, qint64 step) {
    send([w = m_worker, runId, step] { w->loadTimeline(runId, step); });
}

void StoreClient::loadCommsSummary(qint64 runId) {
    send([w = m_worker, runId] { w->loadCommsSummary(runId); });
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

void StoreClient::postCommand(qint64 runId, CommandKind kind, double arg) {
    send([w = m_worker, runId, kind, arg] { w->postCommand(runId, int(kind), arg); });
}

void StoreClient::recordFailure(qint64 runId, int rank, const QString& message) {
    send([w = m_worker, runId, rank, message] { w->recordFailure(runId, rank, message); });
}

void StoreClient::findCheckpoint(qint64 runId) {
    send([w = m_worker, runId] { w->findCheckpoint(runId); });
}

void StoreClient::markLost(double staleAfterS) {
    if (m_readOnly)
        return; // nothing can be marked on a read-only file system
    send([w = m_worker, staleAfterS] { w->markLost(staleAfterS); });
}

void StoreClient::loadProfile() {
    send([w = m_worker] { w->loadProfile(); });
}

} // namespace zerolab
