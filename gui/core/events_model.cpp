// EventsModel: append-only rows, newest last.
#include "gui/core/events_model.h"

#include "gui/core/display_text.h"
#include "gui/core/palette.h"
#include "gui/core/status_label.h"

#include <QColor>
#include <QDateTime>

namespace zerolab {

void EventsModel::clear() {
    beginResetModel();
    m_events.clear();
    endResetModel();
}

void EventsModel::append(const std::vector<Event>& events) {
    std::vector<Event> fresh;
    for (const Event& e : events)
        if (m_events.empty() || e.id > m_events.back().id)
            fresh.push_back(e);
    if (fresh.empty())
        return;
    const int first = static_cast<int>(m_events.size());
    beginInsertRows({}, first, first + static_cast<int>(fresh.size()) - 1);
    m_events.insert(m_events.end(), fresh.begin(), fresh.end());
    endInsertRows();
}

int EventsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_events.size());
}

int EventsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant EventsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Event& e = m_events[static_cast<std::size_t>(index.row())];
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Time:
            return QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(e.time * 1000))
                .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"));
        case Level:
            return statusLabel(eventLevelName(e.level));
        case Rank:
            return e.rank < 0 ? tr("all") : QString::number(e.rank);
        case Message:
            return shownText(e.message, kShownMessageChars);
        }
    }
    if (role == Qt::ForegroundRole) {
        if (e.level == EventLevel::Error)
            return kErrorEventColor;
        if (e.level == EventLevel::Warn)
            return kWarnColor;
    }
    return {};
}

void EventsModel::retranslate() {
    emit headerDataChanged(Qt::Horizontal, 0, kColumnCount - 1);
    if (!m_events.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, kColumnCount - 1));
}

QVariant EventsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("Time");
    case Level:
        return tr("Level");
    case Rank:
        return tr("Rank");
    case Message:
        return tr("Message");
    }
    return {};
}

} // namespace zerolab
