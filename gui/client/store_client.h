// Asynchronous access to the run store. StoreWorker owns the RunReader and lives
// on its own QThread; StoreClient (UI thread) forwards requests to it as queued
// calls and re-emits its answers, so no store call ever blocks the UI.
// The worker polls PRAGMA data_version; following a live run is only a shorter
// poll interval (setPollInterval).
#pragma once

#include "gui/core/run_data.h"
#include "gui/core/runs_model.h"
#include "gui/core/step_forecast.h"
#include "storage/records.h"
#include "storage/timeline.h"

#include <QObject>
#include <QStringList>
#include <QThread>
#include <QVector>

#include <memory>
#include <optional>

class QTimer;

namespace zerolab {

class RunReader;

// Lives on the worker thread; every slot runs there. Catches StoreError and reports
// it through failed() with the store path in the message.
class StoreWorker : public QObject {
    Q_OBJECT
public:
    StoreWorker();
    ~StoreWorker() override;

public slots:
    void open(const QString& path);
    void setPollInterval(int ms);
    void listRuns();
    // afterStep < 0: the whole run; otherwise steps after afterStep and events after
    // afterEventId. The chunk also carries the rank rows of its last step; a whole
    // run's chunk also those of each segment's last step.
    void loadRun(qint64 runId, bool incremental, qint64 afterStep, qint64 afterEventId);
    void loadRanks(qint64 runId, qint64 step);
    // Steps firstStep..lastStep at a level of detail of `buckets` spans (as logged when
    // they are few): what a zoomed plot of a long run draws.
    void loadDetail(qint64 runId, qint64 firstStep, qint64 lastStep, qint64 buckets);
    // Every logged step of the run as CSV (writeMetricsCsv), read and written here.
    void exportCsv(qint64 runId, const QString& path);
    // The step timeline of one sampled step (an empty one when none is stored).
    void loadTimeline(qint64 runId, qint64 step);
    // The comms logger's log_summary of the run's stored step timelines
    // (storedCommsSummary, runtime/monitor/comms_logger.h).
    void loadCommsSummary(qint64 runId);
    void setNotes(qint64 runId, const QString& notes);
    void setTags(qint64 runId, const QStringList& tags);
    void deleteRun(qint64 runId);
    // Control of a live run: a command for its rank 0 (CommandKind as int).
    void postCommand(qint64 runId, int kind, double arg);
    // The launcher's word on a failed job: adds an error event with `message` unless
    // the store already holds it, and makes sure the run's status is failed.
    void recordFailure(qint64 runId, int rank, const QString& message);
    // The run's newest checkpoint (step -1 and an empty path when it has none).
    void findCheckpoint(qint64 runId);
    // RunReader::markLostRuns.
    void markLost(double staleAfterS);
    // The store's newest machine profile (storage/profile_store.h), checked by the
    // planner's reader.
    void loadProfile();

signals:
    // readOnly: the store is on a read-only file system and was opened read-only.
    void opened(const QString& path, bool readOnly);
    // The store at path could not be opened (also sent as failed): not a store, damaged.
    void openFailed(const QString& path, const QString& message);
    void failed(const QString& message);
    // silent: RunReader::heartbeatSilence of each running run silent past its timeout.
    void runsListed(const QVector<zerolab::RunSummary>& runs, const zerolab::SilentRuns& silent);
    void runLoaded(const zerolab::RunChunk& chunk);
    // ranks: checked against the step's world; problem: what was left out (empty: none).
    void ranksLoaded(qint64 runId, qint64 step, const QVector<zerolab::RankRecord>& ranks,
                     const QString& problem);
    void detailLoaded(qint64 runId, qint64 firstStep, qint64 lastStep,
                      const zerolab::StepColumns& steps);
    // error empty: written.
    void csvExported(qint64 runId, const QString& path, const QString& error);
    void timelineLoaded(qint64 runId, const zerolab::StepTimeline& timeline);
    // The stored timeline of `step` holds values it cannot mean (RunReader::timeline's
    // StoreError, naming the run, the table and the value).
    void timelineFailed(qint64 runId, qint64 step, const QString& message);
    // sampledSteps: the timelines it covers; error: a damaged timeline (the table empty).
    void commsSummaryLoaded(qint64 runId, qint64 sampledSteps, const QString& table,
                            const QString& error);
    void commandPosted(qint64 runId, int kind, qint64 commandId);
    void checkpointFound(qint64 runId, qint64 step, const QString& path);
    void profileLoaded(const zerolab::MachineProfile& profile);
    // No usable profile: none stored (why empty), or the newest one refused (the reader's
    // message, naming the store and the profile's row).
    void profileMissing(const QString& why);
    // Another connection committed since the last poll.
    void changed();
    void done(); // after every request, for StoreClient's pending count

private:
    void poll();
    template <typename F> void guarded(F&& f);
    // The rank rows of `step` checked against its world (checkRankRows); `problem` gets
    // what was left out, naming the store, the run, the step and the table.
    std::vector<RankRecord> checkedRankRows(const RunRecord& run,
                                            const std::vector<Segment>& segments, std::int64_t step,
                                            std::string& problem);

    std::unique_ptr<RunReader> m_reader;
    QString m_path;
    QTimer* m_timer = nullptr;
    qint64 m_version = -1;
};

// UI thread. Owns the worker thread; destroying the client stops it.
class StoreClient : public QObject {
    Q_OBJECT
public:
    explicit StoreClient(QObject* parent = nullptr);
    ~StoreClient() override;

    void open(const QString& path);
    QString path() const { return m_path; }
    // The open store is on a read-only file system, opened read-only (RunStore::open):
    // it shows its runs; edits fail naming it.
    bool readOnly() const { return m_readOnly; }
    void setPollInterval(int ms);
    void listRuns();
    // The whole run (a RunChunk with incremental false).
    void loadRun(qint64 runId);
    // What came after afterStep and afterEventId (-1 and 0: everything so far), as an
    // incremental RunChunk: a run followed from before its first step keeps growing.
    void loadNewer(qint64 runId, qint64 afterStep, qint64 afterEventId);
    void loadRanks(qint64 runId, qint64 step);
    void loadDetail(qint64 runId, qint64 firstStep, qint64 lastStep, qint64 buckets);
    void exportCsv(qint64 runId, const QString& path);
    void loadTimeline(qint64 runId, qint64 step);
    void loadCommsSummary(qint64 runId);
    void setNotes(qint64 runId, const QString& notes);
    void setTags(qint64 runId, const QStringList& tags);
    void deleteRun(qint64 runId);
    void postCommand(qint64 runId, CommandKind kind, double arg = kUnknown);
    void recordFailure(qint64 runId, int rank, const QString& message);
    void findCheckpoint(qint64 runId);
    void markLost(double staleAfterS);
    // Reads the store's newest machine profile; profileChanged() when it is answered.
    void loadProfile();
    // This machine's newest calibrated profile in the store, if any and valid.
    const std::optional<MachineProfile>& machineProfile() const { return m_profile; }
    // Why the newest stored profile was refused ("" when none is stored or one is valid).
    const QString& machineProfileMissing() const { return m_profileMissing; }
    // Requests sent and not yet answered.
    int pending() const { return m_pending; }
    const QVector<RunSummary>& runs() const { return m_runs; }
    // The runs of the last listing whose heartbeat is silent past their timeout, with how
    // long (RunReader::heartbeatSilence): rank 0 is stopped or hung; shown as stalled.
    const SilentRuns& silentRuns() const { return m_silent; }

signals:
    void opened(const QString& path);
    // The store at path could not be opened (also sent as failed): not a store, damaged.
    void openFailed(const QString& path, const QString& message);
    void failed(const QString& message);
    void runsListed(const QVector<zerolab::RunSummary>& runs);
    void runLoaded(const zerolab::RunChunk& chunk);
    void ranksLoaded(qint64 runId, qint64 step, const QVector<zerolab::RankRecord>& ranks,
                     const QString& problem);
    void detailLoaded(qint64 runId, qint64 firstStep, qint64 lastStep,
                      const zerolab::StepColumns& steps);
    void csvExported(qint64 runId, const QString& path, const QString& error);
    void timelineLoaded(qint64 runId, const zerolab::StepTimeline& timeline);
    // The stored timeline of `step` holds values it cannot mean (RunReader::timeline's
    // StoreError, naming the run, the table and the value).
    void timelineFailed(qint64 runId, qint64 step, const QString& message);
    void commsSummaryLoaded(qint64 runId, qint64 sampledSteps, const QString& table,
                            const QString& error);
    void commandPosted(qint64 runId, int kind, qint64 commandId);
    void checkpointFound(qint64 runId, qint64 step, const QString& path);
    // machineProfile() or machineProfileMissing() was answered anew.
    void profileChanged();
    void changed();
    void idle(); // pending() dropped to 0

private:
    template <typename F> void send(F&& call);

    QThread m_thread;
    StoreWorker* m_worker;
    QString m_path;
    int m_pending = 0;
    QVector<RunSummary> m_runs;
    SilentRuns m_silent;
    bool m_readOnly = false;
    std::optional<MachineProfile> m_profile;
    QString m_profileMissing;
    // Relists while a run is running, to see a heartbeat fall silent.
    static constexpr int kSilenceRelistMs = 5000;
    QTimer* m_silenceTimer = nullptr;
};

} // namespace zerolab

Q_DECLARE_METATYPE(zerolab::RunSummary)
Q_DECLARE_METATYPE(zerolab::RankRecord)

Q_DECLARE_METATYPE(zerolab::StepTimeline)
