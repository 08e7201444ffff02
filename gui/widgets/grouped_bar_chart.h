// Bars grouped per category (one group per rank, one bar per series): the run
// view's per-rank collective times, bus bandwidth and rss / peak.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

class QCustomPlot;
class QMouseEvent;

namespace zerolab {

struct BarSeries {
    QString name;
    QColor color;
    QVector<double> values; // one per category
};

// UI thread only.
class GroupedBarChart : public QWidget {
    Q_OBJECT
public:
    explicit GroupedBarChart(QWidget* parent = nullptr);
    // Values are plotted as given; the axis title carries the unit.
    void setData(const QStringList& categories, const QVector<BarSeries>& series,
                 const QString& axisTitle);
    QCustomPlot* plot() const { return m_plot; }
    const QVector<BarSeries>& series() const { return m_series; }
    void setEmptyText(const QString& text) { m_emptyText = text; }

private:
    void showTooltip(QMouseEvent* event);

    QCustomPlot* m_plot;
    QStringList m_categories;
    QVector<BarSeries> m_series;
    QString m_emptyText;
};

} // namespace zerolab
