// A stacked-bar chart of per-rank memory by ledger category: one bar per group
// (a ZeRO stage, a rank or a run), an optional device-capacity line, a dashed
// outline of a predicted total per bar, and one highlighted group.
#pragma once

#include "storage/mem_category.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPBars;

namespace zerolab {

struct MemoryBarGroup {
    QString label;                        // tick label under the bar
    MemBreakdown bytes;                   // stacked in MemCategory order, bottom up
    std::optional<double> predictedBytes; // drawn as a dashed outline when set
};

// UI thread only. Owns its QCustomPlot.
class MemoryBarChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBarChart(QWidget* parent = nullptr);

    void setGroups(const QVector<MemoryBarGroup>& groups);
    const QVector<MemoryBarGroup>& groups() const { return m_groups; }
    // Index into groups(), or -1 for none.
    void setHighlighted(int index);
    int highlighted() const { return m_highlighted; }
    // A horizontal line at `bytes` labelled e.g. "A100 80 GB"; nullopt hides it.
    void setCapacity(std::optional<double> bytes, const QString& label = {});
    void setValueAxisTitle(const QString& title) {
        m_axisTitle = title;
        rebuild();
    }

    // The plotted value (in bytes) of one stacked segment, for tests.
    double segmentBytes(int group, MemCategory c) const;
    QCustomPlot* plot() const { return m_plot; }

signals:
    void groupClicked(int index);

private:
    void rebuild();
    void showTooltip(QMouseEvent* event);
    int groupAt(double pixelX) const;

    QCustomPlot* m_plot;
    QVector<QCPBars*> m_bars; // one per MemCategory, stacked
    QVector<MemoryBarGroup> m_groups;
    int m_highlighted = -1;
    std::optional<double> m_capacity;
    QString m_capacityLabel;
    QString m_axisTitle = QStringLiteral("Memory per rank");
};

} // namespace zerolab
