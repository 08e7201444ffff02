// Runs table model: display text, sort keys, status colours and tooltips.
#include "gui/core/runs_model.h"

#include "gui/core/display_text.h"
#include "gui/core/palette.h"
#include "gui/core/status_label.h"
#include "gui/core/units.h"

#include <QColor>
#include <QCoreApplication>
#include <QDateTime>

#include <cmath>

namespace zerolab {

QColor runStatusColor(RunStatus s) {
    switch (s) {
    case RunStatus::Running:
        return kAccent;
    case RunStatus::Finished:
        return kOkColor;
    case RunStatus::Stopped:
        return kTextMuted;
    case RunStatus::Failed:
        return kErrorColor;
    case RunStatus::Lost:
        return kWarnColor;
    case RunStatus::Stalled:
        return kAlarmColor;
    }
    return kTextDefault;
}

RunStatus shownRunStatus(qint64 runId, RunStatus stored, const SilentRuns& silent) {
    return silent.contains(runId) ? RunStatus::Stalled : stored;
}

QString shownRunStatusText(qint64 runId, RunStatus stored, const SilentRuns& silent) {
    if (!silent.contains(runId))
        return statusLabel(runStatusName(stored));
    return QCoreApplication::translate("zerolab::RunsModel", "%1 (no heartbeat for %2)")
        .arg(statusLabel(runStatusName(RunStatus::Stalled)), formatDuration(silent.value(runId)));
}

namespace {
std::string joinTags(const std::vector<std::string>& tags) {
    std::string out;
    for (const auto& t : tags)
        out += (out.empty() ? "" : ", ") + t;
    return out;
}
QVariant numberOrDash(double v, int decimals) {
    return std::isnan(v) ? QVariant(QStringLiteral("–"))
                         : QVariant(QString::number(v, 'f', decimals));
}
} // namespace

RunsModel::RunsModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunsModel::setRuns(const QVector<RunSummary>& runs, const SilentRuns& silent) {
    beginResetModel();
    m_runs = runs;
    m_silent = silent;
    endResetModel();
}

const RunSummary* RunsModel::runAt(int row) const {
    return row >= 0 && row < m_runs.size() ? &m_runs[row] : nullptr;
}

int RunsModel::rowOf(std::int64_t runId) const {
    for (int i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == runId)
            return i;
    return -1;
}

int RunsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_runs.size());
}

int RunsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant RunsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* kHeaders[kColumnCount] = {
        QT_TR_NOOP("Status"),   QT_TR_NOOP("Name"),  QT_TR_NOOP("Stage"),
        QT_TR_NOOP("N"),        QT_TR_NOOP("Steps"), QT_TR_NOOP("Loss"),
        QT_TR_NOOP("Tokens/s"), QT_TR_NOOP("Time"),  QT_TR_NOOP("Tags")};
    return tr(kHeaders[section]);
}

void RunsModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, kColumnCount - 1);
    if (!m_runs.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_runs.size()) - 1, kColumnCount - 1));
}

QVariant RunsModel::data(const QModelIndex& index, int role) const {
    const RunSummary* r = runAt(index.row());
    if (!r)
        return {};
    const int col = index.column();
    if (role == RunIdRole)
        return qint64(r->id);
    if (role == FilterRole)
        return QStringLiteral("%1 %2 %3 %4 %5 #%6")
            .arg(QString::fromStdString(r->name),
                 QString::fromUtf8(runStatusName(r->status).data()) + QLatin1Char(' ') +
                     statusLabel(runStatusName(r->status)),
                 QString::fromStdString(joinTags(r->tags)), QString::fromStdString(r->notes),
                 QString::fromStdString(r->host))
            .arg(r->id);
    if (role == SortRole) {
        switch (col) {
        case Status:
            return int(shownRunStatus(r->id, r->status, m_silent));
        case Name:
            return QString::fromStdString(r->name).toLower();
        case Stage:
            return r->stage;
        case World:
            return r->world;
        case Steps:
            return qint64(r->steps);
        case LastLoss:
            return std::isnan(r->last_loss) ? 1e300 : r->last_loss;
        case TokensPerS:
            return std::isnan(r->median_tokens_per_s) ? -1.0 : r->median_tokens_per_s;
        case Duration:
            return std::isnan(r->duration_s) ? -1.0 : r->duration_s;
        case Tags:
            return QString::fromStdString(joinTags(r->tags));
        }
    }
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Status:
            return shownRunStatusText(r->id, r->status, m_silent);
        case Name:
            return shownText(r->name, kShownNameChars);
        case Stage:
            return r->stage;
        case World:
            return r->world;
        case Steps:
            return r->steps < 0 ? QVariant(QStringLiteral("–")) : QVariant(qint64(r->steps));
        case LastLoss:
            return numberOrDash(r->last_loss, 3);
        case TokensPerS:
            return std::isnan(r->median_tokens_per_s) ? QStringLiteral("–")
                                                      : formatCount(r->median_tokens_per_s);
        case Duration:
            return formatDuration(r->duration_s);
        case Tags:
            return shownText(joinTags(r->tags), kShownTagsChars);
        }
    }
    if (role == Qt::ForegroundRole && col == Status)
        return runStatusColor(shownRunStatus(r->id, r->status, m_silent));
    if (role == Qt::TextAlignmentRole && col >= Stage && col <= Duration)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        QString tip = QStringLiteral("<b>#%1 %2</b><br>")
                          .arg(r->id)
                          .arg(shownText(r->name, kShownNameChars).toHtmlEscaped());
        if (!std::isnan(r->started_at))
            tip += tr("started %1")
                       .arg(QDateTime::fromSecsSinceEpoch(qint64(r->started_at))
                                .toString(QStringLiteral("yyyy-MM-dd hh:mm")));
        if (!r->host.empty())
            tip += tr(" on %1").arg(shownText(r->host, kShownNameChars).toHtmlEscaped());
        if (m_silent.contains(r->id))
            tip += QStringLiteral("<br>") + tr("stored as %1: rank 0 is stopped or hung")
                                                .arg(statusLabel(runStatusName(r->status)));
        if (!r->notes.empty())
            tip += QStringLiteral("<br><i>%1</i>")
                       .arg(shownText(r->notes, kShownMessageChars).toHtmlEscaped());
        return tip;
    }
    return {};
}

RunsFilterProxy::RunsFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(RunsModel::SortRole);
}

void RunsFilterProxy::setFilterText(const QString& text) {
    m_text = text.trimmed();
    invalidateFilter();
}

bool RunsFilterProxy::filterAcceptsRow(int row, const QModelIndex& parent) const {
    if (m_text.isEmpty())
        return true;
    const QString hay = sourceModel()->index(row, 0, parent).data(RunsModel::FilterRole).toString();
    for (const QString& word : m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        if (!hay.contains(word, Qt::CaseInsensitive))
            return false;
    return true;
}

} // namespace zerolab
