// Bars grouped per category (one group per rank, one bar per series): the run
// view's per-rank collective times, bus bandwidth and rss / peak; a series may carry a
// spread drawn as whiskers (the Lab's step times).
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QMouseEvent;

namespace zerolab {

struct BarSeries {
    QString name;
    QColor color;
    QVector<double> values; // one per category
};

// A spread over one series' bars: a whisker from low to high per category, named in the
// legend (e.g. "fastest to slowest step"). NaN: no whisker for that category.
struct BarSpread {
    int series = 0;
    QVector<double> low;
    QVector<double> high;
    QString name;
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
    // The unit after each value in the tooltip ("ms", "ψ"), the axis's; call before setData.
    void setValueUnit(const QString& unit) { m_valueUnit = unit; }
    // Whiskers over a series; call before setData (nullopt: none).
    void setSpread(std::optional<BarSpread> spread) { m_spread = std::move(spread); }
    const std::optional<BarSpread>& spread() const { return m_spread; }
    // A category's tooltip as HTML (for tests).
    QString tooltipHtml(int category) const;

private:
    void showTooltip(QMouseEvent* event);

    QCustomPlot* m_plot;
    QStringList m_categories;
    QVector<BarSeries> m_series;
    QString m_emptyText;
    QString m_valueUnit;
    std::optional<BarSpread> m_spread;
};

} // namespace zerolab
