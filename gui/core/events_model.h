// The run's events (start, checkpoints, acknowledged commands, errors) as a table
// model for the run view: time, level, rank, message; errors and warnings coloured.
#pragma once

#include "storage/records.h"

#include <QAbstractTableModel>

#include <vector>

namespace zerolab {

class EventsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time = 0, Level, Rank, Message };
    static constexpr int kColumnCount = 4;

    using QAbstractTableModel::QAbstractTableModel;

    void clear();
    // Appends events newer than the last one held (the store's ids increase).
    void append(const std::vector<Event>& events);
    const std::vector<Event>& events() const { return m_events; }
    // The language changed: the headers and the level and rank words are asked again.
    void retranslate();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

private:
    std::vector<Event> m_events;
};

} // namespace zerolab
