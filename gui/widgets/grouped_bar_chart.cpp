// Grouped bars with QCPBarsGroup; the legend sits above the plot, never over a bar.
#include "gui/widgets/grouped_bar_chart.h"

#include "gui/widgets/chart_actions.h"
#include "gui/widgets/style.h"

#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace zerolab {

GroupedBarChart::GroupedBarChart(QWidget* parent) : QWidget(parent), m_plot(new QCustomPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    stylePlot(m_plot);
    attachChartActions(m_plot);
    m_plot->setMinimumHeight(150);
    m_plot->setMouseTracking(true);
    placeLegendAbove(m_plot);
    connect(m_plot, &QCustomPlot::mouseMove, this, &GroupedBarChart::showTooltip);
}

void GroupedBarChart::setData(const QStringList& categories, const QVector<BarSeries>& series,
                              const QString& axisTitle) {
    m_categories = categories;
    m_series = series;
    m_plot->clearPlottables();
    m_plot->clearItems();
    auto* group = new QCPBarsGroup(m_plot);
    group->setSpacing(1);
    const double width = 0.8 / std::max<qsizetype>(1, series.size());
    double maxValue = 0;
    QVector<double> keys;
    for (int i = 0; i < categories.size(); ++i)
        keys << i;
    for (const auto& s : series) {
        auto* bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
        bars->setName(s.name);
        bars->setBrush(s.color);
        bars->setPen(Qt::NoPen);
        bars->setWidth(width);
        bars->setBarsGroup(group);
        QVector<double> values = s.values;
        for (double& v : values) {
            if (std::isnan(v))
                v = 0;
            maxValue = std::max(maxValue, v);
        }
        bars->setData(keys, values, true);
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < categories.size(); ++i)
        ticker->addTick(i, categories[i]);
    m_plot->xAxis->setTicker(ticker);
    m_plot->xAxis->setTickLength(0, 0);
    m_plot->xAxis->setRange(-0.6, std::max<qsizetype>(1, categories.size()) - 0.4);
    m_plot->yAxis->setLabel(axisTitle);
    m_plot->yAxis->setRange(0, maxValue > 0 ? maxValue * 1.25 : 1);
    m_plot->legend->setVisible(series.size() > 1);
    if (categories.isEmpty() && !m_emptyText.isEmpty()) {
        auto* text = new QCPItemText(m_plot);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setText(m_emptyText);
        text->setColor(kTextMuted);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void GroupedBarChart::showTooltip(QMouseEvent* event) {
    const double key = m_plot->xAxis->pixelToCoord(event->position().x());
    const int i = int(std::lround(key));
    if (i < 0 || i >= m_categories.size() || std::fabs(key - i) > 0.45) {
        QToolTip::hideText();
        return;
    }
    QString html = QStringLiteral("<b>%1</b><table>").arg(m_categories[i].toHtmlEscaped());
    for (const auto& s : m_series)
        if (i < s.values.size())
            html += QStringLiteral("<tr><td><span style='color:%1'>&#9632;</span> %2</td>"
                                   "<td align='right'>&nbsp;%3</td></tr>")
                        .arg(s.color.name(), s.name.toHtmlEscaped())
                        .arg(s.values[i], 0, 'g', 4);
    QToolTip::showText(event->globalPosition().toPoint(), html + QStringLiteral("</table>"),
                       m_plot);
}

} // namespace zerolab
