// The runs list as a table model (one row per stored run, newest first) and the
// proxy that filters it by free text over name, tags, notes, status and host.
#pragma once

#include "storage/records.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>
#include <QVector>

namespace zerolab {

// Run id -> seconds its heartbeat has been silent past its timeout
// (RunReader::heartbeatSilence): rank 0 is stopped or hung, the run reads as stalled.
using SilentRuns = QHash<qint64, double>;

// UI thread only; reset wholesale from StoreClient::runsListed.
class RunsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Status = 0, Name, Stage, World, Steps, LastLoss, TokensPerS, Duration, Tags };
    static constexpr int kColumnCount = 9;
    enum Role { RunIdRole = Qt::UserRole + 1, SortRole, FilterRole };

    explicit RunsModel(QObject* parent = nullptr);

    void setRuns(const QVector<RunSummary>& runs, const SilentRuns& silent = {});
    const QVector<RunSummary>& runs() const { return m_runs; }
    // The run of a source row, or nullptr.
    const RunSummary* runAt(int row) const;
    int rowOf(std::int64_t runId) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    // After a language switch: views re-read the headers and the status words.
    void retranslate();

private:
    QVector<RunSummary> m_runs;
    SilentRuns m_silent;
};

// Case-insensitive substring filter over RunsModel::FilterRole; sorts by SortRole.
class RunsFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunsFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    QString m_text;
};

// The status a run is shown with: stalled when it is in `silent`, else the stored one;
// and its text, with the heartbeat's age for a silent run.
RunStatus shownRunStatus(qint64 runId, RunStatus stored, const SilentRuns& silent);
QString shownRunStatusText(qint64 runId, RunStatus stored, const SilentRuns& silent);

// "running" -> its colour (running blue, finished green, stopped grey, failed red, lost amber).
QColor runStatusColor(RunStatus s);

} // namespace zerolab
